#include "views/panes/DebugPane.h"

#include "views/common/Format.h"
#include "views/common/ScrollRow.h"
#include "views/common/Selection.h"
#include "views/panes/debug/BreakpointTreeModel.h"
#include "views/panes/debug/DebugController.h"
#include "views/panes/debug/HeatmapWidget.h"
#include "views/panes/debug/RunControls.h"
#include "views/panes/debug/TensorValuesModel.h"
#include "views/panes/debug/WatchListModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace tessera::views {

using namespace debugger;

DebugPane::DebugPane(QWidget* parent)
    : Pane(parent) {
    setObjectName(QStringLiteral("debugPane"));
    controller_ = new DebugController(this);
    programModel_ = new BreakpointTreeModel(this);
    valuesModel_ = new TensorValuesModel(this);
    watchModel_ = new WatchListModel(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    controls_ = new RunControls(this);
    layout->addWidget(controls_);
    status_ = new QLabel(tr("Pick a workload and press Start: it stops before its first step."));
    status_->setObjectName(QStringLiteral("debugStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    QFont bold = status_->font();
    bold.setBold(true);
    status_->setFont(bold);
    layout->addWidget(status_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->setChildrenCollapsible(false);
    programView_ = new QTreeView;
    programView_->setObjectName(QStringLiteral("debugProgram"));
    programView_->setModel(programModel_);
    programView_->setUniformRowHeights(true);
    programView_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    programView_->header()->setStretchLastSection(false);
    programView_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    programView_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    // Step names read from their start (their path); the whole name is in the tooltip.
    programView_->setTextElideMode(Qt::ElideRight);
    split->addWidget(programView_);
    split->addWidget(buildInspector());
    split->addWidget(buildSide());
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 4);
    split->setStretchFactor(2, 2);
    split->setSizes({400, 560, 440});
    layout->addWidget(split, 1);

    connect(controls_, &RunControls::startClicked, this, &DebugPane::startFromControls);
    connect(controls_, &RunControls::continueClicked, controller_, &DebugController::continueRun);
    connect(controls_, &RunControls::stepClicked, controller_, &DebugController::stepOver);
    connect(controls_, &RunControls::stepIntoClicked, controller_, &DebugController::stepInto);
    connect(controls_, &RunControls::pauseClicked, controller_, &DebugController::pause);
    connect(controls_, &RunControls::runToEndClicked, controller_, &DebugController::runToEnd);
    connect(controls_, &RunControls::message, this, &DebugPane::showMessage);
    connect(programModel_, &BreakpointTreeModel::breakpointToggled, controller_,
            &DebugController::setBreakpoint);
    connect(programView_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        const QVariant step = index.siblingAtColumn(BreakpointTreeModel::Step).data();
        if (selection_ && step.isValid()) { // look at that step in the other panes
            selection_->setStep(idFromVariant<record::StepId>(step));
        }
    });
    connect(controller_, &DebugController::started, this, &DebugPane::onStarted);
    connect(controller_, &DebugController::paused, this, &DebugPane::onPaused);
    connect(controller_, &DebugController::valuesRead, this, &DebugPane::onValues);
    connect(controller_, &DebugController::failed, this, [this](const QString& m) {
        showMessage(tr("Error: %1").arg(m));
        updateControls();
    });
    connect(controller_, &DebugController::busyChanged, this, [this](bool busy) {
        if (busy) {
            status_->setText(tr("Running…"));
        }
        updateControls();
    });
    connect(controller_, &DebugController::reportReady, this, [this](const QString& path) {
        if (reportsEnabled_ && sessionReports_) {
            emit reportProduced(path);
        }
    });
    updateControls();
}

DebugPane::~DebugPane() = default;

QWidget* DebugPane::buildInspector() {
    auto* box = new QWidget;
    inspector_ = box;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    tensorBox_ = new QComboBox;
    tensorBox_->setObjectName(QStringLiteral("debugTensor"));
    tensorBox_->setMinimumContentsLength(12);
    // Sized by that length, not by the longest tensor name (which widened the row).
    tensorBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    tensorBox_->setPlaceholderText(tr("tensor to inspect"));
    connect(tensorBox_, &QComboBox::textActivated, this, &DebugPane::inspect);
    auto* watch = new QPushButton(tr("Watch"));
    watch->setToolTip(tr("Add the inspected tensor to the watch list"));
    connect(watch, &QPushButton::clicked, this, [this] {
        if (!inspected_.isEmpty()) {
            addWatch(inspected_);
        }
    });
    colourBox_ = new QComboBox;
    colourBox_->addItems({tr("Colour by value"), tr("Colour by tile")});
    connect(colourBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        heatmap_->setMode(i == 0 ? HeatmapWidget::Mode::Values : HeatmapWidget::Mode::Tiles);
    });
    reduceBox_ = new QComboBox;
    reduceBox_->setObjectName(QStringLiteral("debugHeatmapReduce"));
    reduceBox_->addItems({tr("Pixel: mean"), tr("Pixel: minimum"), tr("Pixel: maximum")});
    reduceBox_->setToolTip(tr("A tensor with more elements than the heatmap has pixels is drawn "
                              "one pixel per block of elements: show the block's mean, minimum "
                              "or maximum"));
    connect(reduceBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        heatmap_->setReduce(i == 1 ? BinReduce::Min : i == 2 ? BinReduce::Max : BinReduce::Mean);
    });
    row->addWidget(new QLabel(tr("Inspect")));
    row->addWidget(tensorBox_, 1);
    row->addWidget(watch);
    auto* rowWidget = new QWidget;
    row->setContentsMargins(0, 0, 0, 0);
    rowWidget->setLayout(row);
    inspectorRow_ = new ScrollRow(rowWidget); // scrolls, not widens, in a small window
    v->addWidget(inspectorRow_);
    inspectorLabel_ = new QLabel;
    inspectorLabel_->setObjectName(QStringLiteral("debugInspectorLabel"));
    inspectorLabel_->setWordWrap(true);
    v->addWidget(inspectorLabel_);
    inspectorTabs_ = new QTabWidget;
    heatmap_ = new HeatmapWidget;
    valuesView_ = new QTableView;
    valuesView_->setObjectName(QStringLiteral("debugValues"));
    valuesView_->setModel(valuesModel_);
    valuesView_->verticalHeader()->setVisible(false);
    valuesView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    valuesView_->horizontalHeader()->setStretchLastSection(true);
    valuesView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // The heatmap's own options sit over it, not in the row above: that row
    // then fits the inspector's share of a 1200 px window without scrolling.
    auto* heatmapPage = new QWidget;
    auto* heatmapColumn = new QVBoxLayout(heatmapPage);
    heatmapColumn->setContentsMargins(0, 4, 0, 0);
    auto* options = new QWidget;
    auto* optionsRow = new QHBoxLayout(options);
    optionsRow->setContentsMargins(4, 0, 4, 0);
    optionsRow->addWidget(colourBox_);
    optionsRow->addWidget(reduceBox_);
    optionsRow->addStretch(1);
    heatmapColumn->addWidget(new ScrollRow(options));
    heatmapColumn->addWidget(heatmap_, 1);
    inspectorTabs_->addTab(heatmapPage, tr("Heatmap"));
    inspectorTabs_->addTab(valuesView_, tr("Values"));
    v->addWidget(inspectorTabs_, 1);
    connect(heatmap_, &HeatmapWidget::elementClicked, this, [this](int element) {
        valuesView_->selectRow(element);
        const auto& owners = valuesModel_->values().owners;
        if (selection_ && std::size_t(element) < owners.size()) {
            selection_->setTile(owners[std::size_t(element)]);
        }
    });
    return box;
}

