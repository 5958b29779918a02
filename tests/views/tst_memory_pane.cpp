// The Memory pane rendered offscreen on captured reports: the per-tile plot
// (bars per category for every tile, the capacity line, modes, gaps), the
// tile map (heat colours of known cells, the selected tile outlined, the
// overflowed tile marked, a variable's tiles highlighted), the variables
// table driving the selection, the memory map of one tile, exports, and the
// big stress report. Grabs go to TESSERA_TEST_OUTPUT_DIR.
#include "ReportFixtures.h"
#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/Export.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/ModelRoles.h"
#include "views/models/VariablesModel.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/memory/MemoryMapWidget.h"
#include "views/panes/memory/TileMapWidget.h"
#include "views/panes/memory/TileMemoryPlot.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;

namespace {

QString out(const QString& name) {
    return QDir(TESSERA_TEST_OUTPUT_DIR).filePath(name);
}

bool near(const QColor& a, const QColor& b, int tolerance = 3) {
    return testing::channelsWithin(a, b, tolerance);
}

LoadedReport load(const QString& path) {
    LoadedReport r = ReportLoader::loadNow(path);
    if (!r.error.isEmpty()) {
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(r.error));
    }
    return r;
}

struct Shown {
    std::unique_ptr<MemoryPane> pane;
    Selection selection;
    LoadedReport report;
};

std::unique_ptr<Shown> show(const QString& path, QSize size = {1400, 900}) {
    auto s = std::make_unique<Shown>();
    s->report = load(path);
    s->pane = std::make_unique<MemoryPane>();
    s->pane->resize(size);
    s->pane->setSelection(&s->selection);
    s->pane->setReport(s->report.data, s->report.source);
    s->pane->show();
    if (!QTest::qWaitForWindowExposed(s->pane.get())) {
        qWarning("window not exposed");
    }
    QCoreApplication::processEvents();
    return s;
}

// The widest text of column `column` over every row of `model`, in `metrics`.
int widestText(const QAbstractItemModel& model, int column, const QFontMetrics& metrics,
               const QModelIndex& parent = {}) {
    int widest = 0;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, column, parent);
        widest = std::max(widest, metrics.horizontalAdvance(i.data().toString()));
        widest = std::max(widest, widestText(model, column, metrics, i.siblingAtColumn(0)));
    }
    return widest;
}

} // namespace

class TestMemoryPane : public QObject {
    Q_OBJECT

private slots:
    void plotHasABarPerTilePerCategory();
    void plotModesAndGaps();
    void tileMapColoursAndSelection();
    void variableSelectionHighlights();
    void memoryMapShowsTheSelectedTile();
    void clicksSelectTiles();
    void outOfMemoryIsMarked();
    void exportsEverything();
    void darkPalette();
    void largeReports_data();
    void largeReports();
    void detailsValuesAreNotCut_data();
    void detailsValuesAreNotCut();
    void tileCardTitleIsNotCut_data();
    void tileCardTitleIsNotCut();
};

void TestMemoryPane::plotHasABarPerTilePerCategory() {
    auto s = show(testing::capturedReport("matmul"));
    const auto& data = *s->report.data;
    TileMemoryPlot* plot = s->pane->plot();
    QCOMPARE(s->pane->paneName(), QString("memory"));
    int visibleCategories = 0;
    for (std::size_t c = 0; c < data.categories.size(); ++c) {
        bool any = false;
        for (const auto& t : data.tileMemory) {
            any = any || t.bytesByCategory[data.categories[c].id] > 0;
        }
        visibleCategories += any ? 1 : 0;
    }
    // Categories with bytes, plus the gaps (on by default).
    QCOMPARE(plot->stackBars().size(), visibleCategories + 1);
    for (QCPBars* bars : plot->stackBars()) {
        QCOMPARE(bars->data()->size(), static_cast<int>(data.tileMemory.size()));
    }
    const double capacity = static_cast<double>(data.target.bytesPerTile);
    QCOMPARE(plot->capacityLine()->point1->coords().y(), capacity);
    QCOMPARE(plot->capacityLine()->point2->coords().y(), capacity);
    QVERIFY(!plot->fitToData()); // the fullest tile uses more than a quarter of it
    QVERIFY(plot->yAxis->range().upper >= capacity);
    QCOMPARE(plot->xAxis->range().lower, -0.5);
    QCOMPARE(plot->xAxis->range().upper, data.tileMemory.size() - 0.5);
    // The top of tile 0's stack is its total including gaps.
    double top = 0;
    for (QCPBars* bars : plot->stackBars()) {
        top += bars->data()->at(0)->value;
    }
    QCOMPARE(top, static_cast<double>(data.tileMemory[0].totalIncludingGaps));
    // Zoom hooks change the tile range; reset shows every tile again.
    s->pane->zoomIn();
    QVERIFY(plot->xAxis->range().size() < data.tileMemory.size());
    s->pane->resetZoom();
    QCOMPARE(plot->xAxis->range().upper, data.tileMemory.size() - 0.5);
    QVERIFY(s->pane->grab().save(out("memory_matmul.png")));
}

