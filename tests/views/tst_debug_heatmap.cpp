// The Debugger's heatmap on hand-built tensors (no engine run): a tensor
// with more elements than pixels is downsampled, each pixel the mean,
// minimum or maximum of its block (checked against those computed here), and
// tile separators are drawn only where cells are wide enough to stay visible
// (issue 15, defect 1: a big tensor was solid black under its separators).
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/panes/DebugPane.h"
#include "views/panes/debug/HeatmapWidget.h"

#include <QComboBox>
#include <QDir>
#include <QTreeView>
#include <QtTest>

#include <cmath>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::debugger;

namespace {

TensorValues grid(int rows, int cols, const std::function<double(int, int)>& value,
                  const std::function<std::uint32_t(int, int)>& owner) {
    TensorValues t;
    t.name = QStringLiteral("t");
    t.shape = {std::size_t(rows), std::size_t(cols)};
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            t.values.push_back(value(r, c));
            t.owners.push_back(tessera::record::TileId{owner(r, c)});
        }
    }
    return t;
}

// Pixels of the grid drawn in the separator colour.
int separatorPixels(const HeatmapWidget& heat, const QImage& image) {
    const QColor line = heat.palette().color(QPalette::WindowText);
    const QRect g = heat.gridRect();
    int n = 0;
    for (int y = g.top(); y <= g.bottom(); ++y) {
        for (int x = g.left(); x <= g.right(); ++x) {
            n += image.pixelColor(x, y) == line;
        }
    }
    return n;
}

void save(QWidget* w, const QString& name) {
    w->grab().save(QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath(name));
}

} // namespace

