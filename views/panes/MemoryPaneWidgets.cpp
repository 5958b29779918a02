// The Memory pane's widgets, built and wired: the toolbar, the table tabs
// (Details, Vertices, Exchanges, Variables, Tiles) and the tile card.
#include "views/common/Card.h"
#include "views/common/FillingColumn.h"
#include "views/common/Format.h"
#include "views/common/Selection.h"
#include "views/models/MemoryBlocksModel.h"
#include "views/models/MemoryDetailsModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/TileExchangesModel.h"
#include "views/models/TileMemoryModel.h"
#include "views/models/TileVerticesModel.h"
#include "views/models/VariablesModel.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/memory/MemoryMapWidget.h"
#include "views/panes/memory/TileExchangesLoader.h"
#include "views/panes/memory/TileMemoryPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent, bool sortable = true) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(sortable);
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->setFrameShape(QFrame::NoFrame);
    return view;
}

QToolButton* makeButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

QWidget* MemoryPane::buildToolbar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(8);
    row->addWidget(new QLabel("Show", bar));
    mode_ = new QComboBox(bar);
    mode_->setObjectName("memoryMode");
    for (auto m :
         {MemoryPlotMode::ByCategory, MemoryPlotMode::ByRegion, MemoryPlotMode::ByLiveness}) {
        mode_->addItem(memoryPlotModeName(m), static_cast<int>(m));
    }
    row->addWidget(mode_);
    gaps_ = new QCheckBox("Gaps", bar);
    gaps_->setChecked(true);
    gaps_->setToolTip("Include alignment gaps in the per-tile totals");
    row->addWidget(gaps_);
    fit_ = new QCheckBox("Fit to data", bar);
    fit_->setToolTip("Scale the memory axis to the fullest tile instead of the tile capacity");
    row->addWidget(fit_);
    row->addSpacing(12);
    tileSelection_ = new QLineEdit(bar);
    tileSelection_->setObjectName("tileSelection");
    tileSelection_->setPlaceholderText("Select tile(s) e.g. 0-3, 17");
    tileSelection_->setToolTip("Tiles for the Details, Vertices and Exchanges tabs: numbers and "
                               "ranges separated by commas or spaces; empty for all tiles");
    tileSelection_->setClearButtonEnabled(true);
    tileSelection_->setMinimumWidth(
        tileSelection_->fontMetrics().horizontalAdvance(tileSelection_->placeholderText()) + 40);
    row->addWidget(tileSelection_);
    selectionError_ = new QLabel(bar);
    selectionError_->setObjectName("tileSelectionError");
    selectionError_->setStyleSheet("color: #d6604d");
    selectionError_->hide();
    row->addWidget(selectionError_);
    connect(tileSelection_, &QLineEdit::textEdited, this, &MemoryPane::typeTiles);
    // The clear button changes the text without textEdited.
    connect(tileSelection_, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty()) {
            typeTiles(text);
        }
    });
    row->addSpacing(12);
    info_ = makeMuted(QString(), bar);
    info_->setObjectName("memoryInfo");
    row->addWidget(info_, 1);
    auto* out = makeButton("−", "Zoom out (Ctrl+-)", bar);
    auto* in = makeButton("+", "Zoom in (Ctrl+=)", bar);
    auto* reset = makeButton("Reset", "Show all tiles (Ctrl+0)", bar);
    row->addWidget(out);
    row->addWidget(in);
    row->addWidget(reset);
    connect(in, &QToolButton::clicked, this, &MemoryPane::zoomIn);
    connect(out, &QToolButton::clicked, this, &MemoryPane::zoomOut);
    connect(reset, &QToolButton::clicked, this, &MemoryPane::resetZoom);
    connect(mode_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        const auto mode = static_cast<MemoryPlotMode>(mode_->currentData().toInt());
        plot_->setMode(mode);
        gaps_->setEnabled(mode != MemoryPlotMode::ByRegion);
        gaps_->setToolTip(mode == MemoryPlotMode::ByRegion
                              ? "Regions always include their gaps"
                              : "Include alignment gaps in the per-tile totals");
    });
    connect(gaps_, &QCheckBox::toggled, this, [this](bool on) { plot_->setShowGaps(on); });
    connect(fit_, &QCheckBox::toggled, this, [this](bool on) { plot_->setFitToData(on); });
    return bar;
}