void TestMemoryPane::plotModesAndGaps() {
    auto s = show(testing::capturedReport("matmul"));
    const auto& data = *s->report.data;
    TileMemoryPlot* plot = s->pane->plot();
    auto* mode = s->pane->findChild<QComboBox*>("memoryMode");
    QVERIFY(mode);
    mode->setCurrentIndex(1); // by region
    QCOMPARE(plot->mode(), MemoryPlotMode::ByRegion);
    QStringList names;
    for (QCPBars* b : plot->stackBars()) {
        names << b->name();
    }
    QVERIFY(names.contains(QString::fromStdString(data.target.regions.front().name)));
    mode->setCurrentIndex(2); // by liveness
    names.clear();
    for (QCPBars* b : plot->stackBars()) {
        names << b->name();
    }
    QCOMPARE(names, QStringList({"always-live", "not-always-live peak", "gaps"}));
    plot->setShowGaps(false);
    QCOMPARE(plot->stackBars().size(), 2);
    for (QCPBars* bars : plot->stackBars()) {
        QCOMPARE(bars->data()->size(), static_cast<int>(data.tileMemory.size()));
    }
    plot->setFitToData(true);
    QVERIFY(plot->yAxis->range().upper < static_cast<double>(data.target.bytesPerTile));
    QVERIFY(plot->yAxis->range().upper >= plot->plotData().maxTotal);
    QVERIFY(s->pane->grab().save(out("memory_matmul_liveness_fit.png")));
}

void TestMemoryPane::tileMapColoursAndSelection() {
    auto s = show(testing::capturedReport("matmul"));
    const auto& data = *s->report.data;
    TileMapWidget* map = s->pane->tileMap();
    const int tile = 5;
    const QRect cell = map->cellRect(tile);
    QVERIFY(cell.width() >= 8);
    const auto& m = data.tileMemory[tile];
    // The fullest tile tops the scale by default (tst_tile_map_scale checks the capacity mode).
    std::uint64_t fullest = 0;
    for (const auto& t : data.tileMemory) {
        fullest = std::max(fullest, t.totalIncludingGaps);
    }
    const QColor expected =
        heatColor(static_cast<double>(m.totalIncludingGaps) / static_cast<double>(fullest));
    QImage image = map->grab().toImage();
    const QPoint centre =
        cell.center() + QPoint(cell.width() / 4, cell.height() / 4); // clear of the label
    QVERIFY2(near(image.pixelColor(centre), expected),
             qPrintable(image.pixelColor(centre).name() + " != " + expected.name()));
    // Selecting the tile outlines it (just outside its cell).
    s->selection.setTile(idFromNumber<record::TileId>(tile));
    QCOMPARE(map->selectedTile(), tile);
    image = map->grab().toImage();
    QVERIFY(near(image.pixelColor(cell.left() - 2, cell.center().y()), selectionColor()));
    QVERIFY(near(image.pixelColor(cell.center().x(), cell.bottom() + 2), selectionColor()));
    QVERIFY(near(image.pixelColor(centre), expected)); // the fill is unchanged
    image.save(out("memory_tilemap_selected.png"));
    // The plot marks the same tile.
    QCOMPARE(s->pane->plot()->stackBars().size() > 0, true);
}

