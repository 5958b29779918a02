#include "views/compare/CompareExecutionPane.h"

#include "reports/CompareFormat.h"
#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/PlotStyle.h"
#include "views/common/Selection.h"
#include "views/compare/CompareData.h"
#include "views/compare/models/CompareTables.h"
#include "views/data/ReportData.h"
#include "views/panes/execution/FrameBuilder.h"
#include "views/panes/execution/TimelineFetcher.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QEvent>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

using namespace execution;

namespace {

// Steps drawn in the bar chart.
constexpr std::size_t kChartSteps = 10;

const reports::RunEntry* longestRun(const ReportData& data) {
    const reports::RunEntry* best = nullptr;
    for (const reports::RunEntry& r : data.runs) {
        if (!best || r.cycles > best->cycles) {
            best = &r;
        }
    }
    return best;
}

} // namespace

CompareExecutionPane::CompareExecutionPane(QWidget* parent)
    : ComparePane(parent) {
    setObjectName(QStringLiteral("compareExecutionPane"));
    caption_ = makeMuted(QString(), this);
    caption_->setObjectName(QStringLiteral("executionCaption"));
    caption_->setContentsMargins(8, 6, 8, 0);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("stepCyclesPlot"));
    plot_->setMinimumHeight(220);
    // Horizontal bars: steps on the y axis (the largest regression on top).
    baselineBars_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    baselineBars_->setName(tr("baseline"));
    comparisonBars_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    comparisonBars_->setName(tr("comparison"));
    auto* group = new QCPBarsGroup(plot_);
    for (QCPBars* b : {baselineBars_, comparisonBars_}) {
        b->setWidth(0.38);
        b->setPen(Qt::NoPen);
        b->setBarsGroup(group);
    }
    plot_->xAxis->setLabel(tr("cycles (all executions)"));
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    auto* chartCard = new Card(tr("Cycles per step, largest changes (regressions first)"), this);
    chartCard->body()->addWidget(plot_, 1);

    auto* timelines = new QWidget(this);
    auto* tl = new QVBoxLayout(timelines);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(2);
    const QString names[] = {tr("Baseline"), tr("Comparison")};
    for (int i = 0; i < 2; ++i) {
        Side& s = sides_[static_cast<std::size_t>(i)];
        s.viewport = new Viewport(this);
        s.fetcher = new TimelineFetcher(this);
        s.timeline = new TimelineWidget(s.viewport, timelines);
        s.timeline->setMinimumHeight(150);
        s.timeline->setObjectName(i == 0 ? QStringLiteral("baselineTimeline")
                                         : QStringLiteral("comparisonTimeline"));
        s.label = new QLabel(names[i], timelines);
        s.label->setContentsMargins(8, 4, 8, 0);
        QFont bold = s.label->font();
        bold.setBold(true);
        s.label->setFont(bold);
        tl->addWidget(s.label);
        tl->addWidget(s.timeline, 1);
        connect(s.timeline, &TimelineWidget::frameWanted, s.fetcher, &TimelineFetcher::request);
        connect(s.fetcher, &TimelineFetcher::frameReady, s.timeline, &TimelineWidget::setFrame);
        connect(s.fetcher, &TimelineFetcher::failed, this,
                [this, timeline = s.timeline](const QString& error) {
                    timeline->setProblem(tr("The timeline cannot be read: the report is damaged."));
                    emit problemFound(error);
                });
        connect(s.viewport, &Viewport::changed, this, [this, i] { follow(i); });
        connect(s.timeline, &TimelineWidget::stepClicked, this,
                [this, i](const record::StepExecutionRecord& e) { stepClicked(i, e.programStep); });
    }

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chartCard);
    split->addWidget(timelines);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    split->setSizes({420, 440});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addWidget(split, 1);
    applyStyle();
    setComparison(nullptr);
}

CompareExecutionPane::~CompareExecutionPane() = default;