QWidget* DebugPane::buildSide() {
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    watchView_ = new QTableView;
    watchView_->setObjectName(QStringLiteral("debugWatch"));
    watchView_->setModel(watchModel_);
    watchView_->verticalHeader()->setVisible(false);
    watchView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    watchView_->horizontalHeader()->setSectionResizeMode(WatchListModel::Values,
                                                         QHeaderView::Stretch);
    watchView_->setWordWrap(false);
    watchView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(watchView_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { inspect(watchModel_->names().value(i.row())); });
    auto* remove = new QPushButton(tr("Remove from watch list"));
    connect(remove, &QPushButton::clicked, this, [this] {
        const QModelIndex i = watchView_->currentIndex();
        if (i.isValid()) {
            watchModel_->remove(watchModel_->names().value(i.row()));
        }
    });
    runInfo_ = new QLabel;
    runInfo_->setObjectName(QStringLiteral("debugRunInfo"));
    runInfo_->setWordWrap(true);
    runInfo_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    runInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(new QLabel(tr("<b>Watch list</b> (double-click to inspect)")));
    v->addWidget(watchView_, 2);
    v->addWidget(remove);
    v->addWidget(new QLabel(tr("<b>Run so far</b>")));
    v->addWidget(runInfo_, 1);
    return box;
}

