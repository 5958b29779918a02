#include "views/compare/CompareLivenessPane.h"

#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/PlotStyle.h"
#include "views/common/Selection.h"
#include "views/compare/CompareData.h"
#include "views/compare/CompareWidgets.h"
#include "views/compare/models/CompareTables.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::views {

CompareLivenessPane::CompareLivenessPane(QWidget* parent)
    : ComparePane(parent) {
    setObjectName(QStringLiteral("compareLivenessPane"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 6, 8, 0);
    bar->addWidget(new QLabel(tr("Show"), this));
    modeBox_ = new QComboBox(this);
    modeBox_->setObjectName(QStringLiteral("livenessMode"));
    modeBox_->addItems({tr("Both curves"), tr("Difference (comparison − baseline)")});
    bar->addWidget(modeBox_);
    caption_ = makeMuted(QString(), this);
    caption_->setObjectName(QStringLiteral("livenessCaption"));
    bar->addSpacing(12);
    bar->addWidget(caption_, 1);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("livenessComparePlot"));
    plot_->setMinimumHeight(360); // the table below takes what is left
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new IntegerAxisTicker));
    plot_->xAxis->setLabel(tr("program step (aligned by program identity)"));
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteAxisTicker));
    plot_->yAxis->setLabel(tr("not-always-live bytes, all tiles"));
    baseline_ = plot_->addGraph();
    baseline_->setName(tr("baseline"));
    comparison_ = plot_->addGraph();
    comparison_->setName(tr("comparison"));
    difference_ = plot_->addGraph();
    difference_->setName(tr("comparison − baseline"));
    for (QCPGraph* g : {baseline_, comparison_, difference_}) {
        g->setLineStyle(QCPGraph::lsStepLeft);
    }
    marker_ = new QCPItemStraightLine(plot_);
    marker_->setPen(QPen(selectionColor(), 1.5, Qt::DashLine));
    marker_->setVisible(false);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    auto* card = new Card(tr("Liveness per program step"), this);
    auto* tableBar = new QHBoxLayout;
    changedOnly_ = new QCheckBox(tr("Changed only"), card);
    tableBar->addWidget(changedOnly_);
    tableBar->addStretch(1);
    card->body()->addLayout(tableBar);
    steps_ = new CompareTableModel(this);
    filter_ = new CompareFilterModel(this);
    filter_->setSourceModel(steps_);
    view_ = makeCompareTable(filter_, QStringLiteral("livenessDeltas"), card);
    card->body()->addWidget(view_, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    split->addWidget(card);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    split->setSizes({520, 340});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(modeBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMode(i == 1 ? Mode::Difference : Mode::Overlaid); });
    connect(changedOnly_, &QCheckBox::toggled, filter_, &CompareFilterModel::setChangedOnly);
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (plot_->axisRect()->rect().contains(e->pos())) {
            selectX(static_cast<int>(std::floor(plot_->xAxis->pixelToCoord(e->pos().x()))));
        }
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid() || !data_) {
                    return;
                }
                const int row = filter_->mapToSource(current).row();
                markX(row);
                const reports::LivenessDelta& r = data_->diff.liveness[std::size_t(row)];
                if (selection_ && !r.baselineStep.isNone()) {
                    selection_->setStep(r.baselineStep);
                }
            });
    applyStyle();
    setComparison(nullptr);
}

void CompareLivenessPane::setComparison(std::shared_ptr<const CompareData> comparison) {
    data_ = std::move(comparison);
    fillLiveness(*steps_, data_);
    rebuild();
    showStep(selection_ ? selection_->step() : record::StepId::none());
}

void CompareLivenessPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (selection_) {
        connect(selection_, &Selection::stepChanged, this, &CompareLivenessPane::showStep);
        showStep(selection_->step());
    }
}

void CompareLivenessPane::showStep(record::StepId baselineStep) {
    int x = -1;
    if (data_ && !baselineStep.isNone()) {
        const auto& rows = data_->diff.liveness;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (rows[i].baselineStep == baselineStep) {
                x = static_cast<int>(i);
            }
        }
    }
    markX(x);
}

void CompareLivenessPane::markX(int x) {
    markedX_ = x;
    marker_->setVisible(x >= 0);
    marker_->point1->setCoords(x + 0.5, 0);
    marker_->point2->setCoords(x + 0.5, 1);
    plot_->replot();
}

void CompareLivenessPane::setMode(Mode mode) {
    mode_ = mode;
    {
        const QSignalBlocker block(modeBox_);
        modeBox_->setCurrentIndex(mode == Mode::Difference ? 1 : 0);
    }
    rebuild();
}

