// The Liveness pane rendered offscreen on captured reports: the plot has one
// point per program step and peaks at the bytes summed here from the report's
// per-tile arrays; a selected step lists exactly its live variables and is
// marked on the plot; per-tile curves, always-live on/off and step
// comparison. Grabs are written to the build directory.
#include "HeaderFixtures.h"
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/common/Colors.h"
#include "views/common/ScrollRow.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/panes/LivenessPane.h"
#include "views/panes/liveness/LivenessPlot.h"
#include "views/panes/liveness/LivenessTables.h"

#include <QCheckBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

#include <functional>
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

// The variable ids of a (grouped) model's rows, all levels down.
std::multiset<std::uint32_t> variableRows(const QAbstractItemModel& model,
                                          const QModelIndex& parent) {
    std::multiset<std::uint32_t> ids;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, 0, parent);
        if (i.data(kIdRole).isValid()) {
            ids.insert(i.data(kIdRole).toUInt());
        }
        const auto below = variableRows(model, i);
        ids.insert(below.begin(), below.end());
    }
    return ids;
}

struct Expected {
    std::vector<double> sums;  // per step in program order
    std::vector<double> tile3; // tile 3's bytes per step
    double alwaysLive = 0;
};

Expected expectedFromReader(const QString& path, const std::vector<record::StepId>& order) {
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

// The set-up of the tests that look at a whole pane: 1400×900, following
// `selection`, showing `loaded`, shown, with its step data loaded.
bool showReport(LivenessPane& pane, Selection& selection, const LoadedReport& loaded) {
    pane.resize(1400, 900);
    pane.setSelection(&selection);
    pane.setReport(loaded.data, loaded.source);
    pane.show();
    return QTest::qWaitForWindowExposed(&pane) &&
           QTest::qWaitFor([&] { return !pane.isLoading(); }, 30000);
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
        QVERIFY(showReport(pane, selection, loaded));

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
        const record::StepId peakStep = steps.stepIds[peakX];
        selection.setStep(peakStep);
        QCOMPARE(pane.selectedStep(), peakStep);
        std::vector<std::uint32_t> live; // as the models hand them out
        for (const record::VariableId v : loaded.source->liveVariables(peakStep)) {
            live.push_back(v.value());
        }
        auto* liveModel = pane.tables()->liveModel();
        QCOMPARE(liveModel->rowCount(), static_cast<int>(live.size()));
        std::set<std::uint32_t> shown;
        for (int r = 0; r < liveModel->rowCount(); ++r) {
            shown.insert(liveModel->data(liveModel->index(r, 0), kIdRole).toUInt());
        }
        QCOMPARE(shown, std::set<std::uint32_t>(live.begin(), live.end()));
        // The view (grouped by name) holds each of them once, under its groups.
        QCOMPARE(variableRows(*pane.tables()->liveView()->model(), {}),
                 std::multiset<std::uint32_t>(live.begin(), live.end()));

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
            const record::StepId first =
                steps.stepIds.front() == peakStep ? steps.stepIds.back() : steps.stepIds.front();
            pane.toggleComparedStep(first);
            pane.toggleComparedStep(peakStep);
            QCOMPARE(pane.comparedSteps().size(), std::size_t(2));
            std::set<record::VariableId> all;
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
            selection.setVariable(record::VariableId{live.front()});
        }
        const QString out = QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_" + report + ".png");
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(out));

        // One tile on demand, following the selected tile.
        if (loaded.data->target.numTiles > 3) {
            selection.setTile(record::TileId{3u});
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

    // Issue 15: the peak step's live variables, vertices and cycles are shown
    // on open, before any click, and the plot marks it.
    void openShowsThePeakStep() {
        const QString path = testing::namedReport("mlp-train");
        const LoadedReport loaded = ReportLoader::loadNow(path);
        QVERIFY2(loaded.error.isEmpty(), qPrintable(loaded.error));
        Selection selection;
        LivenessPane pane;
        QVERIFY(showReport(pane, selection, loaded));

        const auto& steps = pane.steps();
        const Expected e = expectedFromReader(path, steps.stepIds);
        const auto peakX = static_cast<std::size_t>(std::max_element(e.sums.begin(), e.sums.end()) -
                                                    e.sums.begin());
        const record::StepId peak = steps.stepIds[peakX];
        QCOMPARE(pane.selectedStep(), peak);
        QCOMPARE(selection.step(), record::StepId::none()); // opening a report moves no other pane

        const reports::ReportReader reader(path.toStdString());
        const auto live = reader.liveVariables(peak);
        QVERIFY(!live.empty());
        LivenessTables* tables = pane.tables();
        QCOMPARE(tables->liveModel()->rowCount(), static_cast<int>(live.size()));
        QVERIFY(tables->stepHeader()->text().contains(QString("Step <b>%1</b>").arg(peak.value())));
        // Grouped by default: the top rows' bytes add up to the live variables' bytes.
        QVERIFY(tables->isGrouped());
        QCOMPARE(tables->liveView()->model(), tables->liveShown());
        std::uint64_t liveBytes = 0;
        for (const auto id : live) {
            liveBytes += loaded.data->variable(id)->totalBytes;
        }
        QAbstractItemModel* shown = tables->liveShown();
        std::uint64_t topSum = 0;
        for (int r = 0; r < shown->rowCount(); ++r) {
            topSum += shown->index(r, LiveVariablesModel::Bytes).data(kSortRole).toULongLong();
        }
        QCOMPARE(topSum, liveBytes);

        // Vertices of the peak's compute set, counted here from the reader.
        const auto* step = loaded.data->step(peak);
        QVERIFY(step);
        std::uint64_t vertices = 0;
        std::set<std::uint32_t> codelets;
        if (!step->computeSet.isNone()) {
            for (const auto& v : reader.vertexCounts(step->computeSet)) {
                vertices += v.count;
                if (v.count > 0) {
                    codelets.insert(v.codelet.value());
                }
            }
        }
        QCOMPARE(tables->verticesModel()->totalVertices(), vertices);
        QCOMPARE(tables->verticesModel()->rowCount(), static_cast<int>(codelets.size()));
        // Cycles per tile: the largest compute and the total from the step's arrays.
        const auto tiles = reader.stepTiles(peak);
        QCOMPARE(tables->cyclesModel()->rowCount(), 3);
        QCOMPARE(tables->cyclesModel()->stats(StepCyclesModel::Compute).max,
                 static_cast<std::uint64_t>(
                     *std::max_element(tiles.computeCycles.begin(), tiles.computeCycles.end())));
        QCOMPARE(tables->cyclesModel()->totalCycles(), tiles.totalCycles);
        QCOMPARE(pane.exportTargets().size(), 6);

        // The plot marks the peak in the selection colour.
        const QImage image = pane.plot()->grab().toImage();
        const int markerX =
            static_cast<int>(std::lround(pane.plot()->xToPixel(static_cast<double>(peakX))));
        QVERIFY2(columnHas(image, pane.plot()->axisRect()->rect(), markerX, selectionColor()),
                 "peak step not marked");
        for (const int tab : {LivenessTables::VerticesTab, LivenessTables::CyclesTab}) {
            tables->setCurrentIndex(tab);
            QCoreApplication::processEvents();
            QVERIFY(pane.grab().save(QDir(TESSERA_TEST_OUTPUT_DIR)
                                         .filePath(QString("liveness_open_tab%1.png").arg(tab))));
        }
        tables->setCurrentIndex(LivenessTables::LiveTab);
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_open.png")));
    }

    // The flat list is one toggle away; the filter works in both.
    void flatToggleAndFilter() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        LivenessPane pane;
        pane.setReport(loaded.data, loaded.source);
        QTRY_VERIFY(!pane.isLoading());
        LivenessTables* tables = pane.tables();
        const int live = tables->liveModel()->rowCount();
        QVERIFY(live > 1);
        tables->groupToggle()->setChecked(false);
        QVERIFY(!tables->isGrouped());
        QCOMPARE(tables->liveView()->model(), tables->liveShown());
        QCOMPARE(tables->liveShown()->rowCount(), live);
        // A variable's full name, typed in the filter, finds it flat and grouped.
        const auto* first = tables->liveModel()->variables().front();
        const QString name = QString::fromStdString(first->name);
        tables->liveFilter()->setText(name);
        QAbstractItemModel* flat = tables->liveShown();
        QVERIFY(flat->rowCount() >= 1);
        for (int r = 0; r < flat->rowCount(); ++r) {
            QVERIFY(flat->index(r, 0).data().toString().contains(name, Qt::CaseInsensitive));
        }
        tables->groupToggle()->setChecked(true);
        QAbstractItemModel* tree = tables->liveShown();
        QVERIFY(tree != flat);
        // Down the groups to a row of that variable.
        std::function<bool(const QModelIndex&)> holds = [&](const QModelIndex& parent) {
            for (int r = 0; r < tree->rowCount(parent); ++r) {
                const QModelIndex i = tree->index(r, 0, parent);
                if (i.data(kIdRole).isValid() && i.data(kIdRole).toUInt() == first->id.value()) {
                    return true;
                }
                if (holds(i)) {
                    return true;
                }
            }
            return false;
        };
        QVERIFY(holds({}));
        // Selecting the variable opens its groups and selects its row.
        tables->selectVariable(first->id);
        const QModelIndex current = tables->liveView()->currentIndex();
        QCOMPARE(current.data(kIdRole).toUInt(), first->id.value());
    }

    // Issue 15: the toolbar is not clipped, and the pane shrinks like the
    // others (it held the window about 1104 px wide) and is short enough for
    // 800x600 with the problem bar shown.
    void toolbarFitsAndThePaneShrinks() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        LivenessPane pane;
        pane.setReport(loaded.data, loaded.source);
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY(!pane.isLoading());
        QCoreApplication::processEvents();
        auto* bar = pane.findChild<ScrollRow*>();
        QVERIFY(bar);
        const QWidget* row = bar->widget();
        for (const QWidget* w : row->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
            if (w->isVisible()) {
                QVERIFY2(w->geometry().top() >= 0 &&
                             w->geometry().bottom() < bar->viewport()->height(),
                         qPrintable(QString("%1 (%2 px high at y %3) clipped by a %4 px row")
                                        .arg(w->metaObject()->className())
                                        .arg(w->height())
                                        .arg(w->y())
                                        .arg(bar->viewport()->height())));
                QVERIFY(w->height() >= w->minimumSizeHint().height());
            }
        }
        QVERIFY(!bar->horizontalScrollBar()->isVisible());

        const QSize minimum = pane.minimumSizeHint();
        QVERIFY2(minimum.width() <= 600, qPrintable(QString("%1 px").arg(minimum.width())));
        QVERIFY2(minimum.height() <= 380, qPrintable(QString("%1 px").arg(minimum.height())));
        for (const int tab : {LivenessTables::LiveTab, LivenessTables::CompareTab}) {
            pane.tables()->setCurrentIndex(tab);
            pane.resize(760, 480);
            QCoreApplication::processEvents();
            QCOMPARE(pane.size(), QSize(760, 480));
            QVERIFY(pane.tables()->width() <= 760);
        }
        QVERIFY(pane.grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("liveness_small.png")));
    }

    // The variables table fills the pane's width: the names column takes the
    // space the fitted columns leave (it left ~800 px empty at 1400 px), grows
    // and shrinks with the pane, and never below its fitted width.
    void namesColumnFillsTheWidth() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        LivenessPane pane;
        pane.setReport(loaded.data, loaded.source);
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY(!pane.isLoading());
        QCoreApplication::processEvents();
        QTreeView* view = pane.tables()->liveView();
        QHeaderView* header = view->header();
        const auto rightEdge = [&] { return testing::rightEdgeOfColumns(*header); };
        QCOMPARE(rightEdge(), view->viewport()->width());
        const int wide = header->sectionSize(0);
        pane.resize(1000, 900);
        QCoreApplication::processEvents();
        QCOMPARE(rightEdge(), view->viewport()->width());
        QCOMPARE(header->sectionSize(0), wide - 400); // every pixel the pane lost
        // Narrower than the columns need: the names keep their fitted width and
        // the view scrolls instead.
        pane.resize(420, 900);
        QCoreApplication::processEvents();
        QVERIFY(header->sectionSize(0) >= 160);
        QVERIFY(rightEdge() >= view->viewport()->width());
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
        QCOMPARE(pane.exportTargets().size(), 6);
        pane.setReport(nullptr, nullptr);
        QCOMPARE(pane.plot()->pointCount(), 0);
        QCOMPARE(pane.tables()->alwaysLiveModel()->rowCount(), 0);
    }
};

QTEST_MAIN(TestLivenessPane)
#include "tst_liveness_pane.moc"
