#include "views/panes/MemoryPane.h"

#include "views/common/Card.h"
#include "views/common/FillingColumn.h"
#include "views/common/Format.h"
#include "views/common/ScrollRow.h"
#include "views/common/Selection.h"
#include "views/data/ReportData.h"
#include "views/data/ReportSource.h"
#include "views/models/MemoryBlocksModel.h"
#include "views/models/MemoryDetailsModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/TileExchangesModel.h"
#include "views/models/TileMemoryModel.h"
#include "views/models/TileVerticesModel.h"
#include "views/models/VariablesModel.h"
#include "views/panes/memory/CheckedToolButton.h"
#include "views/panes/memory/MemoryMapWidget.h"
#include "views/panes/memory/TileExchangesLoader.h"
#include "views/panes/memory/TileMapWidget.h"
#include "views/panes/memory/TileMemoryPlot.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <optional>

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

MemoryPane::MemoryPane(QWidget* parent)
    : Pane(parent) {
    setObjectName("memoryPane");

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->setSpacing(6);
    layout->addWidget(new ScrollRow(buildToolbar())); // scrolls, not widens, in a small window

    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->setChildrenCollapsible(false);
    auto* plotCard = new Card(QString(), vertical);
    plot_ = new TileMemoryPlot(plotCard);
    plot_->setMinimumHeight(160);
    plotCard->body()->addWidget(plot_);
    vertical->addWidget(plotCard);

    auto* horizontal = new QSplitter(Qt::Horizontal, vertical);
    horizontal->setChildrenCollapsible(false);
    mapCard_ = new Card("Tile map", horizontal);
    tileMap_ = new TileMapWidget(mapCard_);
    // The colour scale: the fullest tile by default (a capacity scale is one
    // flat colour at low occupancy), the capacity one click away.
    auto* scaleRow = new QHBoxLayout;
    scaleRow->setContentsMargins(0, 0, 0, 0);
    scaleRow->addWidget(new QLabel("Colour scale:", mapCard_));
    auto* scaleGroup = new QButtonGroup(mapCard_);
    for (const bool fullest : {true, false}) {
        auto* b = new CheckedToolButton(mapCard_);
        b->setText(fullest ? "Fullest tile" : "Capacity");
        b->setObjectName(fullest ? "tileMapScaleFullest" : "tileMapScaleCapacity");
        b->setToolTip(fullest ? "Top of the colour scale: the fullest tile"
                              : "Top of the colour scale: a tile's capacity");
        b->setCheckable(true);
        b->setChecked(fullest);
        scaleGroup->addButton(b);
        scaleRow->addWidget(b);
        (fullest ? scaleFullest_ : scaleCapacity_) = b;
    }
    scaleRow->addStretch(1);
    mapCard_->body()->addWidget(tileMap_, 1);
    mapCard_->body()->addLayout(scaleRow);
    horizontal->addWidget(mapCard_);

    auto* tableCard = new Card(QString(), horizontal);
    tabs_ = new QTabWidget(tableCard);
    tabs_->setDocumentMode(true);
    // PopVision's order: the selected tiles' details first.
    tabs_->addTab(buildDetailsTab(), "Details");
    tabs_->addTab(buildVerticesTab(), "Vertices");
    tabs_->addTab(buildExchangesTab(), "Exchanges");
    tabs_->addTab(buildVariablesTab(), "Variables");
    tabs_->addTab(buildTilesTab(), "Tiles");
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (exchangesStale_ && tabs_->currentWidget() == exchangesView_->parentWidget()) {
            refreshExchanges();
        }
    });
    tableCard->body()->addWidget(tabs_);
    horizontal->addWidget(tableCard);
    horizontal->addWidget(buildTileCard());
    horizontal->setStretchFactor(0, 3);
    horizontal->setStretchFactor(1, 4);
    horizontal->setStretchFactor(2, 4);
    vertical->addWidget(horizontal);
    vertical->setStretchFactor(0, 5);
    vertical->setStretchFactor(1, 6);
    vertical->setSizes({420, 520});
    horizontal->setSizes({300, 400, 420});
    layout->addWidget(vertical, 1);

    connect(plot_, &TileMemoryPlot::tileClicked, this, &MemoryPane::selectTile);
    connect(tileMap_, &TileMapWidget::tileClicked, this, &MemoryPane::selectTile);
    connect(scaleFullest_, &QToolButton::toggled, tileMap_, &TileMapWidget::setScaleToFullest);
    connect(memoryMap_, &MemoryMapWidget::blockClicked, this, [this](int block) {
        blocksView_->selectRow(block);
        blocksView_->scrollTo(blocksView_->model()->index(block, 0));
    });
}