void CompareExecutionPane::setSide(int side, std::shared_ptr<const ReportData> report,
                                   std::shared_ptr<ReportSource> source, double sharedLength) {
    Side& s = sides_[static_cast<std::size_t>(side)];
    s.builder = report && source ? std::make_shared<FrameBuilder>(report, source) : nullptr;
    s.fetcher->setBuilder(s.builder);
    const reports::RunEntry* run = report ? longestRun(*report) : nullptr;
    s.hasRun = run != nullptr;
    s.timeline->setReportData(run ? report : nullptr, run ? run->id : 0);
    if (run) {
        s.runStart = static_cast<double>(run->startCycle);
        // Both sides span the longer run, so equal pixels are equal cycles.
        s.viewport->setRun(s.runStart, s.runStart + sharedLength, report->target.numTiles);
        s.viewport->reset();
    }
}

void CompareExecutionPane::setComparison(std::shared_ptr<const CompareData> comparison) {
    data_ = std::move(comparison);
    double length = 1;
    for (const ReportData* d : {data_ ? data_->baselineView.data.get() : nullptr,
                                data_ ? data_->comparisonView.data.get() : nullptr}) {
        if (const reports::RunEntry* r = d ? longestRun(*d) : nullptr) {
            length = std::max(length, static_cast<double>(r->cycles));
        }
    }
    following_ = true;
    setSide(0, data_ ? data_->baselineView.data : nullptr,
            data_ ? data_->baselineView.source : nullptr, length);
    setSide(1, data_ ? data_->comparisonView.data : nullptr,
            data_ ? data_->comparisonView.source : nullptr, length);
    following_ = false;
    if (data_) {
        const auto* b = data_->baselineView.data.get();
        const auto* c = data_->comparisonView.data.get();
        const reports::RunEntry* rb = longestRun(*b);
        const reports::RunEntry* rc = longestRun(*c);
        sides_[0].label->setText(
            tr("Baseline · %1")
                .arg(rb ? tr("%1 cycles").arg(formatCount(rb->cycles)) : tr("no run recorded")));
        sides_[1].label->setText(
            tr("Comparison · %1")
                .arg(rc ? tr("%1 cycles").arg(formatCount(rc->cycles)) : tr("no run recorded")));
        const reports::Figure* cycles = data_->diff.figure("cycles");
        caption_->setText(
            tr("Total cycles %1 → %2 (%3). Timelines share one time axis from each run's "
               "start; zoom or drag either.")
                .arg(valueText(cycles->value.baseline, "cycles"),
                     valueText(cycles->value.comparison, "cycles"),
                     deltaText(cycles->value.delta(), "cycles")));
    } else {
        caption_->clear();
    }
    rebuildChart();
    showStep(selection_ ? selection_->step() : record::StepId::none());
}

void CompareExecutionPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (selection_) {
        connect(selection_, &Selection::stepChanged, this, &CompareExecutionPane::showStep);
        showStep(selection_->step());
    }
}

void CompareExecutionPane::showStep(record::StepId baselineStep) {
    matchedStep_ = record::StepId::none();
    if (data_ && !baselineStep.isNone()) {
        for (const reports::StepDelta& s : data_->diff.steps) {
            if (s.baselineStep == baselineStep && !s.comparisonStep.isNone()) {
                matchedStep_ = s.comparisonStep;
            }
        }
    }
    sides_[0].timeline->setSelectedStep(data_ ? baselineStep : record::StepId::none());
    sides_[1].timeline->setSelectedStep(matchedStep_);
}

void CompareExecutionPane::stepClicked(int side, record::StepId programStep) {
    if (!selection_ || !data_) {
        return;
    }
    if (side == 0) {
        selection_->setStep(programStep);
        return;
    }
    // A comparison step selects its matched baseline step (if it has one).
    for (const reports::StepDelta& s : data_->diff.steps) {
        if (s.comparisonStep == programStep && !s.baselineStep.isNone()) {
            selection_->setStep(s.baselineStep);
        }
    }
}

double CompareExecutionPane::visibleOffset(int side) const {
    const Side& s = sides_[static_cast<std::size_t>(side)];
    return s.viewport->time().start() - s.runStart;
}

