// The Execution pane: runs, IPUs, the fetched frames and the summary strip;
// the search and revealing steps are in ExecutionPaneSearch.cpp.
#include "views/panes/ExecutionPane.h"

#include "views/common/Format.h"
#include "views/common/ScrollRow.h"
#include "views/common/Selection.h"
#include "views/data/ReportData.h"
#include "views/models/ExecutedStepsModel.h"
#include "views/panes/execution/FlameWidget.h"
#include "views/panes/execution/FrameBuilder.h"
#include "views/panes/execution/PaneStyle.h"
#include "views/panes/execution/StepDetailsPanel.h"
#include "views/panes/execution/StepText.h"
#include "views/panes/execution/SummaryStrip.h"
#include "views/panes/execution/TimeInteraction.h"
#include "views/panes/execution/TimelineFetcher.h"
#include "views/panes/execution/TimelineRenderer.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace tessera::views {

using namespace execution;

ExecutionPane::ExecutionPane(QWidget* parent)
    : Pane(parent) {
    viewport_ = new Viewport(this);
    fetcher_ = new TimelineFetcher(this);
    stepsModel_ = new ExecutedStepsModel(this);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 4, 8, 0);
    bar->addWidget(new QLabel(tr("Run"), this));
    runBox_ = new QComboBox(this);
    runBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(runBox_);
    auto addButton = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        bar->addWidget(b);
    };
    bar->addSpacing(12);
    ipuLabel_ = new QLabel(tr("IPU"), this);
    bar->addWidget(ipuLabel_);
    ipuBox_ = new QComboBox(this);
    ipuBox_->setObjectName(QStringLiteral("executionIpu"));
    ipuBox_->setToolTip(tr("The IPU whose tiles the rows show"));
    ipuBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(ipuBox_);
    ipuLabel_->hide();
    ipuBox_->hide();
    bar->addSpacing(12);
    addButton(tr("+"), tr("Zoom in (W, Up, Ctrl+=, mouse wheel)"), &ExecutionPane::zoomIn);
    addButton(tr("−"), tr("Zoom out (S, Down, Ctrl+-, mouse wheel)"), &ExecutionPane::zoomOut);
    addButton(tr("Fit"), tr("Show the whole run and all tiles (Home, Ctrl+0)"),
              &ExecutionPane::resetZoom);
    addButton(tr("All tiles"), tr("Show every tile (Ctrl+wheel zooms the tiles)"),
              [this] { viewport_->setTiles(0, viewport_->numTiles()); });
    bar->addSpacing(12);
    searchField_ = new QLineEdit(this);
    searchField_->setObjectName(QStringLiteral("executionSearch"));
    searchField_->setPlaceholderText(tr("Find steps…"));
    searchField_->setToolTip(tr("Steps whose name, compute set or operation contains the text "
                                "(Enter: next, Shift+Enter: previous, Esc: clear)"));
    searchField_->setClearButtonEnabled(true);
    searchField_->setMinimumWidth(180);
    searchField_->installEventFilter(this);
    bar->addWidget(searchField_);
    addButton(tr("▲"), tr("Previous match (Shift+Enter)"), &ExecutionPane::findPrevious);
    addButton(tr("▼"), tr("Next match (Enter)"), &ExecutionPane::findNext);
    matchLabel_ = new QLabel(this);
    matchLabel_->setObjectName(QStringLiteral("executionMatches"));
    bar->addWidget(matchLabel_);
    bar->addStretch(1);
    status_ = new QLabel(this);
    bar->addWidget(status_);

    timeline_ = new TimelineWidget(viewport_, this);
    flame_ = new FlameWidget(viewport_, this);
    strip_ = new SummaryStrip(this);
    details_ = new StepDetailsPanel(this);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(timeline_, 1);
    topLayout->addWidget(flame_);
    topLayout->addWidget(strip_);
    splitter_ = new QSplitter(Qt::Vertical, this);
    splitter_->addWidget(top);
    splitter_->addWidget(details_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 1);
    splitter_->setChildrenCollapsible(false);
    splitter_->setSizes({810, 70});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* barRow = new QWidget(this);
    barRow->setLayout(bar);
    layout->addWidget(new ScrollRow(barRow)); // scrolls, not widens, in a small window
    layout->addWidget(splitter_, 1);

    tableTimer_.setSingleShot(true);
    tableTimer_.setInterval(150);
    connect(&tableTimer_, &QTimer::timeout, this, &ExecutionPane::refreshStepsTable);
    connect(timeline_, &TimelineWidget::frameWanted, fetcher_, &TimelineFetcher::request);
    connect(fetcher_, &TimelineFetcher::frameReady, this, &ExecutionPane::frameArrived);
    connect(fetcher_, &TimelineFetcher::failed, this, [this](const QString& error) {
        timeline_->setProblem(tr("The timeline cannot be read: the report is damaged."));
        updateStatus();
        emit problemFound(error);
    });
    connect(details_, &StepDetailsPanel::problemFound, this, &Pane::problemFound);
    connect(viewport_, &Viewport::changed, this, &ExecutionPane::viewChanged);
    connect(timeline_, &TimelineWidget::stepClicked, this,
            [this](const record::StepExecutionRecord& e) {
                selectExecution(e.programStep, e.startCycle);
            });
    auto selectTile = [this](int tile) {
        if (selection_) {
            selection_->setTile(idFromNumber<record::TileId>(tile));
        }
    };
    connect(timeline_, &TimelineWidget::tileClicked, this, selectTile);
    connect(details_, &StepDetailsPanel::tileClicked, this, selectTile);
    connect(flame_, &FlameWidget::stepClicked, this, &ExecutionPane::selectExecution);
    connect(runBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i != run_) {
            setRun(i);
        }
    });
    connect(&findTask_.watcher(), &QFutureWatcher<void>::finished, this,
            &ExecutionPane::revealFound);
    searchTimer_.setSingleShot(true);
    searchTimer_.setInterval(200);
    connect(&searchTimer_, &QTimer::timeout, this, &ExecutionPane::startSearch);
    connect(searchField_, &QLineEdit::textChanged, this, [this] { searchTimer_.start(); });
    connect(&searchTask_.watcher(), &QFutureWatcher<void>::finished, this,
            &ExecutionPane::searchFinished);
    connect(ipuBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) {
            setIpu(i - 1);
        }
    });
    // The keys zoom and pan when the pane or its plots have focus.
    setFocusPolicy(Qt::ClickFocus);
}

