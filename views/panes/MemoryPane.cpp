// The Memory pane's selection and what follows it; its widgets are built in
// MemoryPaneWidgets.cpp.
#include "views/panes/MemoryPane.h"

#include "views/common/Card.h"
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
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <optional>

namespace tessera::views {

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

    // The plot and the maps number tiles.
    auto selectTileNumber = [this](int tile) { selectTile(idFromNumber<record::TileId>(tile)); };
    connect(plot_, &TileMemoryPlot::tileClicked, this, selectTileNumber);
    connect(tileMap_, &TileMapWidget::tileClicked, this, selectTileNumber);
    connect(scaleFullest_, &QToolButton::toggled, tileMap_, &TileMapWidget::setScaleToFullest);
    connect(memoryMap_, &MemoryMapWidget::blockClicked, this, [this](int block) {
        blocksView_->selectRow(block);
        blocksView_->scrollTo(blocksView_->model()->index(block, 0));
    });
}

MemoryPane::~MemoryPane() = default;

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
    if (!parsed.empty() && !(selection_ && parsed.contains(idNumber(selection_->tile())))) {
        selectTile(idFromNumber<record::TileId>(parsed.ranges.front().first));
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

void MemoryPane::setReport(std::shared_ptr<const ReportData> report,
                           std::shared_ptr<ReportSource> source) {
    data_ = std::move(report);
    source_ = std::move(source);
    shownTile_ = -1;
    shownVariable_ = record::VariableId::none();
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
    showTile(selection_ ? selection_->tile() : record::TileId::none());
    showVariable(selection_ ? selection_->variable() : record::VariableId::none());
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

void MemoryPane::selectTile(record::TileId tile) {
    if (selection_) {
        selection_->setTile(tile);
    } else {
        showTile(tile);
    }
}

void MemoryPane::selectVariable(record::VariableId variable) {
    if (selection_) {
        selection_->setVariable(variable);
    } else {
        showVariable(variable);
    }
}

void MemoryPane::showTile(record::TileId id) {
    const int tile = idNumber(id); // the plot, the maps and the typed selection number tiles
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
            const auto shownId = idFromNumber<record::TileId>(shown);
            auto read = readReport([&] { return std::optional(source_->memoryBlocks(shownId)); });
            blocksError_ = !read;
            TileMemoryLayout layout = layoutTileMemory(
                shownId, read ? std::move(*read) : std::vector<record::MemoryBlockRecord>{},
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
            if (idFromVariant<record::TileId>(i.data(kIdRole)) == id) {
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

void MemoryPane::showVariable(record::VariableId variable) {
    const auto* v = data_ && !variable.isNone() ? data_->variable(variable) : nullptr;
    shownVariable_ = v ? variable : record::VariableId::none();
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