void TestMemoryPane::variableSelectionHighlights() {
    auto s = show(testing::capturedReport("matmul"));
    const auto& data = *s->report.data;
    // The largest variable (the table sorts by bytes, largest first).
    QTableView* view = s->pane->variablesView();
    const QModelIndex first = view->model()->index(0, 0);
    const auto id = idFromVariant<record::VariableId>(first.data(kIdRole));
    std::uint64_t largest = 0;
    for (const auto& v : data.variables) {
        largest = std::max(largest, v.totalBytes);
    }
    QCOMPARE(data.variable(id)->totalBytes, largest);
    view->selectRow(0);
    view->setCurrentIndex(first);
    QCOMPARE(s->selection.variable(), id);
    const auto where = s->report.source->variableTiles(id);
    QVERIFY(!where.empty());
    QVERIFY(s->pane->plot()->highlightBars());
    QCOMPARE(s->pane->plot()->highlightBars()->data()->size(), static_cast<int>(where.size()));
    // Tiles that do not hold it are dimmed; tiles that do keep their colour.
    TileMapWidget* map = s->pane->tileMap();
    const QImage image = map->grab().toImage();
    std::vector<bool> holds(data.tileMemory.size(), false);
    for (const auto& [t, bytes] : where) {
        holds[t.value()] = true;
    }
    for (std::size_t t = 0; t < holds.size(); ++t) {
        const QRect cell = map->cellRect(static_cast<int>(t));
        const QPoint p = cell.center() + QPoint(cell.width() / 4, cell.height() / 4);
        QCOMPARE(near(image.pixelColor(p), map->cellColor(static_cast<int>(t))), bool(holds[t]));
    }
    image.save(out("memory_tilemap_variable.png"));
    // Selecting from elsewhere moves the table's current row.
    const record::VariableId other =
        data.variables.back().id == id ? record::VariableId{0u} : data.variables.back().id;
    s->selection.setVariable(other);
    QCOMPARE(idFromVariant<record::VariableId>(view->currentIndex().data(kIdRole)), other);
    QVERIFY(s->pane->grab().save(out("memory_matmul_variable.png")));
    s->selection.setVariable(record::VariableId::none());
    QVERIFY(!s->pane->plot()->highlightBars());
}

void TestMemoryPane::memoryMapShowsTheSelectedTile() {
    auto s = show(testing::capturedReport("mlp-train"));
    const auto& data = *s->report.data;
    // No selection: the fullest tile.
    QCOMPARE(s->pane->shownTile(), static_cast<int>(data.summary.memory.peakTile));
    s->selection.setTile(record::TileId{3u});
    MemoryMapWidget* map = s->pane->memoryMap();
    QCOMPARE(s->pane->shownTile(), 3);
    QCOMPARE(map->memoryLayout().tile, record::TileId{3u});
    const auto blocks = s->report.source->memoryBlocks(record::TileId{3u});
    QCOMPARE(map->memoryLayout().blocks.size(), blocks.size());
    QCOMPARE(s->pane->blocksView()->model()->rowCount(), static_cast<int>(blocks.size()));
    QVERIFY(map->rowCount() > 0);
    QVERIFY(map->rowBytes() * map->rowCount() >= data.tileMemory[3].totalIncludingGaps);
    // The first block is drawn in its category colour at its address.
    const auto rects = map->blockRects(0);
    QVERIFY(!rects.empty());
    const QImage image = map->grab().toImage();
    const auto& first = map->memoryLayout().blocks.front();
    const QPoint p = rects.front().topLeft() + QPoint(1, 1);
    QVERIFY2(near(image.pixelColor(p), categoryColor(first.block.category), 40),
             qPrintable(image.pixelColor(p).name()));
    QCOMPARE(map->addressAt(rects.front().center()) >= static_cast<long long>(first.block.address),
             true);
    // Blocks sharing addresses (not-always-live) are drawn in separate lanes:
    // their pieces never cover each other.
    const auto& placed = map->memoryLayout().blocks;
    int sharing = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
        for (std::size_t j = i + 1; j < placed.size(); ++j) {
            const auto& a = placed[i].block;
            const auto& b = placed[j].block;
            if (a.address < b.end() && b.address < a.end()) {
                ++sharing;
                for (const QRect& ra : map->blockRects(i)) {
                    for (const QRect& rb : map->blockRects(j)) {
                        QVERIFY(!ra.intersects(rb));
                    }
                }
            }
        }
    }
    QVERIFY(sharing > 0); // mlp-train's tiles reuse addresses across steps
    image.save(out("memory_map_tile3.png"));
    QVERIFY(s->pane->grab().save(out("memory_mlp_train.png")));
    // A variable on a few tiles: only those stay bright in the tile map.
    const reports::VariableEntry* few = nullptr;
    for (const auto& v : data.variables) {
        if (v.numTiles > 0 && v.numTiles < data.tileMemory.size() &&
            (!few || v.totalBytes > few->totalBytes)) {
            few = &v;
        }
    }
    QVERIFY(few);
    s->selection.setVariable(few->id);
    QCOMPARE(s->pane->plot()->highlightBars()->data()->size(), static_cast<int>(few->numTiles));
    QCOMPARE(s->pane->plot()->highlightMarkers()->data()->size(), static_cast<int>(few->numTiles));
    QVERIFY(s->pane->grab().save(out("memory_mlp_train_variable.png")));
}