ExecutionPane::~ExecutionPane() {
    if (builder_) {
        builder_->cancel(); // a search in progress stops instead of being waited for
    }
    findTask_.waitForFinished();
    searchTask_.waitForFinished();
}

void ExecutionPane::changeEvent(QEvent* event) {
    Pane::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::Polish) {
        QPalette p = status_->palette();
        p.setColor(QPalette::WindowText, mutedColor(palette()));
        status_->setPalette(p);
    }
}

void ExecutionPane::setReport(std::shared_ptr<const ReportData> report,
                              std::shared_ptr<ReportSource> source) {
    data_ = std::move(report);
    source_ = std::move(source);
    builder_ = data_ && source_ ? std::make_shared<FrameBuilder>(data_, source_) : nullptr;
    fetcher_->setBuilder(builder_);
    details_->setReport(data_, source_);
    strip_->setClockHz(data_ ? data_->target.clockHz : 0);
    shownStep_ = record::StepId::none();
    run_ = -1;
    ipu_ = -1;
    {
        const QSignalBlocker blockIpu(ipuBox_);
        ipuBox_->clear();
        const std::uint32_t ipus = data_ ? data_->target.numIpus : 0;
        if (ipus > 1 && data_->target.tilesPerIpu > 0) {
            ipuBox_->addItem(tr("All IPUs"));
            for (std::uint32_t i = 0; i < ipus; ++i) {
                ipuBox_->addItem(tr("IPU %1").arg(i));
            }
        }
        ipuBox_->setVisible(ipus > 1);
        ipuLabel_->setVisible(ipus > 1);
    }
    const QSignalBlocker block(runBox_);
    runBox_->clear();
    if (!data_ || data_->runs.empty()) {
        timeline_->setReportData(data_, 0);
        flame_->setReportData(data_, 0);
        stepsModel_->setSteps(data_, {}, 0);
        status_->setText(data_ ? tr("This report has no runs") : QString());
        return;
    }
    int longest = 0;
    for (std::size_t i = 0; i < data_->runs.size(); ++i) {
        const reports::RunEntry& r = data_->runs[i];
        runBox_->addItem(
            tr("#%1 · program %2 · %3 steps · %4")
                .arg(r.id)
                .arg(r.programIndex)
                .arg(formatCount(r.steps))
                .arg(cyclesText(static_cast<double>(r.cycles), data_->target.clockHz)));
        if (r.cycles > data_->runs[static_cast<std::size_t>(longest)].cycles) {
            longest = static_cast<int>(i);
        }
    }
    runBox_->setCurrentIndex(longest);
    setRun(longest);
    if (selection_ && !selection_->step().isNone()) {
        showStep(selection_->step());
    }
}

