// The Execution timeline's rows use the height they have (issue 15, defect
// 4): one row per tile while they fit; when they do not and there are too
// few groups to fill the height (16 tiles were one "Tiles 0–15" row with
// blank space under it), still one row per tile, scrolled vertically; many
// groups (1,472 tiles) fold into group rows. The layout is checked on
// hand-given sizes against counts derived here; then the pane on a 16-tile
// report with the step details open: tile rows, the selected tile scrolled
// into view and outlined, and a click on the details' per-tile chart
// selecting that tile everywhere.
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/execution/RowLayout.h"
#include "views/panes/execution/StepDetailsPanel.h"
#include "views/panes/execution/TimelineRenderer.h"
#include "views/panes/execution/TimelineWidget.h"

#include <qcustomplot.h>

#include <QScrollBar>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::execution;

class TestTimelineRows : public QObject {
    Q_OBJECT

private slots:
    // A search dims the columns outside its matches towards the base colour,
    // in device pixels, and leaves the lit ones as drawn. Expected values by
    // hand: (200·85 + 255·170) / 255 = 236, (100·85 + 255·170) / 255 = 203,
    // (0·85 + 255·170) / 255 = 170.
    void searchDimsTheColumnsOutsideItsMatches() {
        const QRgb drawn = qRgb(200, 100, 0), dimmed = qRgb(236, 203, 170);
        QImage image(10, 2, QImage::Format_RGB32);
        image.fill(drawn);
        execution::dimColumnsOutside(image, 1.0, {{2, 4}, {6, 7}}, qRgb(255, 255, 255), 170);
        for (int y = 0; y < 2; ++y) {
            for (int x = 0; x < 10; ++x) {
                const bool lit = (x >= 2 && x < 4) || x == 6;
                QCOMPARE(image.pixel(x, y), lit ? drawn : dimmed);
            }
        }
        // At a device pixel ratio of 2, logical columns [1, 3) are device [2, 6).
        QImage hiDpi(10, 1, QImage::Format_RGB32);
        hiDpi.fill(drawn);
        execution::dimColumnsOutside(hiDpi, 2.0, {{1, 3}}, qRgb(255, 255, 255), 170);
        for (int x = 0; x < 10; ++x) {
            QCOMPARE(hiDpi.pixel(x, 0), x >= 2 && x < 6 ? drawn : dimmed);
        }
        // No match in view: every column is dimmed.
        QImage none(4, 1, QImage::Format_RGB32);
        none.fill(drawn);
        execution::dimColumnsOutside(none, 1.0, {}, qRgb(255, 255, 255), 170);
        for (int x = 0; x < 4; ++x) {
            QCOMPARE(none.pixel(x, 0), dimmed);
        }
    }

    void tileRowsWhileTheyFit() {
        const int height = kAllTilesRowPx + kRowGapPx + 16 * kMinTileRowPx;
        const RowLayout l = layoutRows(16, 16, 0, 16, height);
        QVERIFY(l.tileRows);
        QCOMPARE(l.rows.size(), std::size_t{17});
        QCOMPARE(l.scrollRange, 0u);
        for (std::uint32_t t = 0; t < 16; ++t) {
            QCOMPARE(l.rows[t + 1].kind, RowKind::Tile);
            QCOMPARE(l.rows[t + 1].firstTile, t);
        }
    }

    // One IPU of mk2 x 2 (1,472 tiles each, 16-tile groups): the top row is
    // IPU 1's 92 groups; bounds off the group edges leave it every tile's.
    void topRowSumsTheBoundedIpu() {
        RowLayout l = layoutRows(2944, 16, 1472, 1472, 600);
        QVERIFY(boundAllTilesRow(l, 2944, 16, 1472, 1472));
        QCOMPARE(l.rows[0].kind, RowKind::AllTiles);
        QCOMPARE(l.rows[0].firstTile, 1472u);
        QCOMPARE(l.rows[0].tileCount, 1472u);
        QCOMPARE(l.rows[0].firstGroup, 1472u / 16);
        QCOMPARE(l.rows[0].groupCount, 1472u / 16);
        RowLayout whole = layoutRows(2944, 16, 0, 2944, 600);
        QVERIFY(!boundAllTilesRow(whole, 2944, 16, 0, 2944));
        QCOMPARE(whole.rows[0].groupCount, 0u);
        RowLayout straddling = layoutRows(8, 16, 4, 4, 600);
        QVERIFY(!boundAllTilesRow(straddling, 8, 16, 4, 4));
        QCOMPARE(straddling.rows[0].tileCount, 8u);
        RowLayout last = layoutRows(40, 16, 32, 8, 600); // the last, partial group
        QVERIFY(boundAllTilesRow(last, 40, 16, 32, 8));
        QCOMPARE(last.rows[0].groupCount, 1u);
    }