MemoryPane::~MemoryPane() = default;

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
                    selectVariable(current.data(kIdRole).toInt());
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
                    selectTile(current.data(kIdRole).toInt());
                }
            });
    return page;
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
                    selection_->setStep(current.data(kIdRole).toInt());
                }
            });
    return page;
}

QString MemoryPane::selectTiles(const QString& text) {
    const TileSelection parsed = parseTiles(text);
    // The field shows the selection as the pane writes it: "2, 1" reads "1-2".
    // Quietly: the clear-button handler would otherwise parse "" again.
    {
        const QSignalBlocker quiet(tileSelection_);
        tileSelection_->setText(parsed.ok() ? formatTileSelection(parsed.ranges) : text);
    }
    useTiles(parsed);
    return parsed.error;
}

void MemoryPane::typeTiles(const QString& text) {
    useTiles(parseTiles(text));
}

TileSelection MemoryPane::parseTiles(const QString& text) const {
    return parseTileSelection(text, data_ ? static_cast<int>(data_->tileMemory.size()) : 0);
}

void MemoryPane::useTiles(const TileSelection& parsed) {
    selectionError_->setVisible(!parsed.ok());
    selectionError_->setText(parsed.error);
    if (!parsed.ok()) {
        return; // keep what was selected until the text parses
    }
    applyTiles(parsed.ranges);
    // The first typed tile is the selected tile everywhere (its memory map).
    if (!parsed.empty() && !(selection_ && parsed.contains(selection_->tile()))) {
        selectTile(parsed.ranges.front().first);
    }
}

void MemoryPane::applyTiles(const std::vector<TileRange>& ranges) {
    selectedRanges_ = ranges;
    TileSelection s;
    s.ranges = ranges;
    const std::vector<int> tiles = s.tiles();
    std::vector<std::pair<int, int>> pairs;
    for (const auto& r : ranges) {
        pairs.emplace_back(r.first, r.last);
    }
    plot_->setSelectedRanges(pairs);
    tileMap_->setSelectedTiles(tiles);
    details_->setTiles(tiles);
    vertices_->setTiles(tiles);
    exchangesStale_ = true;
    if (tabs_->currentWidget() == exchangesView_->parentWidget()) {
        refreshExchanges();
    }
}

void MemoryPane::refreshExchanges() {
    exchangesStale_ = false;
    exchangesWho_ = selectedRanges_.empty()
                        ? QString("All tiles")
                        : QString("Tile(s) %1").arg(formatTileSelection(selectedRanges_));
    exchangesNote_->setToolTip("The bytes the selected tiles receive and send in one execution "
                               "of each program step that exchanges (the report's per-step "
                               "tile arrays)");
    // A selection's step arrays are read on a worker; loaded() then says so.
    exchangesNote_->setText(exchangesWho_ + ": reading the steps' tile arrays…");
    TileSelection s;
    s.ranges = selectedRanges_;
    exchangesLoader_->load(s.tiles());
}

void MemoryPane::showExchangesNote() {
    // One line (the table needs the height); the tooltip says what it counts.
    QString note =
        QString("%1: bytes received and sent per execution of each step").arg(exchangesWho_);
    if (!exchanges_->error().isEmpty()) {
        note += " · some steps could not be read: " + exchanges_->error();
    }
    exchangesNote_->setText(note);
}

bool MemoryPane::isReadingExchanges() const {
    return exchangesLoader_->isReading();
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
                if (b.owner.kind() == record::OwnerKind::Variable) {
                    selectVariable(static_cast<int>(b.owner.variable().value()));
                }
            });
    split->addWidget(memoryMap_);
    split->addWidget(blocksView_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    tileCard_->body()->addWidget(split);
    return tileCard_;
}

