// The Liveness pane rendered offscreen on captured reports: the plot has one
// point per program step and peaks at the bytes summed here from the report's
// per-tile arrays; a selected step lists exactly its live variables and is
// marked on the plot; per-tile curves, always-live on/off and step
// comparison. Grabs are written to the build directory.
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/common/Colors.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/panes/LivenessPane.h"
#include "views/panes/liveness/LivenessPlot.h"
#include "views/panes/liveness/LivenessTables.h"

#include <QDir>
#include <QTableView>
#include <QtTest>

#include <set>

using namespace tessera;
using namespace tessera::views;

namespace {

bool near(const QColor& a, const QColor& b, int tolerance = 40) {
    return testing::colourDistance(a, b) <= tolerance;
}

// Whether a pixel near column x (device pixels), anywhere down the middle
// of the plot's axis rect, has `color`.
bool columnHas(const QImage& image, const QRect& rect, int x, const QColor& color) {
    for (int dx = -2; dx <= 2; ++dx) {
        for (int y = rect.top() + rect.height() / 4; y < rect.bottom() - rect.height() / 4;
             y += 3) {
            if (near(image.pixelColor(x + dx, y), color)) {
                return true;
            }
        }
    }
    return false;
}

struct Expected {
    std::vector<double> sums;  // per step in program order
    std::vector<double> tile3; // tile 3's bytes per step
    double alwaysLive = 0;
};

Expected expectedFromReader(const QString& path, const std::vector<std::uint32_t>& order) {
    const reports::ReportReader reader(path.toStdString());
    Expected e;
    for (const auto id : order) {
        const auto tiles = reader.stepTiles(id);
        double sum = 0;
        for (const auto b : tiles.notAlwaysLiveBytes) {
            sum += b;
        }
        e.sums.push_back(sum);
        e.tile3.push_back(tiles.notAlwaysLiveBytes.size() > 3 ? tiles.notAlwaysLiveBytes[3] : 0);
    }
    for (const auto& t : reader.tileMemory()) {
        e.alwaysLive += static_cast<double>(t.alwaysLiveBytes);
    }
    return e;
}

} // namespace

class TestLivenessPane : public QObject {
    Q_OBJECT

private slots:
    void rendersReports_data() {
        QTest::addColumn<QString>("report");
        for (const char* r : {"mlp-train", "attention", "stress", "oom"}) {
            QTest::newRow(r) << QString(r);
        }
    }