void TestMemoryPane::clicksSelectTiles() {
    auto s = show(testing::capturedReport("matmul"));
    TileMapWidget* map = s->pane->tileMap();
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellRect(7).center());
    QCOMPARE(s->selection.tile(), record::TileId{7u});
    QCOMPARE(s->pane->shownTile(), 7);
    TileMemoryPlot* plot = s->pane->plot();
    const QPoint bar(
        static_cast<int>(plot->xAxis->coordToPixel(11)),
        static_cast<int>(plot->yAxis->coordToPixel(plot->yAxis->range().upper * 0.02)));
    QTest::mouseClick(plot, Qt::LeftButton, {}, bar);
    QCOMPARE(s->selection.tile(), record::TileId{11u});
    QCOMPARE(map->selectedTile(), 11);
    // Tooltips name the tile (plot, map) and the owner of a block (memory map).
    QHelpEvent plotHelp(QEvent::ToolTip, bar, plot->mapToGlobal(bar));
    QCoreApplication::sendEvent(plot, &plotHelp);
    QVERIFY2(QToolTip::text().contains("Tile 11"), qPrintable(QToolTip::text()));
    const QPoint cell = map->cellRect(7).center();
    QHelpEvent mapHelp(QEvent::ToolTip, cell, map->mapToGlobal(cell));
    QCoreApplication::sendEvent(map, &mapHelp);
    QVERIFY2(QToolTip::text().contains("Tile 7"), qPrintable(QToolTip::text()));
    MemoryMapWidget* memory = s->pane->memoryMap();
    const auto& blocks = memory->memoryLayout().blocks;
    const std::size_t last = blocks.size() - 1; // the stack
    const QPoint inBlock = memory->blockRects(last).front().center();
    QHelpEvent blockHelp(QEvent::ToolTip, inBlock, memory->mapToGlobal(inBlock));
    QCoreApplication::sendEvent(memory, &blockHelp);
    QVERIFY2(QToolTip::text().contains("stack"), qPrintable(QToolTip::text()));
    // Clicking a variable's block in the blocks table selects the variable.
    QTableView* table = s->pane->blocksView();
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        const auto& b = blocks[static_cast<std::size_t>(r)].block;
        if (b.category == record::MemoryCategory::AlwaysLiveVariable) {
            table->setCurrentIndex(table->model()->index(r, 0));
            QCOMPARE(s->selection.variable(), b.owner().variable());
            break;
        }
    }
}

void TestMemoryPane::outOfMemoryIsMarked() {
    auto s = show(testing::outOfMemoryReport());
    const auto& data = *s->report.data;
    QVERIFY(data.summary.memory.outOfMemory);
    TileMapWidget* map = s->pane->tileMap();
    const QImage image = map->grab().toImage();
    int marked = 0;
    for (std::size_t t = 0; t < data.tileMemory.size(); ++t) {
        const QRect cell = map->cellRect(static_cast<int>(t));
        // The corner flag: just inside the top-right corner.
        const bool flagged =
            near(image.pixelColor(cell.topRight() + QPoint(-2, 2)), capacityLineColor());
        QCOMPARE(flagged, data.tileMemory[t].overflowBytes > 0);
        marked += flagged ? 1 : 0;
    }
    QCOMPARE(marked, static_cast<int>(data.summary.memory.tilesOverCapacity));
    image.save(out("memory_tilemap_oom.png"));
    // By region the overflow is its own series; the y range covers it.
    s->pane->findChild<QComboBox*>("memoryMode")->setCurrentIndex(1);
    QCOMPARE(s->pane->plot()->stackBars().back()->name(), QString("overflow"));
    QVERIFY(s->pane->plot()->yAxis->range().upper >=
            static_cast<double>(data.summary.memory.peakTileBytes));
    QVERIFY(s->pane->grab().save(out("memory_oom.png")));
}