void CompareExecutionPane::follow(int from) {
    if (following_) {
        return;
    }
    const Side& src = sides_[static_cast<std::size_t>(from)];
    Side& dst = sides_[static_cast<std::size_t>(1 - from)];
    if (!src.hasRun || !dst.hasRun) {
        return;
    }
    following_ = true;
    const TimeMapping& t = src.viewport->time();
    dst.viewport->setVisible(dst.runStart + (t.start() - src.runStart),
                             dst.runStart + (t.end() - src.runStart));
    following_ = false;
}

void CompareExecutionPane::rebuildChart() {
    charted_.clear();
    QVector<double> keys, b, c;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double hi = 1;
    if (data_) {
        // diff.steps is sorted by growth of cycles: regressions first, the
        // largest improvements last. Chart the steps that changed most.
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < data_->diff.steps.size(); ++i) {
            if (data_->diff.steps[i].cycles.delta() != 0) {
                order.push_back(i);
            }
        }
        std::stable_sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
            const auto& s = data_->diff.steps;
            const bool rx = s[x].cycles.delta() > 0, ry = s[y].cycles.delta() > 0;
            if (rx != ry) {
                return rx; // regressions before improvements
            }
            return std::llabs(s[x].cycles.delta()) > std::llabs(s[y].cycles.delta());
        });
        order.resize(std::min(order.size(), kChartSteps));
        charted_ = order;
        const double n = static_cast<double>(order.size());
        for (std::size_t k = 0; k < order.size(); ++k) {
            const reports::StepDelta& s = data_->diff.steps[order[k]];
            const double key = n - 1 - static_cast<double>(k); // first on top
            keys << key;
            b << static_cast<double>(s.cycles.baseline);
            c << static_cast<double>(s.cycles.comparison);
            hi = std::max({hi, static_cast<double>(s.cycles.baseline),
                           static_cast<double>(s.cycles.comparison)});
            QString label = QString::fromStdString(s.name);
            if (label.size() > 36) {
                label = QStringLiteral("…") + label.right(35);
            }
            ticker->addTick(key,
                            QStringLiteral("%1  %2").arg(
                                label, QString::fromStdString(reports::formatPercent(s.cycles))));
        }
    }
    baselineBars_->setData(keys, b); // keys descend: let QCustomPlot sort them
    comparisonBars_->setData(keys, c);
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, std::max<double>(1.0, static_cast<double>(keys.size())) - 0.4);
    plot_->xAxis->setRange(0, hi * 1.05);
    plot_->replot();
}

bool CompareExecutionPane::isReady() const {
    for (const Side& s : sides_) {
        if (s.hasRun &&
            (s.fetcher->isBusy() || (!s.fetcher->hasFailed() &&
                                     !s.timeline->frameSatisfies(s.timeline->wantedRequest())))) {
            return false;
        }
    }
    return true;
}

void CompareExecutionPane::applyStyle() {
    applyPlotPalette(plot_, palette());
    baselineBars_->setBrush(baselineSideColor());
    comparisonBars_->setBrush(comparisonSideColor());
    plot_->replot();
}

void CompareExecutionPane::changeEvent(QEvent* event) {
    ComparePane::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
    }
}

void CompareExecutionPane::zoomIn() {
    sides_[0].viewport->zoomCentre(1.5);
}
void CompareExecutionPane::zoomOut() {
    sides_[0].viewport->zoomCentre(1 / 1.5);
}
void CompareExecutionPane::resetZoom() {
    sides_[0].viewport->reset();
    sides_[1].viewport->reset();
}

QList<ExportTarget> CompareExecutionPane::exportTargets() const {
    return {{QStringLiteral("compare-step-cycles"), plot_, nullptr},
            {QStringLiteral("compare-baseline-timeline"), sides_[0].timeline, nullptr},
            {QStringLiteral("compare-comparison-timeline"), sides_[1].timeline, nullptr}};
}

} // namespace tessera::views
