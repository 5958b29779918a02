#include "views/panes/ProgramPane.h"

#include "views/common/Colors.h"
#include "views/common/FillingColumn.h"
#include "views/common/Format.h"
#include "views/common/ProportionBar.h"
#include "views/common/Selection.h"
#include "views/models/OperationsModel.h"
#include "views/models/ProgramKinds.h"
#include "views/models/ProgramStats.h"
#include "views/models/ProgramTreeModel.h"
#include "views/panes/program/DataflowView.h"
#include "views/panes/program/OperationsView.h"
#include "views/panes/program/ProgramStatsLoader.h"
#include "views/panes/program/ShareBarDelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

QSortFilterProxyModel* makeProxy(QAbstractItemModel* source, QObject* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(kSortRole);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(0);
    proxy->setRecursiveFilteringEnabled(true);
    return proxy;
}

QLineEdit* makeFilter(const QString& placeholder) {
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    edit->setMinimumWidth(260);
    edit->setMaximumWidth(360);
    return edit;
}

} // namespace

ProgramPane::ProgramPane(QWidget* parent)
    : Pane(parent) {
    setObjectName("programPane");
    treeModel_ = new ProgramTreeModel(this);
    statsLoader_ = new ProgramStatsLoader(this);
    connect(statsLoader_, &ProgramStatsLoader::computed, this, &ProgramPane::statsComputed);
    treeProxy_ = makeProxy(treeModel_, this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    tabs_->addTab(buildTreeTab(), "Program tree");
    tabs_->addTab(buildOperationsTab(), "Operations");
    graph_ = new DataflowView;
    tabs_->addTab(graph_, "Dataflow graph");
    layout->addWidget(tabs_, 1);
    detailsPanel_ = buildDetails();
    layout->addWidget(detailsPanel_);
    // The Operations tab has its own detail tabs; the strip under it would repeat them.
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int tab) { detailsPanel_->setVisible(tab != OperationsTab); });
    connect(graph_, &DataflowView::stepActivated, this,
            [this](record::StepId step, record::ComputeSetId computeSet) {
                revealStep(step);
                if (selection_) {
                    selection_->setStep(step);
                    if (!computeSet.isNone()) {
                        selection_->setComputeSet(computeSet);
                    }
                }
            });
}

ProgramPane::~ProgramPane() = default;

QWidget* ProgramPane::buildTreeTab() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* top = new QHBoxLayout;
    treeFilter_ = makeFilter("Search the program (names, kinds)");
    auto* expand = new QToolButton;
    expand->setText("Expand all");
    auto* collapse = new QToolButton;
    collapse->setText("Collapse");
    top->addWidget(treeFilter_);
    top->addWidget(expand);
    top->addWidget(collapse);
    top->addStretch(1);
    layout->addLayout(top);
    treeView_ = new QTreeView;
    treeView_->setModel(treeProxy_);
    treeView_->setUniformRowHeights(true);
    treeView_->setAlternatingRowColors(true);
    treeView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    treeView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    treeView_->header()->setStretchLastSection(false);
    treeView_->setColumnHidden(ProgramTreeModel::Kind, true); // the swatch and the label say it
    treeView_->setIconSize(QSize(9, 9));
    treeView_->setItemDelegateForColumn(ProgramTreeModel::CyclesShare,
                                        new ShareBarDelegate(treeView_));
    layout->addWidget(treeView_, 1);
    nameFill_ = FillingColumn::install(treeView_, treeView_->header(), ProgramTreeModel::Name);
    connect(expand, &QToolButton::clicked, treeView_, &QTreeView::expandAll);
    connect(collapse, &QToolButton::clicked, this, [this] { treeView_->expandToDepth(1); });
    connect(treeFilter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        treeProxy_->setFilterFixedString(text);
        if (text.isEmpty()) {
            treeView_->expandToDepth(2);
        } else {
            treeView_->expandAll();
        }
    });
    connect(treeView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { treeNodeActivated(current); });
    return page;
}