void TestMemoryPane::exportsEverything() {
    auto s = show(testing::capturedReport("matmul"));
    const auto targets = s->pane->exportTargets();
    QStringList names;
    for (const ExportTarget& t : targets) {
        names << t.name;
        if (t.widget) {
            QVERIFY(exportPng(t.widget, out("export_" + t.name + ".png")));
            QVERIFY(exportPdf(t.widget, out("export_" + t.name + ".pdf")));
            QVERIFY(QFileInfo(out("export_" + t.name + ".pdf")).size() > 0);
        }
        if (t.model) {
            QVERIFY(exportCsv(t.model, out("export_" + t.name + ".csv")));
        }
    }
    QCOMPARE(names,
             QStringList({"memory-per-tile", "tile-map", "tile-memory-map", "variables",
                          "memory-by-tile", "memory-details", "tile-vertices", "tile-exchanges"}));
    // The details tree, depth first with raw bytes: all tiles' total first.
    const QStringList details = toCsv(targets[5].model).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(details.front(), QString("Depth,Memory,All tiles (bytes)"));
    std::uint64_t total = 0;
    for (const auto& m : s->report.data->tileMemory) {
        total += m.totalIncludingGaps;
    }
    QCOMPARE(details[1], QString("0,Memory including gaps,%1").arg(total));
    QCOMPARE(details[2], QString("1,By memory region,"));
    const QStringList variables = toCsv(targets[3].model).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(variables.size(), static_cast<int>(s->report.data->variables.size()) + 1);
    QVERIFY(variables.front().startsWith("Name,Type,Shape"));
    const QStringList tiles = toCsv(targets[4].model).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(tiles.size(), static_cast<int>(s->report.data->tileMemory.size()) + 1);
    // Raw numbers in the CSV: tile 0's total as an integer.
    QCOMPARE(tiles[1].split(',')[2].toULongLong(),
             s->report.data->tileMemory[0].totalIncludingGaps);
}

void TestMemoryPane::darkPalette() {
    auto s = show(testing::capturedReport("matmul"));
    s->pane->setPalette(views::darkPalette());
    QCoreApplication::processEvents();
    const QImage image = s->pane->grab().toImage();
    image.save(out("memory_matmul_dark.png"));
    TileMemoryPlot* plot = s->pane->plot();
    // Between the bars of tiles 0 and 1, near the top: the plot's background.
    const QPoint inPlot =
        plot->mapTo(s->pane.get(), QPoint(static_cast<int>(plot->xAxis->coordToPixel(0.5)),
                                          plot->axisRect()->rect().top() + 3));
    QVERIFY(isDarkPalette(s->pane->palette()));
    QVERIFY(image.pixelColor(inPlot).lightness() < 80);
}

void TestMemoryPane::largeReports_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("tiles");
    QTest::newRow("stress-mk2") << testing::capturedReport("stress", "mk2",
                                                           {{"steps", "8"}, {"phases", "4"}})
                                << 1472;
    QTest::newRow("mlp-train") << testing::capturedReport("mlp-train") << 16;
}

void TestMemoryPane::largeReports() {
    QFETCH(QString, path);
    QFETCH(int, tiles);
    auto s = show(path);
    const auto& data = *s->report.data;
    QCOMPARE(static_cast<int>(data.tileMemory.size()), tiles);
    TileMemoryPlot* plot = s->pane->plot();
    for (QCPBars* bars : plot->stackBars()) {
        QCOMPARE(bars->data()->size(), tiles);
    }
    // These use a few percent of the capacity: the axis fits the data.
    const double capacity = static_cast<double>(data.target.bytesPerTile);
    QVERIFY(data.summary.memory.peakTileBytes < 0.25 * capacity);
    QVERIFY(plot->fitToData());
    QVERIFY(plot->yAxis->range().upper >= static_cast<double>(data.summary.memory.peakTileBytes));
    QVERIFY(plot->yAxis->range().upper < capacity);
    plot->setFitToData(false);
    QVERIFY(plot->yAxis->range().upper >= capacity);
    plot->setFitToData(true);
    for (int t = 0; t < tiles; ++t) {
        QVERIFY(!s->pane->tileMap()->cellRect(t).isEmpty());
    }
    QCOMPARE(s->pane->variablesView()->model()->rowCount(),
             static_cast<int>(data.variables.size()));
    // Redraws reuse the bar data: a replot of every tile stays fast.
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 5; ++i) {
        plot->replot(QCustomPlot::rpImmediateRefresh);
    }
    const qint64 perReplot = timer.elapsed() / 5;
    qInfo("replot of %d tiles: %lld ms", tiles, static_cast<long long>(perReplot));
    QVERIFY(perReplot < 250);
    s->selection.setTile(idFromNumber<record::TileId>(tiles - 1));
    QCOMPARE(s->pane->shownTile(), tiles - 1);
    QVERIFY(s->pane->grab().save(out(QString("memory_%1.png").arg(QTest::currentDataTag()))));
}