QWidget* MemoryPane::buildDetailsTab() {
    auto* page = new QWidget(this);
    auto* col = new QVBoxLayout(page);
    col->setContentsMargins(0, 6, 0, 0);
    details_ = new MemoryDetailsModel(this);
    detailsView_ = new QTreeView(page);
    detailsView_->setObjectName("memoryDetails");
    detailsView_->setModel(details_);
    detailsView_->setUniformRowHeights(true);
    detailsView_->setAlternatingRowColors(true);
    detailsView_->setFrameShape(QFrame::NoFrame);
    detailsView_->header()->setStretchLastSection(true); // values at the right edge
    detailsView_->setIndentation(14); // three levels deep: room for the labels in a narrow pane
    col->addWidget(detailsView_, 1);
    // Columns follow the selection: expand and size them on every reset. The
    // values are never cut: the labels give way (elided) down to a minimum.
    auto* fit = FillingColumn::install(detailsView_, detailsView_->header(), 0,
                                       FillingColumn::Policy::GiveWay);
    connect(details_, &QAbstractItemModel::modelReset, this, [this, fit] {
        detailsView_->expandAll();
        fit->refit();
    });
    return page;
}

QWidget* MemoryPane::buildVerticesTab() {
    auto* page = new QWidget(this);
    auto* col = new QVBoxLayout(page);
    col->setContentsMargins(0, 6, 0, 0);
    vertices_ = new TileVerticesModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(vertices_);
    proxy->setSortRole(kSortRole);
    verticesView_ = makeTable(proxy, page);
    verticesView_->setObjectName("verticesTable");
    verticesView_->sortByColumn(TileVerticesModel::Vertices, Qt::DescendingOrder);
    col->addWidget(verticesView_, 1);
    connect(vertices_, &QAbstractItemModel::modelReset, verticesView_,
            &QTableView::resizeColumnsToContents);
    return page;
}

QWidget* MemoryPane::buildExchangesTab() {
    auto* page = new QWidget(this);
    auto* col = new QVBoxLayout(page);
    col->setContentsMargins(0, 6, 0, 0);
    exchangesNote_ = makeMuted(QString(), page);
    exchangesNote_->setObjectName("exchangesNote");
    col->addWidget(exchangesNote_);
    exchanges_ = new TileExchangesModel(this);
    exchangesLoader_ = new TileExchangesLoader(exchanges_);
    connect(exchangesLoader_, &TileExchangesLoader::loaded, this, &MemoryPane::showExchangesNote);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(exchanges_);
    proxy->setSortRole(kSortRole);
    exchangesView_ = makeTable(proxy, page);
    exchangesView_->setObjectName("exchangesTable");
    exchangesView_->sortByColumn(TileExchangesModel::Step, Qt::AscendingOrder);
    col->addWidget(exchangesView_, 1);
    connect(exchanges_, &QAbstractItemModel::modelReset, exchangesView_,
            &QTableView::resizeColumnsToContents);
    // A step row selects the step in every pane.
    connect(exchangesView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && selection_) {
                    selection_->setStep(idFromVariant<record::StepId>(current.data(kIdRole)));
                }
            });
    return page;
}