class TestDebugHeatmap : public QObject {
    Q_OBJECT

private slots:
    void bigTensorsShowTheirValuesNotSeparators() {
        // 600 x 600 elements, a new tile every 3 columns, in ~300 pixels: the
        // old heatmap drew a separator on every cell.
        const int n = 600;
        HeatmapWidget heat;
        heat.resize(330, 380);
        heat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heat));
        heat.setValues(grid(
                           n, n, [](int r, int c) { return std::sin(r * 0.01) + c * 0.001; },
                           [](int, int c) { return std::uint32_t(c / 3); }),
                       {});
        QVERIFY(heat.downsampled());
        const QRect g = heat.gridRect();
        QVERIFY2(g.width() < n && g.height() < n, "the test needs fewer pixels than elements");
        QCOMPARE(heat.bins().columns, g.width());
        QCOMPARE(heat.bins().rows, g.height());
        const QImage image = heat.grab().toImage();
        save(&heat, QStringLiteral("debug-heatmap-600x600.png"));
        QCOMPARE(separatorPixels(heat, image), 0);
        // Every pixel: the ramp colour of its block's mean, on the tensor's scale.
        double lo = 1e300, hi = -1e300;
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < n; ++c) {
                lo = std::min(lo, std::sin(r * 0.01) + c * 0.001);
                hi = std::max(hi, std::sin(r * 0.01) + c * 0.001);
            }
        }
        int wrong = 0;
        for (int by = 0; by < g.height(); by += 7) {
            for (int bx = 0; bx < g.width(); bx += 5) {
                const int r0 = by * n / g.height(), r1 = (by + 1) * n / g.height();
                const int c0 = bx * n / g.width(), c1 = (bx + 1) * n / g.width();
                double sum = 0;
                for (int r = r0; r < r1; ++r) {
                    for (int c = c0; c < c1; ++c) {
                        sum += std::sin(r * 0.01) + c * 0.001;
                    }
                }
                const double mean = sum / ((r1 - r0) * (c1 - c0));
                const QColor expected = heatColor((mean - lo) / (hi - lo));
                wrong += !testing::channelsWithin(image.pixelColor(g.left() + bx, g.top() + by),
                                                  expected, 3);
            }
        }
        QCOMPARE(wrong, 0);
    }

    void minimumAndMaximumKeepASpikeVisible() {
        // Zeros with one +1 and one -1: a mean hides them, max and min do not.
        const int n = 1000;
        auto value = [](int r, int c) {
            return r == 500 && c == 501 ? 1.0 : r == 200 && c == 701 ? -1.0 : 0.0;
        };
        HeatmapWidget heat;
        heat.resize(300, 350);
        heat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heat));
        heat.setValues(grid(n, n, value, [](int, int) { return 0u; }), {});
        QVERIFY(heat.downsampled());
        const QRect g = heat.gridRect();
        auto pixelOf = [&](int r, int c) {
            // The bin holding element (r, c): bins split the grid evenly.
            int bx = 0, by = 0;
            while ((bx + 1) * n / g.width() <= c) {
                ++bx;
            }
            while ((by + 1) * n / g.height() <= r) {
                ++by;
            }
            return QPoint(g.left() + bx, g.top() + by);
        };
        const QColor top = heatColor(1.0), bottom = heatColor(0.0), middle = heatColor(0.5);
        heat.setReduce(BinReduce::Mean);
        QImage image = heat.grab().toImage();
        QVERIFY(!testing::channelsWithin(image.pixelColor(pixelOf(500, 501)), top, 20));
        QVERIFY(!testing::channelsWithin(image.pixelColor(pixelOf(200, 701)), bottom, 20));
        heat.setReduce(BinReduce::Max);
        image = heat.grab().toImage();
        QVERIFY(testing::channelsWithin(image.pixelColor(pixelOf(500, 501)), top, 3));
        QVERIFY(testing::channelsWithin(image.pixelColor(pixelOf(10, 10)), middle, 3));
        heat.setReduce(BinReduce::Min);
        image = heat.grab().toImage();
        QVERIFY(testing::channelsWithin(image.pixelColor(pixelOf(200, 701)), bottom, 3));
        QVERIFY(testing::channelsWithin(image.pixelColor(pixelOf(500, 501)), middle, 3));
    }

    void separatorsOnlyBetweenWideCells() {
        // 4 x 4 on two tiles (left and right halves): wide cells, a line between.
        HeatmapWidget heat;
        heat.resize(400, 340);
        heat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heat));
        heat.setValues(grid(
                           4, 4, [](int r, int c) { return r * 4 + c; },
                           [](int, int c) { return std::uint32_t(c / 2); }),
                       {});
        QVERIFY(!heat.downsampled());
        QImage image = heat.grab().toImage();
        const QRect left = heat.cellRect(1, 1);
        QCOMPARE(image.pixelColor(left.right() + 1, left.center().y()),
                 heat.palette().color(QPalette::WindowText));
        QVERIFY(separatorPixels(heat, image) > 0);
        // 100 x 100 alternating tiles in ~2 px cells: no lines at all.
        heat.setValues(grid(
                           100, 100, [](int r, int c) { return r + c; },
                           [](int r, int c) { return std::uint32_t((r + c) % 2); }),
                       {});
        QVERIFY(!heat.downsampled());
        QVERIFY(heat.gridRect().width() / 100.0 < HeatmapWidget::kSeparatorMinCellPx);
        image = heat.grab().toImage();
        QCOMPARE(separatorPixels(heat, image), 0);
    }

    void tileModeDownsamplesToTheMajorityTile() {
        // Tile = row / 100 of 800 rows in fewer pixels: each pixel the tile of most of its rows.
        HeatmapWidget heat;
        heat.resize(300, 350);
        heat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heat));
        heat.setValues(grid(
                           800, 800, [](int r, int) { return r; },
                           [](int r, int) { return std::uint32_t(r / 100); }),
                       {});
        heat.setMode(HeatmapWidget::Mode::Tiles);
        QVERIFY(heat.downsampled());
        const QRect g = heat.gridRect();
        const QImage image = heat.grab().toImage();
        const int by = g.height() / 2 + 3, r0 = by * 800 / g.height();
        QCOMPARE(image.pixelColor(g.left() + 5, g.top() + by).rgb(),
                 HeatmapWidget::tileColor(tessera::record::TileId{std::uint32_t(r0 / 100)}).rgb());
    }

    void thePaneOffersTheReduction() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        QComboBox* box = pane.heatmapReduceBox();
        QVERIFY(box != nullptr);
        QCOMPARE(box->count(), 3);
        box->setCurrentIndex(2);
        QCOMPARE(pane.heatmap()->reduce(), BinReduce::Max);
        box->setCurrentIndex(1);
        QCOMPARE(pane.heatmap()->reduce(), BinReduce::Min);
        // Step names are cut at their end (they share their start: a path).
        QCOMPARE(pane.programView()->textElideMode(), Qt::ElideRight);
    }
};

QTEST_MAIN(TestDebugHeatmap)
#include "tst_debug_heatmap.moc"