void MemoryPane::setReport(std::shared_ptr<const ReportData> report,
                           std::shared_ptr<ReportSource> source) {
    data_ = std::move(report);
    source_ = std::move(source);
    shownTile_ = -1;
    shownVariable_ = -1;
    plot_->setReport(data_);
    tileMap_->setReport(data_);
    variables_->setReport(data_);
    tiles_->setReport(data_);
    details_->setReport(data_, data_ ? data_->tileOverlap : std::nullopt);
    vertices_->setReport(data_);
    exchangesLoader_->cancel();
    std::weak_ptr<ReportSource> weakSource = source_;
    exchanges_->setReport(data_, [weakSource](record::StepId step) {
        auto s = weakSource.lock();
        return s ? s->stepTiles(step) : nullptr;
    });
    selectionError_->hide();
    tileSelection_->clear();
    applyTiles({});
    variablesView_->resizeColumnsToContents();
    variablesView_->setColumnWidth(VariablesModel::Name,
                                   std::min(variablesView_->columnWidth(0), 220));
    tilesView_->resizeColumnsToContents();
    updateInfo();
    // A nearly empty target would show flat bars against the capacity: scale
    // to the data instead (the capacity label then points up, off the scale).
    if (data_) {
        const double cap = static_cast<double>(data_->target.bytesPerTile);
        fit_->setChecked(static_cast<double>(data_->summary.memory.peakTileBytes) < 0.25 * cap);
    }
    const int tile = selection_ ? selection_->tile() : -1;
    showTile(tile);
    showVariable(selection_ ? selection_->variable() : -1);
}

void MemoryPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (selection_) {
        connect(selection_, &Selection::tileChanged, this, &MemoryPane::showTile);
        connect(selection_, &Selection::variableChanged, this, &MemoryPane::showVariable);
        showTile(selection_->tile());
        showVariable(selection_->variable());
    }
}

void MemoryPane::selectTile(int tile) {
    if (selection_) {
        selection_->setTile(tile);
    } else {
        showTile(tile);
    }
}

void MemoryPane::selectVariable(int variable) {
    if (selection_) {
        selection_->setVariable(variable);
    } else {
        showVariable(variable);
    }
}

void MemoryPane::showTile(int tile) {
    const bool valid =
        data_ && tile >= 0 && static_cast<std::size_t>(tile) < data_->tileMemory.size();
    plot_->setSelectedTile(valid ? tile : -1);
    tileMap_->setSelectedTile(valid ? tile : -1);
    // A tile picked elsewhere (map, plot, another pane) becomes the typed
    // selection unless it is already part of it.
    TileSelection typed;
    typed.ranges = selectedRanges_;
    if (valid && !typed.contains(tile)) {
        const QSignalBlocker block(tileSelection_);
        tileSelection_->setText(QString::number(tile));
        selectionError_->hide();
        applyTiles({{tile, tile}});
    }
    // Without a selected tile the memory map shows the fullest one.
    int shown = valid ? tile : -1;
    if (!valid && data_ && !data_->tileMemory.empty()) {
        shown = static_cast<int>(
            std::min<std::size_t>(data_->summary.memory.peakTile, data_->tileMemory.size() - 1));
    }
    if (shown != shownTile_ || !data_) {
        shownTile_ = shown;
        blocksError_ = false;
        if (shown >= 0 && source_) {
            auto read = readReport([&] {
                return std::optional(
                    source_->memoryBlocks(record::TileId{static_cast<std::uint32_t>(shown)}));
            });
            blocksError_ = !read;
            TileMemoryLayout layout =
                layoutTileMemory(record::TileId{static_cast<std::uint32_t>(shown)},
                                 read ? std::move(*read) : std::vector<record::MemoryBlockRecord>{},
                                 data_->target.memoryBaseAddress);
            blocks_->setLayout(data_, layout);
            memoryMap_->setTileLayout(data_, std::move(layout));
        } else {
            blocks_->clear();
            memoryMap_->clear();
        }
        blocksView_->resizeColumnsToContents();
    }
    if (shownTile_ >= 0 && data_) {
        const auto& m = data_->tileMemory[static_cast<std::size_t>(shownTile_)];
        int shared = 0;
        for (const auto& b : memoryMap_->memoryLayout().blocks) {
            shared += b.sharers > 0 ? 1 : 0;
        }
        tileCard_->setTitle(
            QString("Tile %1%2 — %3 of %4 · %5")
                .arg(shownTile_)
                .arg(valid ? "" : " (fullest)")
                .arg(formatBytes(m.totalIncludingGaps), formatBytes(data_->target.bytesPerTile))
                .arg(blocksError_
                         ? QString("blocks damaged")
                         : QString("%1 blocks%2")
                               .arg(memoryMap_->memoryLayout().blocks.size())
                               .arg(shared ? QString(" · %1 shared").arg(shared) : QString())));
    } else {
        tileCard_->setTitle("Tile memory");
    }
    // Reflect the tile in the tiles table without re-emitting.
    if (valid) {
        for (int r = 0; r < tilesProxy_->rowCount(); ++r) {
            const QModelIndex i = tilesProxy_->index(r, 0);
            if (i.data(kIdRole).toInt() == tile) {
                if (tilesView_->currentIndex().row() != r) {
                    QSignalBlocker block(tilesView_->selectionModel());
                    tilesView_->selectRow(r);
                    tilesView_->scrollTo(i);
                }
                break;
            }
        }
    }
}