void ExecutionPane::setRun(int run) {
    if (!data_ || run < 0 || static_cast<std::size_t>(run) >= data_->runs.size()) {
        return;
    }
    run_ = run;
    {
        const QSignalBlocker block(runBox_);
        runBox_->setCurrentIndex(run);
    }
    const reports::RunEntry& r = data_->runs[static_cast<std::size_t>(run)];
    timeline_->setReportData(data_, r.id);
    flame_->setReportData(data_, builder_->hierarchy().depth(r.programIndex));
    flame_->setFixedHeight(flame_->sizeHint().height());
    stepsModel_->setSteps(data_, {}, r.startCycle);
    const auto begin = static_cast<double>(r.startCycle);
    viewport_->setRun(begin, begin + static_cast<double>(r.cycles), data_->target.numTiles);
    applyIpu();
    updateStatus();
    startSearch(); // the matches are the run's
}

void ExecutionPane::setIpu(int ipu) {
    const int ipus = data_ ? static_cast<int>(data_->target.numIpus) : 0;
    ipu_ = ipus > 1 && ipu >= 0 && ipu < ipus ? ipu : -1;
    {
        const QSignalBlocker block(ipuBox_);
        ipuBox_->setCurrentIndex(ipu_ + 1);
    }
    applyIpu();
}

void ExecutionPane::applyIpu() {
    if (!data_) {
        return;
    }
    const std::uint32_t perIpu = data_->target.tilesPerIpu;
    if (ipu_ >= 0 && perIpu > 0) {
        viewport_->setTileBounds(static_cast<std::uint32_t>(ipu_) * perIpu, perIpu);
    } else {
        viewport_->setTileBounds(0, viewport_->numTiles());
    }
}

void ExecutionPane::keyPressEvent(QKeyEvent* event) {
    // Keys the focused child left alone (the plots handle their own; the
    // search field keeps its keys, see eventFilter).
    if (keyTime(*viewport_, *event)) {
        event->accept();
        return;
    }
    Pane::keyPressEvent(event);
}

void ExecutionPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (!selection_) {
        return;
    }
    connect(selection_, &Selection::tileChanged, this, [this](record::TileId tile) {
        timeline_->setSelectedTile(idNumber(tile));
        details_->setSelectedTile(idNumber(tile));
    });
    timeline_->setSelectedTile(idNumber(selection_->tile()));
    details_->setSelectedTile(idNumber(selection_->tile()));
    connect(selection_, &Selection::stepChanged, this, [this](record::StepId step) {
        showStep(step);
        if (!clicking_ && !step.isNone()) {
            revealStep(step);
        }
    });
    showStep(selection_->step());
}

QList<ExportTarget> ExecutionPane::exportTargets() const {
    return {{QStringLiteral("execution-timeline"), timeline_, nullptr},
            {QStringLiteral("execution-flame"), flame_, nullptr},
            {QStringLiteral("execution-steps"), nullptr, stepsModel_}};
}

void ExecutionPane::zoomIn() {
    viewport_->zoomCentre(1.5);
}
void ExecutionPane::zoomOut() {
    viewport_->zoomCentre(1 / 1.5);
}
void ExecutionPane::resetZoom() {
    viewport_->reset();
}

bool ExecutionPane::isFetching() const {
    // A failed fetch is done: the timeline says it cannot be read.
    return fetcher_->isBusy() || (!fetcher_->hasFailed() && data_ && run_ >= 0 &&
                                  !timeline_->frameSatisfies(timeline_->wantedRequest()));
}

void ExecutionPane::frameArrived(std::shared_ptr<const TimelineFrame> frame) {
    if (run_ < 0 || frame->request.run != data_->runs[static_cast<std::size_t>(run_)].id) {
        return; // built for the run shown before
    }
    timeline_->setFrame(frame);
    flame_->setFrame(frame);
    updateStrip();
    updateStatus();
    tableTimer_.start();
}

void ExecutionPane::viewChanged() {
    updateStrip();
    updateStatus();
    tableTimer_.start();
}

void ExecutionPane::refreshStepsTable() {
    const TimelineFrame* f = timeline_->frame();
    std::vector<record::StepExecutionRecord> steps;
    if (f && f->stepsComplete) {
        const TimeMapping& m = viewport_->time();
        for (const auto& e : f->steps) {
            const auto s = static_cast<double>(e.startCycle);
            if (s + static_cast<double>(e.cycles) > m.start() && s < m.end()) {
                steps.push_back(e);
            }
        }
    }
    const std::uint64_t origin =
        run_ >= 0 ? data_->runs[static_cast<std::size_t>(run_)].startCycle : 0;
    stepsModel_->setSteps(data_, std::move(steps), origin);
}

