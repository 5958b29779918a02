// The tile map's colour scale (issue 15, defect 10): by default the fullest
// tile is the top of the scale, so a report at low occupancy is not one flat
// colour; the capacity scale is one click away in the Memory pane. Colours
// are checked against heatColor of shares computed here, on a hand-built
// four-tile report and in the pane on a captured one.
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/data/ReportLoader.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/memory/TileMapWidget.h"

#include <QRegularExpression>
#include <QToolButton>
#include <QtTest>

#include <set>

using namespace tessera;
using namespace tessera::views;

namespace {

std::shared_ptr<ReportData> lowOccupancy() {
    auto data = std::make_shared<ReportData>();
    data->target.numTiles = 4;
    data->target.numIpus = 1;
    data->target.tilesPerIpu = 4;
    data->target.bytesPerTile = 100000;
    const std::uint64_t used[] = {1000, 2000, 4000, 500};
    for (std::uint32_t t = 0; t < 4; ++t) {
        reports::TileMemoryEntry e;
        e.tile = record::TileId{static_cast<std::uint32_t>(t)};
        e.totalIncludingGaps = used[t];
        e.totalExcludingGaps = used[t];
        data->tileMemory.push_back(e);
    }
    return data;
}

} // namespace

class TestTileMapScale : public QObject {
    Q_OBJECT

private slots:
    void fullestTileTopsTheScaleByDefault() {
        TileMapWidget map;
        map.resize(400, 300);
        map.setReport(lowOccupancy());
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        QVERIFY(map.scalesToFullest());
        const double used[] = {1000, 2000, 4000, 500};
        QImage image = map.grab().toImage();
        for (int t = 0; t < 4; ++t) {
            const QColor expected = heatColor(used[t] / 4000.0);
            QCOMPARE(map.cellColor(t).rgb(), expected.rgb());
            QCOMPARE(image.pixelColor(map.cellRect(t).topLeft() + QPoint(2, 2)).rgb(),
                     expected.rgb());
        }
        // Four clearly different colours, not one.
        QVERIFY(testing::colourDistance(map.cellColor(2), map.cellColor(3)) > 100);
        map.setScaleToFullest(false);
        image = map.grab().toImage();
        for (int t = 0; t < 4; ++t) {
            const QColor expected = heatColor(used[t] / 100000.0);
            QCOMPARE(image.pixelColor(map.cellRect(t).topLeft() + QPoint(2, 2)).rgb(),
                     expected.rgb());
        }
    }

    // The legend (ramp with its labels, over capacity, a highlighted
    // variable) wraps onto more lines as the map narrows instead of running
    // past its right edge, and stays below the cells.
    void legendWrapsInsteadOfBeingCut_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("lines");
        QTest::newRow("900 px: one line") << 900 << 1;
        QTest::newRow("360 px: two lines") << 360 << 2;
        QTest::newRow("200 px: three lines") << 200 << 3;
    }
    void legendWrapsInsteadOfBeingCut() {
        QFETCH(int, width);
        QFETCH(int, lines);
        TileMapWidget map;
        map.resize(width, 300);
        map.setReport(lowOccupancy());
        map.setHighlight("weights", {{0, 10}, {2, 20}});
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        const std::vector<QRect> rects = map.legendRects();
        QCOMPARE(rects.size(), std::size_t(3));
        std::set<int> tops;
        for (std::size_t i = 0; i < rects.size(); ++i) {
            QVERIFY2(rects[i].left() >= 0 && rects[i].right() < width,
                     qPrintable(QString("item %1 at x %2..%3")
                                    .arg(i)
                                    .arg(rects[i].left())
                                    .arg(rects[i].right())));
            QVERIFY(rects[i].bottom() < map.height());
            QVERIFY(rects[i].top() > map.cellRect(3).bottom());
            for (std::size_t j = 0; j < i; ++j) {
                QVERIFY(!rects[i].intersects(rects[j]));
            }
            tops.insert(rects[i].top());
        }
        QCOMPARE(int(tops.size()), lines);
        // The ramp's labels are whole at these widths: wide enough for both.
        const QFontMetrics fm = map.fontMetrics();
        QVERIFY(rects[0].width() >=
                fm.horizontalAdvance("0") + 40 + fm.horizontalAdvance("fullest tile, ") + 8);
    }

    // Issue 15, defect 11: a map given a report before it is laid out (the
    // Memory pane hidden behind another tab) paints nothing on a null image.
    void aHiddenMapPaintsNoNullImage() {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("QPainter")));
        TileMapWidget map;
        map.resize(0, 0);
        map.setReport(lowOccupancy());
        map.setScaleToFullest(false);
        map.resize(300, 200);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        QVERIFY(!map.cellRect(0).isEmpty());
    }

    void capacityIsOneClickAway() {
        const LoadedReport report =
            ReportLoader::loadNow(testing::capturedReport("matmul", "tiles:16"));
        QVERIFY(report.data != nullptr);
        MemoryPane pane;
        pane.resize(1400, 900);
        pane.setReport(report.data, report.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        TileMapWidget* map = pane.tileMap();
        QVERIFY(map->scalesToFullest());
        std::uint64_t fullest = 0;
        for (const auto& t : report.data->tileMemory) {
            fullest = std::max(fullest, t.totalIncludingGaps);
        }
        const auto& t0 = report.data->tileMemory.front();
        QCOMPARE(map->cellColor(0).rgb(),
                 heatColor(double(t0.totalIncludingGaps) / double(fullest)).rgb());
        QToolButton* capacity = pane.capacityScaleButton();
        QVERIFY(capacity != nullptr && capacity->isVisible());
        QTest::mouseClick(capacity, Qt::LeftButton);
        QVERIFY(!map->scalesToFullest());
        const double cap = double(report.data->target.bytesPerTile);
        QCOMPARE(map->cellColor(0).rgb(), heatColor(double(t0.totalIncludingGaps) / cap).rgb());
    }
};

QTEST_MAIN(TestTileMapScale)
#include "tst_tile_map_scale.moc"