void DebugPane::setReport(std::shared_ptr<const ReportData>, std::shared_ptr<ReportSource>) {
    // The debugger runs its own program; reports (including the ones it
    // produces) are for the other panes.
}

void DebugPane::setSelection(Selection* selection) {
    selection_ = selection;
}

QList<ExportTarget> DebugPane::exportTargets() const {
    return {{QStringLiteral("debug-heatmap"), heatmap_, nullptr},
            {QStringLiteral("debug-values"), nullptr, valuesModel_},
            {QStringLiteral("debug-watch"), nullptr, watchModel_}};
}

bool DebugPane::isReady() const {
    return !controller_->busy() && awaitedReads_ == 0;
}

void DebugPane::showMessage(const QString& text) {
    status_->setText(text);
}

void DebugPane::startFromControls() {
    DebugConfig config;
    QString error;
    if (!controls_->config(config, &error)) {
        showMessage(tr("Error: %1").arg(error));
        return;
    }
    config.breaks.clear();
    start(config);
}

bool DebugPane::start(const DebugConfig& config) {
    if (controller_->busy()) {
        return false; // Pause first; the running command keeps the session
    }
    const StartChoice choice = startGuard_ ? startGuard_() : StartChoice::ShowRunInPanes;
    if (choice == StartChoice::Cancel) {
        showMessage(tr("Not started: the open report stays"));
        return false;
    }
    sessionReports_ = choice == StartChoice::ShowRunInPanes;
    DebugConfig c = config;
    if (reportsEnabled_ && sessionReports_ && c.reportDir.isEmpty() && reportDir_.isValid()) {
        c.reportDir = reportDir_.path();
    }
    QString error;
    if (!c.plugin.isEmpty() && !controls_->loadPlugin(c.plugin, &error)) {
        showMessage(tr("Error: %1").arg(error)); // the worker reports it too
    }
    controls_->showConfig(c);
    programModel_->setProgram({}, {});
    valuesModel_->clear();
    heatmap_->clear(tr("Starting %1…").arg(c.workload));
    inspectedNow_.reset();
    inspectedBefore_.reset();
    return controller_->start(c);
}

void DebugPane::onStarted(const SessionInfo& info) {
    programModel_->setProgram(info.nodes, info.breakpoints);
    programView_->expandToDepth(2);
    tensorBox_->clear();
    for (const TensorEntry& t : info.tensors) {
        tensorBox_->addItem(t.name);
        tensorBox_->setItemData(tensorBox_->count() - 1,
                                tr("%1 %2, %3")
                                    .arg(t.type, shapeText(t.shape),
                                         t.alwaysLive ? tr("always live") : tr("not always live")),
                                Qt::ToolTipRole);
    }
    if (tensorBox_->findText(inspected_) < 0) {
        inspected_.clear();
        heatmap_->clear(tr("Pick a tensor to inspect"));
    }
    tensorBox_->setCurrentIndex(tensorBox_->findText(inspected_));
}