void TestMemoryPane::tileCardTitleIsNotCut_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("800x600") << QSize(800, 600);
    QTest::newRow("1400x900") << QSize(1400, 900);
}

// The tile card's title ("Tile 0 (fullest) — 24.7 KiB of 624.0 KiB · 198
// blocks · 37 shared") is longer than the card is wide at both sizes: it is
// drawn whole, over as many lines as it needs, inside the card.
void TestMemoryPane::tileCardTitleIsNotCut() {
    QFETCH(QSize, size);
    auto s = show(testing::namedReport("mlp-train"), size);
    Card* card = s->pane->tileCard();
    QLabel* title = card->titleLabel();
    QVERIFY(title->text().contains("(fullest)") && title->text().contains("blocks"));
    const QRect room = title->contentsRect();
    const QRect needed =
        QFontMetrics(title->font())
            .boundingRect(room, int(title->alignment()) | Qt::TextWordWrap, title->text());
    QVERIFY2(needed.height() <= room.height() && needed.width() <= room.width(),
             qPrintable(QString("'%1' needs %2x%3 px, has %4x%5")
                            .arg(title->text())
                            .arg(needed.width())
                            .arg(needed.height())
                            .arg(room.width())
                            .arg(room.height())));
    QVERIFY(card->rect().contains(title->geometry()));
    QVERIFY(s->pane->grab().save(
        out(QString("memory_tile_card_%1x%2.png").arg(size.width()).arg(size.height()))));
}

QTEST_MAIN(TestMemoryPane)
#include "tst_memory_pane.moc"

// The Details tab's values are read whole: each value column is wider than
// its widest text and lies inside the tree's viewport (not cut at its right
// edge), at a small and the default window size.
void TestMemoryPane::detailsValuesAreNotCut_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("tiles"); // typed into the tile selection; "": all tiles
    QTest::newRow("800x600") << QSize(800, 600) << QString();
    QTest::newRow("1400x900") << QSize(1400, 900) << QString();
    QTest::newRow("1400x900 two tiles") << QSize(1400, 900) << QString("0, 3");
}

void TestMemoryPane::detailsValuesAreNotCut() {
    QFETCH(QSize, size);
    QFETCH(QString, tiles);
    auto s = show(testing::namedReport("mlp-train"), size);
    QTest::keyClicks(s->pane->tileSelectionEdit(), tiles);
    QCoreApplication::processEvents();
    QTreeView* tree = s->pane->detailsView();
    QVERIFY(tree->isVisible());
    const QAbstractItemModel& model = *tree->model();
    QCOMPARE(model.columnCount(), tiles.isEmpty() ? 2 : 3);
    for (int c = 1; c < model.columnCount(); ++c) {
        const int widest = widestText(model, c, tree->fontMetrics());
        QVERIFY(widest > 0);
        const int left = tree->header()->sectionViewportPosition(c);
        const int width = tree->columnWidth(c);
        QVERIFY2(widest < width && left >= 0 && left + width <= tree->viewport()->width(),
                 qPrintable(QString("column %1: text %2 px, column %3 px at %4, viewport %5 px")
                                .arg(c)
                                .arg(widest)
                                .arg(width)
                                .arg(left)
                                .arg(tree->viewport()->width())));
    }
    QVERIFY(tree->columnWidth(0) >= 120); // the labels keep a readable width
    QVERIFY(s->pane->grab().save(out(QString("memory_details_%1x%2%3.png")
                                         .arg(size.width())
                                         .arg(size.height())
                                         .arg(tiles.isEmpty() ? "" : "_tiles"))));
}