QWidget* ProgramPane::buildOperationsTab() {
    ops_ = new OperationsView;
    connect(ops_, &OperationsView::operationSelected, this,
            [this](int node) { showNodeDetails(node); });
    connect(ops_, &OperationsView::operationActivated, this, [this](int node) {
        graph_->setScope(node);
        tabs_->setCurrentIndex(GraphTab);
    });
    connect(ops_, &OperationsView::stepActivated, this, [this](record::StepId step) {
        revealStep(step);
        if (selection_) {
            selection_->setStep(step);
        }
    });
    return ops_;
}

QTreeView* ProgramPane::operationsView() const {
    return ops_->view();
}
OperationsModel* ProgramPane::operationsModel() const {
    return ops_->model();
}
QSortFilterProxyModel* ProgramPane::operationsProxy() const {
    return ops_->proxy();
}
QLineEdit* ProgramPane::operationsFilter() const {
    return ops_->filter();
}

QWidget* ProgramPane::buildDetails() {
    auto* panel = new QWidget;
    auto* row = new QHBoxLayout(panel);
    row->setContentsMargins(4, 4, 4, 0);
    details_ = new QLabel("Select a node, an operation or a compute set to see its figures.");
    details_->setTextFormat(Qt::RichText);
    details_->setWordWrap(true);
    details_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    split_ = new ProportionBar;
    split_->setFixedWidth(380);
    // As tall as with its three segments, so the strip does not jump.
    split_->setSegments({{"compute", 0, {}, {}}, {"exchange", 0, {}, {}}, {"sync", 0, {}, {}}});
    split_->setFixedHeight(split_->sizeHint().height());
    split_->setSegments({});
    row->addWidget(details_, 1);
    row->addWidget(split_);
    return panel;
}

void ProgramPane::setReport(std::shared_ptr<const ReportData> reportData,
                            std::shared_ptr<ReportSource> reportSource) {
    data_ = reportData && reportSource ? std::move(reportData) : nullptr;
    // The figures are computed on a worker; until they arrive the pane is empty.
    showStats(nullptr);
    if (data_) {
        details_->setText("Computing the program's figures…");
        statsLoader_->load(data_, std::move(reportSource));
    } else {
        statsLoader_->cancel();
    }
}

bool ProgramPane::isReady() const {
    return !statsLoader_->isComputing();
}

void ProgramPane::statsComputed(const ComputedProgramStats& result) {
    if (!result.problem.isEmpty()) {
        // Without the executed steps (a damaged report), the tree still shows.
        emit problemFound(result.problem);
    }
    showStats(result.stats);
}

void ProgramPane::showStats(std::shared_ptr<const ProgramStats> stats) {
    stats_ = data_ ? std::move(stats) : nullptr;
    const auto shown = stats_ ? data_ : nullptr;
    treeModel_->setProgram(shown, stats_);
    ops_->setProgram(shown, stats_);
    graph_->setProgram(shown, stats_);
    treeView_->expandToDepth(2);
    treeView_->header()->setSectionResizeMode(ProgramTreeModel::Name, QHeaderView::Interactive);
    for (int c = ProgramTreeModel::Executions; c < ProgramTreeModel::ColumnCount; ++c) {
        treeView_->resizeColumnToContents(c);
        treeView_->setColumnWidth(c, treeView_->columnWidth(c) + 12);
    }
    // The names' own width last: it is the floor the filling keeps.
    treeView_->setColumnWidth(ProgramTreeModel::Name, 460);
    nameFill_->refit();
    split_->setSegments({});
    if (!stats_) {
        details_->setText("No report");
        return;
    }
    details_->setText("Select a node, an operation or a compute set to see its figures.");
    if (selection_ && !selection_->step().isNone()) {
        revealStep(selection_->step());
        graph_->selectStep(selection_->step());
    }
}

void ProgramPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (!selection_) {
        return;
    }
    connect(selection_, &Selection::stepChanged, this, [this](record::StepId step) {
        revealStep(step);
        graph_->selectStep(step);
    });
    connect(selection_, &Selection::computeSetChanged, this,
            [this](record::ComputeSetId computeSet) { graph_->markComputeSet(computeSet); });
}