void ExecutionPane::showStep(record::StepId programStep) {
    if (programStep == shownStep_) {
        return;
    }
    shownStep_ = programStep;
    // The details take room only when there is something to show.
    const QList<int> sizes = splitter_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (total > 0) {
        const int wanted = programStep.isNone() ? 70 : std::max(sizes.value(1), 240);
        splitter_->setSizes({total - wanted, wanted});
    }
    timeline_->setSelectedStep(programStep);
    flame_->setSelectedStep(programStep);
    details_->showStep(programStep);
    updateStrip();
}

void ExecutionPane::selectExecution(record::StepId programStep, std::uint64_t) {
    clicking_ = true;
    if (selection_) {
        selection_->setStep(programStep);
    }
    clicking_ = false;
    showStep(programStep);
}

void ExecutionPane::updateStrip() {
    StripFigures visible, selected;
    const TimelineFrame* f = timeline_->frame();
    const TimeMapping& m = viewport_->time();
    if (f && data_) {
        visible.valid = true;
        // With one IPU shown, the top row holds that IPU's tiles (whole groups).
        const TimelineRow& top = timeline_->layout().rows.front();
        const bool oneIpu = top.kind == RowKind::AllTiles && top.groupCount > 0;
        visible.scope = oneIpu ? tr("Visible on IPU %1").arg(ipu_) : tr("Visible");
        const double tiles = std::max(1u, oneIpu ? top.tileCount : f->numTiles);
        for (std::size_t i = f->firstItemAfter(m.start()); i < f->items.size(); ++i) {
            const TimelineItem& item = f->items[i];
            const auto s = static_cast<double>(item.startCycle);
            const auto len = static_cast<double>(item.cycles);
            if (s >= m.end()) {
                break;
            }
            // The part of the item in view.
            const double w =
                len > 0 ? (std::min(s + len, m.end()) - std::max(s, m.start())) / len : 0;
            visible.cycles += w * len;
            visible.steps += w * static_cast<double>(item.steps);
            visible.compute += w * static_cast<double>(item.computePhase);
            visible.exchange += w * static_cast<double>(item.exchangePhase);
            visible.sync += w * static_cast<double>(item.syncPhase);
            if (oneIpu) {
                const RowFigures r = rowFigures(*f, top, i, i + 1);
                visible.maxCompute += w * r.computeMax;
                visible.meanCompute += w * r.compute / tiles;
                continue;
            }
            visible.maxCompute += w * static_cast<double>(item.computePhase);
            if (item.stats && item.stats->compute.size() > f->groups) {
                visible.meanCompute +=
                    w * static_cast<double>(item.stats->compute[f->groups].sum) / tiles;
            }
        }
        visible.steps = std::round(visible.steps);
    }
    const reports::ProgramStepEntry* s =
        data_ && !shownStep_.isNone() ? data_->step(shownStep_) : nullptr;
    if (s) {
        selected.valid = true;
        // The step's stored figures are over every tile, also with one IPU shown.
        selected.scope = ipu_ >= 0 ? tr("Step %1, all IPUs").arg(stepLabel(*data_, s->id))
                                   : tr("Step %1").arg(stepLabel(*data_, s->id));
        selected.cycles = static_cast<double>(s->totalCycles);
        selected.compute = static_cast<double>(s->computePhaseCycles);
        selected.exchange = static_cast<double>(s->exchangePhaseCycles);
        selected.sync = static_cast<double>(s->syncCycles);
        selected.maxCompute = static_cast<double>(s->computeCyclesMax);
        selected.meanCompute =
            static_cast<double>(s->computeCyclesSum) / std::max<double>(1, data_->target.numTiles);
    }
    strip_->setFigures(visible, selected);
}

void ExecutionPane::updateStatus() {
    const TimelineFrame* f = timeline_->frame();
    QStringList parts;
    if (f && f->index) {
        if (const reports::LodLevel* level = f->index->level(f->level); level && level->level > 0) {
            parts << tr("buckets of %1 steps").arg(formatCount(level->bucketSteps));
        } else {
            parts << tr("single steps");
        }
    }
    const auto& layout = timeline_->layout();
    if (layout.rows.size() > 1) {
        parts << (layout.tileRows ? tr("tiles %1–%2")
                                        .arg(viewport_->tileFirst())
                                        .arg(viewport_->tileFirst() + viewport_->tileCount() - 1)
                                  : tr("%1 rows of tile groups").arg(layout.rows.size() - 1));
    }
    if (fetcher_->isBusy()) {
        parts << tr("loading…");
    } else if (fetcher_->hasFailed()) {
        parts << tr("the timeline cannot be read");
    }
    status_->setText(parts.join(" · "));
}

} // namespace tessera::views