void DebugPane::onPaused(const PauseState& state) {
    programModel_->setCurrentStep(state.step);
    if (const QModelIndex i = programModel_->indexOfStep(state.step); i.isValid()) {
        programView_->scrollTo(i);
    }
    QString text = stopText(state);
    if (!state.verification.isEmpty()) {
        text += QStringLiteral(" — ") + state.verification;
    }
    status_->setText(text);
    const std::uint64_t peak =
        state.liveBytes.empty() ? 0
                                : *std::max_element(state.liveBytes.begin(), state.liveBytes.end());
    const auto& info = controller_->info();
    runInfo_->setText(
        tr("%1 on %2 (%3 tiles)<br>%4 steps executed, %5 cycles<br>"
           "live memory at this step: up to %6 on a tile")
            .arg(info ? info->workload : QString(), info ? info->target : QString())
            .arg(info ? info->numTiles : 0)
            .arg(formatCount(state.stepsExecuted), formatCount(state.cycles), formatBytes(peak)) +
        (state.verification.isEmpty() ? QString() : QStringLiteral("<br>") + state.verification));
    if (selection_ && !state.step.isNone()) {
        selection_->setStep(state.step); // Execution and Liveness highlight it
    }
    requestValues();
    updateControls();
}

void DebugPane::requestValues() {
    QStringList names;
    if (!inspected_.isEmpty()) {
        names << inspected_;
    }
    for (const QString& w : watchModel_->names()) {
        if (!names.contains(w)) {
            names << w;
        }
    }
    if (!names.isEmpty() && controller_->hasSession()) {
        ++awaitedReads_;
        controller_->requestValues(names);
    }
}

void DebugPane::onValues(const QVector<TensorValues>& values) {
    awaitedReads_ = std::max(0, awaitedReads_ - 1);
    for (const TensorValues& v : values) {
        watchModel_->update(v);
        if (v.name == inspected_) {
            if (inspectedNow_ && inspectedNow_->name == v.name && inspectedNow_->pause != v.pause) {
                inspectedBefore_ = inspectedNow_;
            }
            inspectedNow_ = v;
            showInspected(v);
        }
    }
}

void DebugPane::showInspected(const TensorValues& v) {
    valuesModel_->setValues(v, inspectedBefore_);
    std::vector<bool> changed(valuesModel_->values().values.size());
    for (std::size_t i = 0; i < changed.size(); ++i) {
        changed[i] = valuesModel_->changed(int(i));
    }
    heatmap_->setValues(v, changed);
    if (!v.error.isEmpty()) {
        inspectorLabel_->setText(v.error);
        return;
    }
    if (!v.live) {
        inspectorLabel_->setText(
            tr("<b>%1</b> %2 is <b>not live at this step</b>: it is written later or was last "
               "used earlier, and its memory may hold another variable's values.")
                .arg(v.name, shapeText(v.shape)));
        return;
    }
    const std::set<record::TileId> tiles(v.owners.begin(), v.owners.end());
    QString text = tr("<b>%1</b> %2 on %n tile(s)", nullptr, int(tiles.size()))
                       .arg(v.name, shapeText(v.shape));
    if (!tiles.empty()) {
        text += tr(" (%1–%2)").arg(tiles.begin()->value()).arg(tiles.rbegin()->value());
    }
    text += valuesModel_->hasPrevious() ? tr("; %n element(s) changed since the previous pause",
                                             nullptr, valuesModel_->changedCount())
                                        : QString();
    inspectorLabel_->setText(text);
}

void DebugPane::inspect(const QString& tensor) {
    if (tensor.isEmpty()) {
        return;
    }
    if (tensor != inspected_) {
        inspectedNow_.reset();
        inspectedBefore_.reset();
    }
    inspected_ = tensor;
    if (tensorBox_->currentText() != tensor) {
        tensorBox_->setCurrentIndex(tensorBox_->findText(tensor));
    }
    if (controller_->hasSession()) {
        ++awaitedReads_;
        controller_->requestValues({tensor});
    }
}

void DebugPane::addWatch(const QString& tensor) {
    if (watchModel_->add(tensor) && controller_->hasSession()) {
        ++awaitedReads_;
        controller_->requestValues({tensor});
    }
}

void DebugPane::updateControls() {
    const auto& state = controller_->state();
    controls_->setState(controller_->hasSession(), controller_->busy(), state && state->finished);
}

} // namespace tessera::views