QList<ExportTarget> ProgramPane::exportTargets() const {
    // The proxies: rows in the order (and with the filter) the views show.
    return {{"program-tree", treeView_, treeProxy_},
            {"operations", ops_->view(), ops_->proxy()},
            {"dataflow-graph", graph_, nullptr}};
}

void ProgramPane::zoomIn() {
    graph_->zoomBy(1.25);
}
void ProgramPane::zoomOut() {
    graph_->zoomBy(0.8);
}
void ProgramPane::resetZoom() {
    graph_->fitAll();
}

void ProgramPane::treeNodeActivated(const QModelIndex& proxyIndex) {
    const QModelIndex index = treeProxy_->mapToSource(proxyIndex);
    const int node = treeModel_->nodePosition(index);
    if (node < 0) {
        return;
    }
    showNodeDetails(node);
    if (syncing_ || !selection_) {
        return;
    }
    const auto step = idFromVariant<record::StepId>(treeModel_->data(index, kStepIdRole));
    const auto computeSet =
        idFromVariant<record::ComputeSetId>(treeModel_->data(index, kComputeSetRole));
    if (!step.isNone()) {
        selection_->setStep(step);
        if (!computeSet.isNone()) {
            selection_->setComputeSet(computeSet);
        }
    }
}

void ProgramPane::revealStep(record::StepId step) {
    if (!stats_ || step.isNone()) {
        return;
    }
    const QModelIndex proxyIndex = treeProxy_->mapFromSource(treeModel_->indexOfStep(step));
    if (!proxyIndex.isValid()) {
        return;
    }
    syncing_ = true;
    treeView_->setCurrentIndex(proxyIndex);
    treeView_->scrollTo(proxyIndex);
    syncing_ = false;
}

void ProgramPane::showNodeDetails(int nodePosition) {
    if (!stats_ || nodePosition < 0) {
        return;
    }
    const auto& n = data_->programNodes[static_cast<std::size_t>(nodePosition)];
    const NodeStats& a = stats_->nodes[static_cast<std::size_t>(nodePosition)];
    const double share = stats_->totalCycles ? static_cast<double>(a.cycles) /
                                                   static_cast<double>(stats_->totalCycles)
                                             : 0;
    QString text =
        QString("<b>%1</b> %2<br>")
            .arg(programKindText(n.kind),
                 QString::fromStdString(nodeLabel(*data_, *stats_, nodePosition)).toHtmlEscaped());
    text += QString("%1 cycles (%2 of the total, %3) over %4%5 execution%6 · %7 step%8")
                .arg(formatCount(a.cycles), formatPercent(share),
                     formatCyclesAsTime(a.cycles, data_->target.clockHz),
                     a.executionsExact ? QString() : QString("~"), formatCount(a.executions),
                     a.executions == 1 ? "" : "s", formatCount(a.steps), a.steps == 1 ? "" : "s");
    QStringList more{QString("peak not-always-live on the fullest tile %1")
                         .arg(formatBytes(a.peakNotAlwaysLive))};
    if (a.vertices > 0) {
        more << QString("%1 vertices").arg(formatCount(a.vertices));
    }
    if (a.flops > 0) {
        more << QString("%1 FLOPs (%2 per cycle)")
                    .arg(formatCount(a.flops))
                    .arg(static_cast<double>(a.flops) /
                             static_cast<double>(std::max<std::uint64_t>(1, a.cycles)),
                         0, 'f', 2);
    }
    if (a.bytesExchanged > 0) {
        more << QString("received %1").arg(formatBytes(a.bytesExchanged));
    }
    text += "<br>" + more.join(" · ");
    details_->setText(text);
    split_->setSegments(
        {{"compute", static_cast<double>(a.computeCycles), phaseColor(Phase::Compute),
          formatCount(a.computeCycles) + " cycles"},
         {"exchange", static_cast<double>(a.exchangeCycles), phaseColor(Phase::Exchange),
          formatCount(a.exchangeCycles) + " cycles"},
         {"sync", static_cast<double>(a.syncCycles), phaseColor(Phase::Sync, palette()),
          formatCount(a.syncCycles) + " cycles"}});
}

} // namespace tessera::views
