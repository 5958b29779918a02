#include "views/panes/program/OperationsView.h"

#include "views/common/ColumnChooser.h"
#include "views/common/Format.h"
#include "views/models/OperationsModel.h"
#include "views/panes/program/OperationDetails.h"
#include "views/panes/program/ShareBarDelegate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

namespace {
const char* const kLayerTip =
    "PopLibs: the library calls; Application: the program's own named blocks (debug-name "
    "prefixes)";
} // namespace

OperationsView::OperationsView(QWidget* parent)
    : QWidget(parent) {
    model_ = new OperationsModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(kSortRole);
    proxy_->setFilterRole(OperationsModel::kFilterTextRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setRecursiveFilteringEnabled(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* top = new QHBoxLayout;
    layerBox_ = new QComboBox;
    layerBox_->addItem("Layer: All", int(LayerFilter::All));
    layerBox_->addItem("Layer: PopLibs", int(LayerFilter::Library));
    layerBox_->addItem("Layer: Application", int(LayerFilter::Application));
    layerBox_->setToolTip(kLayerTip);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText("Filter operations");
    filter_->setClearButtonEnabled(true);
    filter_->setMinimumWidth(220);
    filter_->setMaximumWidth(360);
    summary_ = new QLabel;
    top->addWidget(layerBox_);
    top->addWidget(summary_, 1);
    top->addWidget(filter_);
    layout->addLayout(top);

    view_ = new QTreeView;
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(OperationsModel::Cycles, Qt::DescendingOrder);
    view_->setAlternatingRowColors(true);
    view_->setUniformRowHeights(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->header()->setStretchLastSection(false);
    view_->setToolTip("Double-click an operation to draw its dataflow graph");
    view_->setItemDelegateForColumn(OperationsModel::CyclesShare, new ShareBarDelegate(view_));
    columns_ = new ColumnChooser(view_->header());
    top->insertWidget(top->count() - 1, columns_->button());
    details_ = new OperationDetails;
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(details_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);

    connect(layerBox_, &QComboBox::currentIndexChanged, this, [this] {
        model_->setLayer(static_cast<LayerFilter>(layerBox_->currentData().toInt()));
        view_->expandAll();
        refreshSummary();
        details_->showTotals(model_->tree());
    });
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilterFixedString(text);
        view_->expandAll();
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { currentChanged(current); });
    connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        const int row = model_->treeRow(proxy_->mapToSource(index));
        if (row >= 0 && model_->tree().rows[static_cast<std::size_t>(row)].node >= 0) {
            emit operationActivated(model_->tree().rows[static_cast<std::size_t>(row)].node);
        }
    });
    connect(details_, &OperationDetails::stepActivated, this, &OperationsView::stepActivated);
}

void OperationsView::setProgram(std::shared_ptr<const ReportData> reportData,
                                std::shared_ptr<const ProgramStats> programStats) {
    details_->setProgram(reportData, programStats);
    model_->setProgram(std::move(reportData), std::move(programStats));
    // A report from before layers were recorded shows every operation.
    const bool known = model_->tree().layersKnown;
    layerBox_->setEnabled(known || !model_->hasProgram());
    layerBox_->setToolTip(known || !model_->hasProgram()
                              ? QString(kLayerTip)
                              : QString("This report does not record which layer opened each "
                                        "operation (written before report schema 1.2)"));
    if (!known) {
        setLayer(LayerFilter::All);
    }
    view_->expandAll();
    layoutColumns();
    refreshSummary();
    details_->showTotals(model_->tree());
}

void OperationsView::setLayer(LayerFilter layer) {
    const int i = layerBox_->findData(int(layer));
    if (i == layerBox_->currentIndex()) {
        model_->setLayer(layer);
        return;
    }
    layerBox_->setCurrentIndex(i);
}

void OperationsView::layoutColumns() {
    for (int c = 0; c < OperationsModel::ColumnCount; ++c) {
        view_->resizeColumnToContents(c);
    }
    view_->setColumnWidth(OperationsModel::Name,
                          std::clamp(view_->columnWidth(OperationsModel::Name) + 16, 200, 380));
    view_->setColumnWidth(OperationsModel::DebugName,
                          std::clamp(view_->columnWidth(OperationsModel::DebugName) + 8, 140, 360));
}

void OperationsView::refreshSummary() {
    if (!model_->hasProgram()) {
        summary_->clear();
        return;
    }
    const auto& tree = model_->tree();
    summary_->setText(QString("%1 operation%2 · %3 cycles · %4 code")
                          .arg(formatCount(static_cast<std::uint64_t>(tree.operationCount)),
                               tree.operationCount == 1 ? "" : "s", formatCount(tree.total.cycles),
                               formatBytes(tree.total.codeBytes)));
}

void OperationsView::currentChanged(const QModelIndex& proxyIndex) {
    const int row = model_->treeRow(proxy_->mapToSource(proxyIndex));
    if (row < 0) {
        details_->showTotals(model_->tree());
        return;
    }
    const OperationRow& r = model_->tree().rows[static_cast<std::size_t>(row)];
    details_->showRow(r);
    if (r.node >= 0) {
        emit operationSelected(r.node);
    }
}

} // namespace tessera::views