    void fewTilesInLittleHeightScrollInsteadOfOneGroupRow() {
        // Room for 9 tile rows of 16 tiles, all in one group of 16.
        const int available = 9 * kMinTileRowPx + 5;
        const int height = kAllTilesRowPx + kRowGapPx + available;
        RowLayout l = layoutRows(16, 16, 0, 16, height);
        QVERIFY(l.tileRows);
        QCOMPARE(l.rows.size(), std::size_t{1 + 9});
        QCOMPARE(l.scrollRange, 16u - 9u);
        QCOMPARE(l.rows[1].firstTile, 0u);
        // The rows fill the height they have (within a pixel a row).
        QVERIFY(l.height >= height - 9);
        // Scrolled to the end: tiles 7..15; past it: clamped.
        l = layoutRows(16, 16, 0, 16, height, 100);
        QCOMPARE(l.scroll, 7u);
        QCOMPARE(l.rows[1].firstTile, 7u);
        QCOMPARE(l.rows.back().firstTile, 15u);
        QCOMPARE(l.shownFirstTile(), 7u);
        QCOMPARE(l.shownTiles(), 9u);
    }

    void manyTilesFoldIntoGroups() {
        // 1,472 tiles in 92 groups of 16, 400 pixels: group rows, no scrolling.
        const RowLayout l = layoutRows(1472, 16, 0, 1472, 400);
        QVERIFY(!l.tileRows);
        QCOMPARE(l.scrollRange, 0u);
        QCOMPARE(l.rows[1].kind, RowKind::Group);
        std::uint32_t covered = 0;
        for (std::size_t i = 1; i < l.rows.size(); ++i) {
            covered += l.rows[i].tileCount;
        }
        QCOMPARE(covered, 1472u);
    }

    void paneWithDetailsOpenShowsTileRows() {
        const LoadedReport report =
            ReportLoader::loadNow(testing::capturedReport("matmul", "tiles:16"));
        QVERIFY(report.data != nullptr);
        Selection selection;
        ExecutionPane pane;
        pane.resize(1200, 560); // a laptop-sized window with the details open
        pane.setSelection(&selection);
        pane.setReport(report.data, report.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isFetching(), 60000);
        selection.setStep(report.data->programSteps.front().id);
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isFetching() && !pane.details()->isLoading(), 60000);
        TimelineWidget* timeline = pane.timeline();
        const RowLayout& l = timeline->layout();
        const int available = timeline->plotRect().height() - kAllTilesRowPx - kRowGapPx;
        QVERIFY2(
            available < 16 * kMinTileRowPx,
            qPrintable(
                QStringLiteral("the test needs too little height for 16 rows: %1").arg(available)));
        QVERIFY(l.tileRows);
        QCOMPARE(int(l.rows.size()) - 1, available / kMinTileRowPx);
        QVERIFY(l.scrollRange > 0);
        QVERIFY(timeline->rowScrollBar()->isVisible());

        // A tile selected elsewhere, below the rows shown: scrolled to and outlined.
        selection.setTile(record::TileId{15u});
        QCoreApplication::processEvents();
        const TimelineRow* row = timeline->rowOfTile(15);
        QVERIFY(row != nullptr);
        const QImage image = timeline->grab().toImage();
        image.save(QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("timeline-rows-16.png"));
        const QRect plot = timeline->plotRect();
        const QPoint outline(plot.center().x(), plot.top() + row->y + 1);
        QCOMPARE(image.pixelColor(outline).rgb(), selectionColor().rgb());
        // Another tile's row has no outline.
        const TimelineRow* other = timeline->rowOfTile(int(l.rows[1].firstTile));
        QVERIFY(other != nullptr && other != row);
        QVERIFY(image.pixelColor(plot.center().x(), plot.top() + other->y + 1).rgb() !=
                selectionColor().rgb());

        // The details' chart: clicking tile 5's bars selects tile 5.
        QCustomPlot* chart = pane.details()->tileChart();
        QVERIFY(chart->isVisible());
        const QPoint at(int(chart->xAxis->coordToPixel(5.0)),
                        chart->axisRect()->rect().center().y());
        QTest::mouseClick(chart, Qt::LeftButton, {}, at);
        QCOMPARE(selection.tile(), record::TileId{5u});
        QVERIFY(timeline->rowOfTile(5) != nullptr);
    }
};

QTEST_MAIN(TestTimelineRows)
#include "tst_timeline_rows.moc"
