// The Memory pane's typed tile selection and its tabs, rendered offscreen on
// the hand-built report of MemoryFixtures.h: typing "0, 3" outlines those
// tiles on the tile map, shades them on the plot and gives the Details tree
// one column each; bad text shows the parser's error and keeps the
// selection; a tile clicked elsewhere becomes the typed selection; the
// Exchanges tab sums the selected tiles; the tile map's checked scale button
// is filled with the palette's Highlight on the dark palette.
#include "MemoryFixtures.h"
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/models/MemoryDetailsModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/TileExchangesModel.h"
#include "views/models/TileVerticesModel.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/memory/TileMapWidget.h"
#include "views/panes/memory/TileMemoryPlot.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;

class TestMemorySelection : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath("hand.tsr");
        testing::writeHandBuiltMemoryReport(path_.toStdString());
        report_ = ReportLoader::loadNow(path_);
        QVERIFY2(report_.error.isEmpty(), qPrintable(report_.error));
    }

    void typedTilesDriveMapPlotAndDetails() {
        Selection selection;
        MemoryPane pane;
        pane.resize(1400, 900);
        pane.setSelection(&selection);
        pane.setReport(report_.data, report_.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QCOMPARE(pane.tabs()->tabText(pane.tabs()->currentIndex()), QString("Details"));
        QCOMPARE(pane.detailsModel()->headerData(1, Qt::Horizontal).toString(),
                 QString("All tiles"));

        // Typing "0" selects tile 0 (outlined as the selected tile); the
        // tile map then is the reference for what ", 3" adds.
        QTest::keyClicks(pane.tileSelectionEdit(), "0");
        QCOMPARE(selection.tile(), record::TileId{0u});
        const QImage before = pane.tileMap()->grab().toImage();
        QTest::keyClicks(pane.tileSelectionEdit(), ", 3");
        QCoreApplication::processEvents();
        QCOMPARE(pane.selectedRanges(), (std::vector<TileRange>{{0, 0}, {3, 3}}));
        QVERIFY(pane.tileSelectionError()->isHidden());
        QCOMPARE(selection.tile(), record::TileId{0u}); // the first typed tile, for the memory map
        QCOMPARE(pane.shownTile(), 0);
        // Details: one column per tile, the tree expanded and drawn.
        QTreeView* tree = pane.detailsView();
        QCOMPARE(pane.detailsModel()->columnCount(), 3);
        QCOMPARE(tree->model()->headerData(2, Qt::Horizontal).toString(), QString("Tile 3"));
        const QModelIndex overflowed =
            pane.detailsModel()->find({"Memory including gaps", "By memory region", "Overflowed"});
        QVERIFY(overflowed.isValid());
        QVERIFY(!tree->visualRect(overflowed).isEmpty()); // expanded
        QCOMPARE(overflowed.siblingAtColumn(2).data().toString(), QString("200 B"));

        // Tile map: tile 3's cell gains an outline in the selection colour;
        // nothing changes inside tiles 1 and 2 (tile 0 was outlined already).
        TileMapWidget* map = pane.tileMap();
        QCOMPARE(map->selectedTiles(), (std::vector<int>{0, 3}));
        const QImage image = map->grab().toImage();
        QCOMPARE(image.size(), before.size());
        const qreal dpr = image.devicePixelRatio();
        auto cell = [&](int t) {
            const QRect r = map->cellRect(t);
            return QRect((r.topLeft() * dpr), r.size() * dpr);
        };
        auto changed = [&](const QRect& r, bool selectionColour) {
            int n = 0;
            for (int x = r.left(); x <= r.right(); ++x) {
                for (int y = r.top(); y <= r.bottom(); ++y) {
                    const QColor c = image.pixelColor(x, y);
                    n += c != before.pixelColor(x, y) &&
                                 (!selectionColour ||
                                  testing::channelsWithin(c, selectionColor(), 12))
                             ? 1
                             : 0;
                }
            }
            return n;
        };
        QVERIFY2(changed(cell(3).adjusted(-2, -2, 2, 2), true) >= 2 * cell(3).width(),
                 qPrintable(QString("tile 3: %1 pixels outlined")
                                .arg(changed(cell(3).adjusted(-2, -2, 2, 2), true))));
        QCOMPARE(changed(cell(1), false), 0);
        QCOMPARE(changed(cell(2), false), 0);
        QCOMPARE(changed(cell(0), false), 0);
        // Plot: one shaded range per run of tiles. Beside tile 0's bar, above
        // the bars and below the capacity (777 bytes), the shading shows; beside
        // tile 1's it does not. (Tile 0's own line and label sit at x = 0 and
        // at the top.)
        TileMemoryPlot* plot = pane.plot();
        QCOMPARE(plot->selectedRangeItems().size(), 2);
        const QImage plotImage = plot->grab().toImage();
        const double y = plot->yAxis->coordToPixel(777);
        auto pixelAt = [&](double tile) {
            const double x = plot->xAxis->coordToPixel(tile);
            return plotImage.pixelColor(static_cast<int>(x * dpr), static_cast<int>(y * dpr));
        };
        QVERIFY2(testing::colourDistance(pixelAt(0.3), pixelAt(1.3)) > 30,
                 qPrintable(pixelAt(0.3).name() + " vs " + pixelAt(1.3).name()));
        QVERIFY2(testing::colourDistance(pixelAt(1.3), pixelAt(2.3)) < 6,
                 qPrintable(pixelAt(1.3).name() + " vs " + pixelAt(2.3).name()));

        // Bad text: the parser's error is shown, the selection kept.
        QTest::keyClicks(pane.tileSelectionEdit(), ", 9");
        QVERIFY(!pane.tileSelectionError()->isHidden());
        QCOMPARE(pane.tileSelectionError()->text(),
                 QString("tile 9 is beyond the report's 4 tiles (0-3)"));
        QCOMPARE(pane.selectedRanges(), (std::vector<TileRange>{{0, 0}, {3, 3}}));
        QCOMPARE(pane.detailsModel()->columnCount(), 3);

        // Vertices: tiles 0 and 3 hold AddVertex 4 + 5 and ReduceVertex 1.
        QCOMPARE(pane.verticesModel()->rowCount(), 2);
        QCOMPARE(
            pane.verticesModel()->index(0, TileVerticesModel::Vertices).data(kSortRole).toInt(), 9);

        // Exchanges: read when the tab is shown; tiles 0 and 3 receive
        // 10 + 0 and 100 + 0, send 0 + 5 and 0 + 150.
        // A selection's step arrays are read on a worker, not the GUI thread.
        pane.tabs()->setCurrentIndex(2);
        QCOMPARE(pane.tabs()->tabText(2), QString("Exchanges"));
        TileExchangesModel* ex = pane.exchangesModel();
        QTRY_VERIFY(!pane.isReadingExchanges());
        QCOMPARE(ex->rowCount(), 2);
        QCOMPARE(ex->index(0, TileExchangesModel::BytesIn).data(kSortRole).toInt(), 10);
        QCOMPARE(ex->index(0, TileExchangesModel::BytesOut).data(kSortRole).toInt(), 5);
        QCOMPARE(ex->index(1, TileExchangesModel::BytesIn).data(kSortRole).toInt(), 100);
        QCOMPARE(ex->index(1, TileExchangesModel::BytesOut).data(kSortRole).toInt(), 150);
        QVERIFY(pane.exchangesNote()->text().startsWith("Tile(s) 0, 3:"));

        // A tile picked elsewhere becomes the typed selection (the tab is live).
        selection.setTile(record::TileId{2u});
        QCOMPARE(pane.tileSelectionEdit()->text(), QString("2"));
        QVERIFY(pane.tileSelectionError()->isHidden());
        QCOMPARE(map->selectedTiles(), (std::vector<int>{2}));
        QTRY_VERIFY(!pane.isReadingExchanges());
        QCOMPARE(ex->index(1, TileExchangesModel::BytesOut).data(kSortRole).toInt(), 150);
        QCOMPARE(ex->index(0, TileExchangesModel::BytesIn).data(kSortRole).toInt(), 30);
        // Clearing the text goes back to all tiles.
        pane.tileSelectionEdit()->clear();
        QCOMPARE(pane.detailsModel()->headerData(1, Qt::Horizontal).toString(),
                 QString("All tiles"));
        QVERIFY(map->selectedTiles().empty());
        QVERIFY(plot->selectedRangeItems().isEmpty());
        QCOMPARE(ex->index(1, TileExchangesModel::BytesIn).data(kSortRole).toInt(), 300);
        QVERIFY(pane.grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("memory_selection.png")));
    }

    // selectTiles (the --select-tiles option) writes the selection in the
    // pane's form and applies it once: one reset of the Details model per
    // call, also when it empties the field (whose clear handler also applies).
    void selectTilesAppliesOnce() {
        Selection selection;
        MemoryPane pane;
        pane.setSelection(&selection);
        pane.setReport(report_.data, report_.source);
        QSignalSpy resets(pane.detailsModel(), &QAbstractItemModel::modelReset);
        QCOMPARE(pane.selectTiles("3, 0"), QString());
        QCOMPARE(pane.tileSelectionEdit()->text(), QString("0, 3"));
        QCOMPARE(pane.selectedRanges(), (std::vector<TileRange>{{0, 0}, {3, 3}}));
        QCOMPARE(resets.size(), 1);
        QCOMPARE(selection.tile(), record::TileId{0u});

        QCOMPARE(pane.selectTiles(""), QString());
        QCOMPARE(pane.tileSelectionEdit()->text(), QString());
        QVERIFY(pane.selectedRanges().empty());
        QCOMPARE(resets.size(), 2);

        // Bad text: the parser's error, shown; the field keeps the text and
        // the selection is kept (nothing applied).
        pane.selectTiles("1");
        QCOMPARE(resets.size(), 3);
        const QString error = pane.selectTiles("1-x");
        QVERIFY(!error.isEmpty());
        QCOMPARE(pane.tileSelectionEdit()->text(), QString("1-x"));
        QCOMPARE(pane.tileSelectionError()->text(), error);
        QCOMPARE(pane.selectedRanges(), (std::vector<TileRange>{{1, 1}}));
        QCOMPARE(resets.size(), 3);
    }

    void checkedScaleButtonIsHighlightedOnDarkPalette() {
        MemoryPane pane;
        pane.setPalette(darkPalette());
        pane.resize(1400, 900);
        pane.setReport(report_.data, report_.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const QColor highlight = darkPalette().color(QPalette::Highlight);
        auto fill = [](QToolButton* b) {
            const QImage image = b->grab().toImage();
            // Left of the label, inside the border.
            return image.pixelColor(static_cast<int>(4 * image.devicePixelRatio()),
                                    image.height() / 2);
        };
        QToolButton* fullest = pane.fullestScaleButton();
        QToolButton* capacity = pane.capacityScaleButton();
        QVERIFY(fullest->isChecked());
        QVERIFY2(testing::channelsWithin(fill(fullest), highlight, 4),
                 qPrintable(fill(fullest).name() + " != " + highlight.name()));
        QVERIFY2(testing::colourDistance(fill(capacity), highlight) > 120,
                 qPrintable(fill(capacity).name()));
        capacity->click();
        QVERIFY(capacity->isChecked());
        QVERIFY(testing::channelsWithin(fill(capacity), highlight, 4));
        QVERIFY(testing::colourDistance(fill(fullest), highlight) > 120);
        QVERIFY(!pane.tileMap()->scalesToFullest());
    }

private:
    QTemporaryDir dir_;
    QString path_;
    LoadedReport report_;
};

QTEST_MAIN(TestMemorySelection)
#include "tst_memory_selection.moc"