void MemoryPane::showVariable(int variable) {
    const auto* v = data_ && variable >= 0
                        ? data_->variable(record::VariableId{static_cast<std::uint32_t>(variable)})
                        : nullptr;
    shownVariable_ = v ? variable : -1;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> where; // tile numbers, as drawn
    if (v && source_) {
        for (const auto& [tile, bytes] :
             readReport([&] { return source_->variableTiles(v->id); })) {
            where.emplace_back(tile.value(), bytes);
        }
    }
    const QString name = v ? QString::fromStdString(v->name) : QString();
    plot_->setHighlight(name, where);
    tileMap_->setHighlight(name, where);
    mapCard_->setTitle(v ? QString("Tile map · %1 tile(s) hold %2").arg(where.size()).arg(name)
                         : QString("Tile map"));
    mapCard_->titleLabel()->setToolTip(name);
    memoryMap_->setHighlightVariable(shownVariable_);
    if (v) {
        const int sourceRow = variables_->rowOfVariable(v->id);
        const QModelIndex i = variablesProxy_->mapFromSource(variables_->index(sourceRow, 0));
        if (i.isValid() && variablesView_->currentIndex().row() != i.row()) {
            QSignalBlocker block(variablesView_->selectionModel());
            variablesView_->selectRow(i.row());
            variablesView_->scrollTo(i);
        }
    } else {
        QSignalBlocker block(variablesView_->selectionModel());
        variablesView_->clearSelection();
    }
}

void MemoryPane::updateInfo() {
    if (!data_) {
        info_->clear();
        return;
    }
    const auto& mem = data_->summary.memory;
    const double cap = static_cast<double>(data_->target.bytesPerTile);
    QString text =
        QString("%1 tiles · %2 in total · fullest: tile %3, %4 (%5 of capacity)")
            .arg(formatCount(data_->tileMemory.size()), formatBytes(mem.totalBytes))
            .arg(mem.peakTile)
            .arg(formatBytes(mem.peakTileBytes),
                 formatPercent(cap > 0 ? static_cast<double>(mem.peakTileBytes) / cap : 0.0));
    if (mem.tilesOverCapacity > 0) {
        text += QString(" · <span style='color:#b2182b'><b>%1 over capacity</b></span>")
                    .arg(mem.tilesOverCapacity);
    }
    info_->setText(text);
}

QList<ExportTarget> MemoryPane::exportTargets() const {
    QList<ExportTarget> targets = {{"memory-per-tile", plot_, nullptr},
                                   {"tile-map", tileMap_, nullptr},
                                   {"tile-memory-map", memoryMap_, blocksView_->model()},
                                   {"variables", nullptr, variablesProxy_},
                                   {"memory-by-tile", nullptr, tilesProxy_},
                                   {"memory-details", nullptr, details_},
                                   {"tile-vertices", nullptr, verticesView_->model()},
                                   {"tile-exchanges", nullptr, exchangesView_->model()}};
    return targets;
}

void MemoryPane::zoomIn() {
    plot_->zoomIn();
}
void MemoryPane::zoomOut() {
    plot_->zoomOut();
}
void MemoryPane::resetZoom() {
    plot_->resetZoom();
}

} // namespace tessera::views