void CompareLivenessPane::rebuild() {
    // x = row of the aligned liveness list; a step covers [x, x + 1). A side
    // lacking a step has NaN there, which QCustomPlot draws as a gap.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QVector<double> xs, b, c, d;
    double lo = 0, hi = 0;
    std::size_t added = 0, removed = 0;
    if (data_) {
        const auto& rows = data_->diff.liveness;
        for (std::size_t i = 0; i <= rows.size(); ++i) {
            // A closing point repeats the last step so its stair is drawn.
            const reports::LivenessDelta& r = rows[std::min(i, rows.size() - 1)];
            if (rows.empty()) {
                break;
            }
            const bool inB = r.change != reports::Change::Added;
            const bool inC = r.change != reports::Change::Removed;
            xs << static_cast<double>(i);
            b << (inB ? static_cast<double>(r.bytes.baseline) : nan);
            c << (inC ? static_cast<double>(r.bytes.comparison) : nan);
            d << (inB && inC ? static_cast<double>(r.bytes.delta()) : nan);
            if (i < rows.size()) {
                added += inB ? 0 : 1;
                removed += inC ? 0 : 1;
            }
        }
    }
    const bool diff = mode_ == Mode::Difference;
    baseline_->setData(xs, b, true);
    comparison_->setData(xs, c, true);
    difference_->setData(xs, d, true);
    baseline_->setVisible(!diff);
    comparison_->setVisible(!diff);
    difference_->setVisible(diff);
    baseline_->removeFromLegend();
    comparison_->removeFromLegend();
    difference_->removeFromLegend();
    for (QCPGraph* g :
         diff ? QList<QCPGraph*>{difference_} : QList<QCPGraph*>{baseline_, comparison_}) {
        g->addToLegend();
        for (const double v : g == baseline_ ? b : g == comparison_ ? c : d) {
            if (!std::isnan(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    }
    plot_->yAxis->setLabel(diff ? tr("comparison − baseline, all tiles")
                                : tr("not-always-live bytes, all tiles"));
    const double n = std::max<double>(1.0, static_cast<double>(xs.size()) - 1.0);
    plot_->xAxis->setRange(0, n);
    const double pad = std::max(1.0, (hi - lo) * 0.06);
    plot_->yAxis->setRange(lo < 0 ? lo - pad : 0, hi + pad);
    if (data_) {
        const reports::Figure* peak = data_->diff.figure("liveness-peak");
        caption_->setText(
            tr("%1 aligned steps (%2 only in the baseline, %3 only in the comparison) · peak %4 "
               "→ %5")
                .arg(data_->diff.liveness.size())
                .arg(removed)
                .arg(added)
                .arg(peak ? formatBytes(static_cast<std::uint64_t>(peak->value.baseline)) : "–",
                     peak ? formatBytes(static_cast<std::uint64_t>(peak->value.comparison)) : "–"));
    } else {
        caption_->clear();
    }
    plot_->replot();
}

void CompareLivenessPane::selectX(int x) {
    if (!data_ || x < 0 || static_cast<std::size_t>(x) >= data_->diff.liveness.size()) {
        return;
    }
    const QModelIndex index = filter_->mapFromSource(steps_->index(x, 0));
    if (index.isValid()) {
        view_->setCurrentIndex(index);
        view_->scrollTo(index);
    }
}

void CompareLivenessPane::applyStyle() {
    applyPlotPalette(plot_, palette());
    // The baseline wider underneath, so both show where the curves coincide.
    baseline_->setPen(QPen(baselineSideColor(), 3.5));
    QColor fill = baselineSideColor();
    fill.setAlpha(50);
    baseline_->setBrush(fill);
    comparison_->setPen(QPen(comparisonSideColor(), 1.5));
    difference_->setPen(QPen(worseColor(palette()), 2));
    QColor diffFill = worseColor(palette());
    diffFill.setAlpha(60);
    difference_->setBrush(diffFill);
    plot_->replot();
}

void CompareLivenessPane::changeEvent(QEvent* event) {
    ComparePane::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
    }
}

void CompareLivenessPane::zoomIn() {
    plot_->xAxis->scaleRange(0.5, plot_->xAxis->range().center());
    plot_->replot();
}

void CompareLivenessPane::zoomOut() {
    plot_->xAxis->scaleRange(2.0, plot_->xAxis->range().center());
    plot_->replot();
}

void CompareLivenessPane::resetZoom() {
    rebuild();
}

QList<ExportTarget> CompareLivenessPane::exportTargets() const {
    return {{QStringLiteral("compare-liveness"), plot_, filter_}};
}

} // namespace tessera::views