QWidget* MemoryPane::buildVariablesTab() {
    auto* page = new QWidget(this);
    auto* col = new QVBoxLayout(page);
    col->setContentsMargins(0, 6, 0, 0);
    auto* row = new QHBoxLayout;
    filter_ = new QLineEdit(page);
    filter_->setObjectName("variableFilter");
    filter_->setPlaceholderText("Filter variables by name…");
    filter_->setClearButtonEnabled(true);
    kindFilter_ = new QComboBox(page);
    kindFilter_->addItem("All kinds", -1);
    for (auto k : {VariableKind::AlwaysLive, VariableKind::NotAlwaysLive, VariableKind::Constant,
                   VariableKind::ExchangeBuffer}) {
        kindFilter_->addItem(variableKindName(k), static_cast<int>(k));
    }
    row->addWidget(filter_, 1);
    row->addWidget(kindFilter_);
    col->addLayout(row);
    variables_ = new VariablesModel(this);
    variablesProxy_ = new VariablesFilterModel(this);
    variablesProxy_->setSourceModel(variables_);
    variablesView_ = makeTable(variablesProxy_, page);
    variablesView_->setObjectName("variablesTable");
    variablesView_->sortByColumn(VariablesModel::Bytes, Qt::DescendingOrder);
    // Most telling columns first on screen; the model (and CSV) keep their order.
    int visual = 1;
    for (int column : {VariablesModel::Bytes, VariablesModel::Kind, VariablesModel::Tiles,
                       VariablesModel::LiveRange}) {
        variablesView_->horizontalHeader()->moveSection(
            variablesView_->horizontalHeader()->visualIndex(column), visual++);
    }
    col->addWidget(variablesView_, 1);
    connect(filter_, &QLineEdit::textChanged, variablesProxy_,
            &VariablesFilterModel::setNameFilter);
    connect(kindFilter_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { variablesProxy_->setKindFilter(kindFilter_->currentData().toInt()); });
    connect(variablesView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    selectVariable(idFromVariant<record::VariableId>(current.data(kIdRole)));
                }
            });
    return page;
}

QWidget* MemoryPane::buildTilesTab() {
    auto* page = new QWidget(this);
    auto* col = new QVBoxLayout(page);
    col->setContentsMargins(0, 6, 0, 0);
    tiles_ = new TileMemoryModel(this);
    tilesProxy_ = new QSortFilterProxyModel(this);
    tilesProxy_->setSourceModel(tiles_);
    tilesProxy_->setSortRole(kSortRole);
    tilesView_ = makeTable(tilesProxy_, page);
    tilesView_->setObjectName("tilesTable");
    tilesView_->sortByColumn(TileMemoryModel::Total, Qt::DescendingOrder);
    col->addWidget(tilesView_, 1);
    connect(tilesView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    selectTile(idFromVariant<record::TileId>(current.data(kIdRole)));
                }
            });
    return page;
}

QWidget* MemoryPane::buildTileCard() {
    tileCard_ = new Card("Tile memory", this);
    // "Tile 113 (fullest) — 14.9 KiB of 624.0 KiB · 32 blocks · 2 shared" is
    // wider than the card at 1400 px: it wraps rather than being cut.
    tileCard_->titleLabel()->setWordWrap(true);
    auto* split = new QSplitter(Qt::Vertical, tileCard_);
    split->setChildrenCollapsible(false);
    memoryMap_ = new MemoryMapWidget(split);
    blocks_ = new MemoryBlocksModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(blocks_);
    proxy->setSortRole(kSortRole);
    blocksView_ = makeTable(proxy, split, false); // address order, as the map
    blocksView_->setObjectName("blocksTable");
    int visual = 1;
    for (int column :
         {MemoryBlocksModel::Size, MemoryBlocksModel::Owner, MemoryBlocksModel::Category,
          MemoryBlocksModel::LiveRange, MemoryBlocksModel::SharedWith}) {
        blocksView_->horizontalHeader()->moveSection(
            blocksView_->horizontalHeader()->visualIndex(column), visual++);
    }
    // Clicking a variable's block selects the variable (and shows its tiles).
    connect(blocksView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, proxy](const QModelIndex& current) {
                const int row = proxy->mapToSource(current).row();
                const auto& placed = blocks_->layout().blocks;
                if (row < 0 || static_cast<std::size_t>(row) >= placed.size()) {
                    return;
                }
                const auto& b = placed[static_cast<std::size_t>(row)].block;
                if (b.owner().kind() == record::OwnerKind::Variable) {
                    selectVariable(b.owner().variable());
                }
            });
    split->addWidget(memoryMap_);
    split->addWidget(blocksView_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    tileCard_->body()->addWidget(split);
    return tileCard_;
}

} // namespace tessera::views