    void rendersReports() {
        QFETCH(QString, report);
        const QString path = testing::namedReport(report);
        const LoadedReport loaded = ReportLoader::loadNow(path);
        QVERIFY2(loaded.error.isEmpty(), qPrintable(loaded.error));
        Selection selection;
        LivenessPane pane;
        QCOMPARE(pane.paneName(), QString("liveness"));
        pane.resize(1400, 900);
        pane.setSelection(&selection);
        pane.setReport(loaded.data, loaded.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY(!pane.isLoading());

        // The program order: by program, then step id.
        const auto& steps = pane.steps();
        QCOMPARE(steps.size(), loaded.data->programSteps.size());
        QCOMPARE(pane.plot()->pointCount(), static_cast<int>(loaded.data->programSteps.size()));
        const Expected e = expectedFromReader(path, steps.stepIds);
        const double maxSum = *std::max_element(e.sums.begin(), e.sums.end());

        // Always-live off (default): the plotted maximum is the largest sum over tiles.
        QVERIFY(!pane.plot()->alwaysLiveGraph()->visible());
        QCOMPARE(pane.plot()->dataMax(), maxSum);
        // One point per step at its left edge, and one closing the last step.
        auto data = pane.plot()->notAlwaysLiveGraph()->data();
        QCOMPARE(data->size(), pane.plot()->pointCount() + 1);
        for (int x = 0; x < pane.plot()->pointCount(); ++x) {
            QCOMPARE(data->at(x)->key, x - 0.5);
            QCOMPARE(data->at(x)->value, e.sums[static_cast<std::size_t>(x)]);
        }
        QVERIFY(pane.plot()->yAxis->range().upper >= maxSum);
        // On: a band under the not-always-live bytes.
        pane.setAlwaysLiveShown(true);
        QVERIFY(pane.plot()->alwaysLiveGraph()->visible());
        QCOMPARE(pane.plot()->dataMax(), e.alwaysLive + maxSum);
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(
            QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_" + report + "_always_live.png")));
        pane.setAlwaysLiveShown(false);

        // Select the peak step through the shared selection.
        const auto peakX = static_cast<std::size_t>(std::max_element(e.sums.begin(), e.sums.end()) -
                                                    e.sums.begin());
        const std::uint32_t peakStep = steps.stepIds[peakX];
        selection.setStep(static_cast<int>(peakStep));
        QCOMPARE(pane.selectedStep(), static_cast<int>(peakStep));
        const auto live = loaded.source->liveVariables(peakStep);
        auto* liveModel = pane.tables()->liveModel();
        QCOMPARE(liveModel->rowCount(), static_cast<int>(live.size()));
        std::set<std::uint32_t> shown;
        for (int r = 0; r < liveModel->rowCount(); ++r) {
            shown.insert(liveModel->data(liveModel->index(r, 0), kIdRole).toUInt());
        }
        QCOMPARE(shown, std::set<std::uint32_t>(live.begin(), live.end()));
        QCOMPARE(pane.tables()->liveView()->model()->rowCount(), static_cast<int>(live.size()));

        // The selected step's marker is drawn in the selection colour.
        QImage image = pane.plot()->grab().toImage();
        const QRect rect = pane.plot()->axisRect()->rect();
        const int markerX =
            static_cast<int>(std::lround(pane.plot()->xToPixel(static_cast<double>(peakX))));
        QVERIFY2(columnHas(image, rect, markerX, selectionColor()),
                 "selected step marker not drawn");

        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(
            QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_" + report + "_step.png")));

        // Compare the first and the peak step.
        if (steps.size() > 1) {
            const std::uint32_t first =
                steps.stepIds.front() == peakStep ? steps.stepIds.back() : steps.stepIds.front();
            pane.toggleComparedStep(first);
            pane.toggleComparedStep(peakStep);
            QCOMPARE(pane.comparedSteps().size(), std::size_t(2));
            std::set<std::uint32_t> all;
            for (const auto s : pane.comparedSteps()) {
                const auto ids = loaded.source->liveVariables(s);
                all.insert(ids.begin(), ids.end());
            }
            QCOMPARE(pane.tables()->comparisonModel()->rowCount(), static_cast<int>(all.size()));
            QCOMPARE(pane.tables()->currentIndex(), int(LivenessTables::CompareTab));
            image = pane.plot()->grab().toImage();
            const int xA = static_cast<int>(
                std::lround(pane.plot()->xToPixel(steps.x(pane.comparedSteps().front()))));
            QVERIFY2(columnHas(image, rect, xA, LivenessPlot::comparedColor(0)),
                     "compared step marker not drawn");
        }

        // A not-always-live variable's live range is shaded.
        if (!live.empty()) {
            selection.setVariable(static_cast<int>(live.front()));
        }
        const QString out = QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_" + report + ".png");
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(out));

        // One tile on demand, following the selected tile.
        if (loaded.data->target.numTiles > 3) {
            selection.setTile(3);
            QCOMPARE(pane.tile(), 3);
            QTRY_VERIFY(!pane.isLoading());
            pane.setAlwaysLiveShown(false);
            data = pane.plot()->notAlwaysLiveGraph()->data();
            QCOMPARE(pane.plot()->pointCount(), static_cast<int>(e.tile3.size()));
            for (int x = 0; x < pane.plot()->pointCount(); ++x) {
                QCOMPARE(data->at(x)->value, e.tile3[static_cast<std::size_t>(x)]);
            }
            QVERIFY(pane.plot()->yAxis->label().contains("tile 3"));
            // Near or over the tile's capacity (the out-of-memory report), its line is drawn.
            const double capacity = static_cast<double>(loaded.data->target.bytesPerTile);
            const double tileMax = *std::max_element(e.tile3.begin(), e.tile3.end());
            QCOMPARE(pane.plot()->capacityShown(), tileMax >= 0.25 * capacity);
            if (report == "oom") {
                QVERIFY(pane.plot()->capacityShown());
                QVERIFY(pane.plot()->yAxis->range().upper > capacity);
            }
            QCoreApplication::processEvents();
            QVERIFY(pane.grab().save(
                QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_" + report + "_tile3.png")));
            pane.setTile(-1);
            QCOMPARE(pane.plot()->dataMax(), maxSum);
        }
        // Dark palette: the plot background follows it.
        pane.setPalette(darkPalette());
        QCoreApplication::processEvents();
        {
            const QImage dark = pane.plot()->grab().toImage();
            const QRect r = pane.plot()->axisRect()->rect();
            QVERIFY(dark.pixelColor(r.left() + 3, r.top() + 3).lightness() < 128);
            QVERIFY(pane.grab().save(
                QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_" + report + "_dark.png")));
        }
    }

    void manyStepsDrawAboutOnePointPerPixel() {
        LivenessPlot plot;
        plot.resize(800, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        std::vector<double> values(20000);
        for (std::size_t i = 0; i < values.size(); ++i) {
            values[i] = static_cast<double>((i * 7919) % 1000); // a jagged curve
        }
        values[12345] = 5000;
        plot.setSeries(values, -1, "bytes");
        QCOMPARE(plot.pointCount(), 20000);
        const int width = plot.axisRect()->width();
        auto data = plot.notAlwaysLiveGraph()->data();
        QVERIFY2(data->size() <= width + 2,
                 qPrintable(QString("%1 points for %2 pixels").arg(data->size()).arg(width)));
        double drawnMax = 0;
        for (int i = 0; i < data->size(); ++i) {
            drawnMax = std::max(drawnMax, data->at(i)->value);
        }
        QCOMPARE(drawnMax, 5000.0); // buckets keep their maximum
        // Zoomed in, every step is a point again.
        plot.xAxis->setRange(99.5, 150.5);
        data = plot.notAlwaysLiveGraph()->data();
        QCOMPARE(data->size(), 51 + 1);
        QCOMPARE(data->at(0)->key, 99.5);
        QCOMPARE(data->at(0)->value, values[100]);
    }

    void alwaysLiveList() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        LivenessPane pane;
        pane.setReport(loaded.data, loaded.source);
        int expected = 0;
        for (const auto& v : loaded.data->variables) {
            expected += v.alwaysLive && !v.isConstant ? 1 : 0;
        }
        QVERIFY(expected > 0);
        QCOMPARE(pane.tables()->alwaysLiveModel()->rowCount(), expected);
        QCOMPARE(pane.exportTargets().size(), 4);
        pane.setReport(nullptr, nullptr);
        QCOMPARE(pane.plot()->pointCount(), 0);
        QCOMPARE(pane.tables()->alwaysLiveModel()->rowCount(), 0);
    }
};

QTEST_MAIN(TestLivenessPane)
#include "tst_liveness_pane.moc"
