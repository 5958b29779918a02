// The compare panes rendered offscreen on real pairs of reports, checking
// what is drawn against numbers read independently from the two reports:
// the Summary's headline deltas and regression colours, the Memory pane's
// per-tile difference bars and tile map (and its message when the tile
// counts differ), the Liveness curves and difference, the Program pane's
// changed-only lists, and the Execution pane's side-by-side step bars and
// timelines on a shared time axis. Grabs are written to the build directory.
#include "CompareFixtures.h"
#include "reports/CompareFormat.h"
#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/Export.h"
#include "views/common/Selection.h"
#include "views/compare/CompareData.h"
#include "views/compare/CompareExecutionPane.h"
#include "views/compare/CompareLivenessPane.h"
#include "views/compare/CompareMemoryPane.h"
#include "views/compare/CompareProgramPane.h"
#include "views/compare/CompareSummaryPane.h"
#include "views/compare/CompareWidgets.h"
#include "views/compare/DeltaTileMap.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QDir>
#include <QLabel>
#include <QSet>
#include <QTableView>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::testing;

namespace {

QString out(const QString& name) {
    return QDir(TESSERA_TEST_OUTPUT_DIR).filePath(name);
}

template <class P>
std::unique_ptr<P> show(const std::shared_ptr<const CompareData>& data, Selection* selection) {
    auto pane = std::make_unique<P>();
    pane->resize(1400, 900);
    pane->setSelection(selection);
    pane->setComparison(data);
    pane->show();
    if (!QTest::qWaitForWindowExposed(pane.get())) {
        qWarning("window not exposed");
    }
    QCoreApplication::processEvents();
    return pane;
}

int colorDistance(const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
           std::abs(a.blue() - b.blue());
}

// Pixels of `rect` in `image` close to `color` (text is anti-aliased).
int pixelsNear(const QImage& image, const QRect& rect, const QColor& color) {
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        for (int x = rect.left(); x <= rect.right(); ++x) {
            n += colorDistance(image.pixelColor(x, y), color) < 60 ? 1 : 0;
        }
    }
    return n;
}

} // namespace

class TestComparePanes : public QObject {
    Q_OBJECT

private slots:
    void summary();
    void memory();
    void memoryOfDifferentTargets();
    void summaryOfDifferentTargets();
    void exports();
    void liveness();
    void program();
    void insertedStep();
    void execution();
};

void TestComparePanes::summary() {
    const ReportPair pair = sizesPair();
    const auto data = loadPair(pair);
    const reports::Summary b = reports::ReportReader(pair.baseline.toStdString()).summary();
    const reports::Summary c = reports::ReportReader(pair.comparison.toStdString()).summary();
    Selection selection;
    auto pane = show<CompareSummaryPane>(data, &selection);
    QCOMPARE(pane->paneName(), QString("summary"));
    // The headline: cycles grew by (c - b) / b, shown as a percentage, in the worse colour.
    QVERIFY(c.cycles.total > b.cycles.total);
    const double percent =
        100.0 * (double(c.cycles.total) - double(b.cycles.total)) / double(b.cycles.total);
    QCOMPARE(pane->stat("cycles")->valueLabel()->text(), QString("+%1%").arg(percent, 0, 'f', 1));
    QVERIFY(pane->stat("cycles")->detailLabel()->text().contains(QString::fromStdString(
        reports::formatCount(std::int64_t(c.cycles.total) - std::int64_t(b.cycles.total), true))));
    QVERIFY(pane->stat("cycles")->valueLabel()->styleSheet().contains(
        worseColor(pane->palette()).name()));
    QVERIFY(pane->findChild<QLabel*>("comparisonDescription")->text().contains(pair.comparison));
    // Every total is listed; the cycles row's delta is drawn in the worse colour.
    QTableView* view = pane->totalsView();
    QCOMPARE(view->model()->rowCount(), int(reports::metricNames().size()));
    const int row = rowsWith(*pane->totalsModel(), "Figure", "cycles").front();
    const QModelIndex delta = view->model()->index(row, pane->totalsModel()->columnOf("Δ"));
    QCOMPARE(delta.data().toString(),
             QString::fromStdString(reports::formatCount(
                 std::int64_t(c.cycles.total) - std::int64_t(b.cycles.total), true)));
    const QImage image = view->viewport()->grab().toImage();
    QVERIFY(pixelsNear(image, view->visualRect(delta), worseColor(pane->palette())) > 5);
    QVERIFY(pixelsNear(image, view->visualRect(delta), betterColor(pane->palette())) == 0);
    QVERIFY(pane->grab().save(out("compare_summary.png")));
    // In the dark palette the regression colour is the dark variant, still red.
    pane->setPalette(views::darkPalette());
    QCoreApplication::processEvents();
    const QColor darkWorse = worseColor(views::darkPalette());
    QVERIFY(darkWorse != worseColor(views::lightPalette()));
    QVERIFY(darkWorse.red() > darkWorse.green() && darkWorse.red() > darkWorse.blue());
    QVERIFY(pane->stat("cycles")->valueLabel()->styleSheet().contains(darkWorse.name()));
    QVERIFY(pane->grab().save(out("compare_summary_dark.png")));
}

void TestComparePanes::memory() {
    const ReportPair pair = mappingPair();
    const auto data = loadPair(pair);
    const auto tb = reports::ReportReader(pair.baseline.toStdString()).tileMemory();
    const auto tc = reports::ReportReader(pair.comparison.toStdString()).tileMemory();
    std::vector<std::int64_t> expected;
    int grew = 0, shrank = 0;
    for (std::size_t t = 0; t < tb.size(); ++t) {
        expected.push_back(std::int64_t(tc[t].totalIncludingGaps) -
                           std::int64_t(tb[t].totalIncludingGaps));
        grew += expected.back() > 0 ? 1 : 0;
        shrank += expected.back() < 0 ? 1 : 0;
    }
    QVERIFY(grew > 0 && shrank > 0); // fewer, fuller tiles: some grow, the others shrink
    Selection selection;
    auto pane = show<CompareMemoryPane>(data, &selection);
    QVERIFY(pane->tilesShown());
    QCOMPARE(pane->deltas(), expected);
    QCOMPARE(pane->growthBars()->data()->size(), grew);
    QCOMPARE(pane->shrinkBars()->data()->size(), shrank);
    const auto [lo, hi] = std::minmax_element(expected.begin(), expected.end());
    QVERIFY(pane->plot()->yAxis->range().upper >= double(*hi));
    QVERIFY(pane->plot()->yAxis->range().lower <= double(*lo));
    QCOMPARE(pane->plot()->xAxis->range().upper, double(expected.size()) - 0.5);
    // The pixel in the middle of the largest growth bar is the worse colour,
    // of the largest shrinkage the better colour.
    QCustomPlot* plot = pane->plot();
    const QImage image = plot->grab().toImage();
    auto barPixel = [&](std::ptrdiff_t tile) {
        return image.pixelColor(int(plot->xAxis->coordToPixel(double(tile))),
                                int(plot->yAxis->coordToPixel(double(expected[tile]) / 2)));
    };
    QCOMPARE(barPixel(hi - expected.begin()), worseColor(pane->palette()));
    QCOMPARE(barPixel(lo - expected.begin()), betterColor(pane->palette()));
    // The tile map: each cell on the diverging ramp, scaled to the largest change.
    DeltaTileMap* map = pane->tileMap();
    const std::int64_t scale = std::max(-*lo, *hi);
    QCOMPARE(map->scale(), scale);
    const QImage mapImage = map->grab().toImage();
    for (std::size_t t = 0; t < expected.size(); ++t) {
        const QColor want = divergingColor(double(expected[t]) / double(scale));
        QCOMPARE(map->cellColor(int(t)), want);
        QCOMPARE(mapImage.pixelColor(map->cellRect(int(t)).center()), want);
    }
    // Clicking a cell selects its tile.
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellRect(3).center());
    QCOMPARE(selection.tile(), record::TileId{3u});
    // Variable `a` moved: listed with its placement changed (changed only by default).
    QVERIFY(pane->variablesFilter()->changedOnly());
    bool listed = false;
    for (int r = 0; r < pane->variablesFilter()->rowCount(); ++r) {
        listed = listed || pane->variablesFilter()->index(r, 0).data().toString() == "a";
    }
    QVERIFY(listed);
    QVERIFY(pane->grab().save(out("compare_memory.png")));
    // Another measure: always-live bytes.
    pane->setMeasure(1);
    for (std::size_t t = 0; t < expected.size(); ++t) {
        QCOMPARE(pane->deltas()[t],
                 std::int64_t(tc[t].alwaysLiveBytes) - std::int64_t(tb[t].alwaysLiveBytes));
    }
}

void TestComparePanes::memoryOfDifferentTargets() {
    const auto data = loadPair(targetsPair());
    Selection selection;
    auto pane = show<CompareMemoryPane>(data, &selection);
    QVERIFY(!pane->tilesShown());
    QVERIFY(pane->deltas().empty());
    auto* label = pane->findChild<QLabel*>("tilesNotComparable");
    QVERIFY(label->isVisible());
    QVERIFY(label->text().contains("not compared"));
    QVERIFY(label->text().contains("1216"));
    QVERIFY(pane->grab().save(out("compare_memory_targets.png")));
}

void TestComparePanes::summaryOfDifferentTargets() {
    const ReportPair pair = targetsPair();
    const auto b = reports::ReportReader(pair.baseline.toStdString()).target();
    const auto c = reports::ReportReader(pair.comparison.toStdString()).target();
    QVERIFY(b.numTiles != c.numTiles);
    Selection selection;
    auto pane = show<CompareSummaryPane>(loadPair(pair), &selection);
    const QString notes = pane->findChild<QLabel*>("compareNotes")->text();
    QVERIFY2(notes.contains(QString::number(b.numTiles)) &&
                 notes.contains(QString::number(c.numTiles)),
             qPrintable(notes));
    QVERIFY(pane->findChild<QLabel*>("tilesComparable")->text().contains("not compared"));
    QVERIFY(pane->grab().save(out("compare_summary_targets.png")));
}

// Every compare pane offers its plots as images and its tables as CSV.
void TestComparePanes::exports() {
    const auto data = loadPair(sizesPair());
    Selection selection;
    std::vector<std::unique_ptr<ComparePane>> panes;
    panes.push_back(show<CompareSummaryPane>(data, &selection));
    panes.push_back(show<CompareMemoryPane>(data, &selection));
    panes.push_back(show<CompareLivenessPane>(data, &selection));
    panes.push_back(show<CompareProgramPane>(data, &selection));
    panes.push_back(show<CompareExecutionPane>(data, &selection));
    QSet<QString> names;
    for (const auto& pane : panes) {
        const QList<ExportTarget> targets = pane->exportTargets();
        QVERIFY2(!targets.isEmpty(), qPrintable(pane->paneName()));
        for (const ExportTarget& t : targets) {
            QVERIFY2(!names.contains(t.name), qPrintable(t.name));
            names.insert(t.name);
            if (t.widget) {
                QVERIFY(exportPng(t.widget, out("compare_export_" + t.name + ".png")));
            }
            if (t.model) {
                const QString csv = toCsv(t.model);
                QCOMPARE(csv.count('\n'), t.model->rowCount() + 1);
                QVERIFY(t.model->rowCount() > 0);
            }
        }
    }
}

void TestComparePanes::liveness() {
    const ReportPair pair = sizesPair();
    const auto data = loadPair(pair);
    const auto b = stepFigures(pair.baseline);
    const auto c = stepFigures(pair.comparison);
    double peak = 0;
    for (const auto* side : {&b, &c}) {
        for (const auto& [name, f] : *side) {
            peak = std::max(peak, double(f.liveBytes));
        }
    }
    QVERIFY(peak > 0);
    Selection selection;
    auto pane = show<CompareLivenessPane>(data, &selection);
    const int rows = pane->stepsModel()->rowCount();
    QCOMPARE(pane->baselineGraph()->data()->size(), rows + 1); // plus the closing point
    QCOMPARE(pane->comparisonGraph()->data()->size(), rows + 1);
    QVERIFY(pane->baselineGraph()->visible() && pane->comparisonGraph()->visible());
    QVERIFY(!pane->differenceGraph()->visible());
    QVERIFY(pane->plot()->yAxis->range().upper >= peak);
    QVERIFY(pane->plot()->yAxis->range().upper <= peak * 1.2);
    QCOMPARE(pane->plot()->xAxis->range().upper, double(rows));
    // The plotted values are the steps' live bytes.
    for (int r = 0; r < rows; ++r) {
        const std::string name = cell(*pane->stepsModel(), r, "Step").toString().toStdString();
        if (b.at(name).count == 1 && cell(*pane->stepsModel(), r, "Change").toString() != "added") {
            QCOMPARE(pane->baselineGraph()->data()->at(r)->value, double(b.at(name).liveBytes));
        }
    }
    // The selected (baseline) step is marked on its aligned row; picking a
    // row selects its baseline step everywhere.
    const auto stepsB = reports::ReportReader(pair.baseline.toStdString()).programSteps();
    const int pick = rows - 1;
    const std::string pickName = cell(*pane->stepsModel(), pick, "Step").toString().toStdString();
    const auto named = std::find_if(stepsB.begin(), stepsB.end(),
                                    [&](const auto& s) { return s.name == pickName; });
    QVERIFY(named != stepsB.end());
    selection.setStep(named->id);
    QCOMPARE(pane->markedX(), pick);
    pane->stepsView()->setCurrentIndex(pane->stepsView()->model()->index(0, 0));
    QCOMPARE(selection.step(),
             std::find_if(stepsB.begin(), stepsB.end(), [&](const auto& s) {
                 return s.name == cell(*pane->stepsModel(), 0, "Step").toString().toStdString();
             })->id);
    QCOMPARE(pane->markedX(), 0);
    QVERIFY(pane->grab().save(out("compare_liveness.png")));
    pane->setMode(CompareLivenessPane::Mode::Difference);
    QVERIFY(pane->differenceGraph()->visible() && !pane->baselineGraph()->visible());
    for (int r = 0; r < rows; ++r) {
        const std::string name = cell(*pane->stepsModel(), r, "Step").toString().toStdString();
        if (b.at(name).count == 1 && c.count(name) && c.at(name).count == 1 &&
            cell(*pane->stepsModel(), r, "Change").toString() == "changed") {
            QCOMPARE(pane->differenceGraph()->data()->at(r)->value,
                     double(c.at(name).liveBytes) - double(b.at(name).liveBytes));
        }
    }
    QVERIFY(pane->grab().save(out("compare_liveness_difference.png")));
}

void TestComparePanes::program() {
    const ReportPair pair = sizesPair();
    const auto data = loadPair(pair);
    Selection selection;
    auto pane = show<CompareProgramPane>(data, &selection);
    CompareTableModel* steps = pane->stepsModel();
    const int all = steps->rowCount();
    const int same = rowsWith(*steps, "Change", "same").size();
    QCOMPARE(pane->stepsFilter()->rowCount(), all);
    pane->setChangedOnly(true);
    QCOMPARE(pane->stepsFilter()->rowCount(), all - same);
    QCOMPARE(pane->computeSetsFilter()->rowCount(),
             pane->computeSetsModel()->rowCount() -
                 int(rowsWith(*pane->computeSetsModel(), "Change", "same").size()));
    // The first row, the largest regression, has its delta in the worse colour.
    QTableView* view = pane->stepsView();
    const QModelIndex delta = view->model()->index(0, steps->columnOf("Cycles Δ"));
    QVERIFY(delta.data(kSortRole).toLongLong() > 0);
    view->scrollTo(delta);
    QCoreApplication::processEvents();
    const QImage image = view->viewport()->grab().toImage();
    QVERIFY(pixelsNear(image, view->visualRect(delta), worseColor(pane->palette())) > 5);
    // Selecting a step row selects its baseline step everywhere.
    view->setCurrentIndex(view->model()->index(0, 0));
    QCOMPARE(selection.step(), data->diff.steps.front().baselineStep);
    QVERIFY(pane->grab().save(out("compare_program.png")));
}

// One step inserted: listed as added (the rest matched by identity), its
// missing baseline side shown as "—", a gap in the baseline's liveness curve.
void TestComparePanes::insertedStep() {
    const ReportPair pair = insertedStepPair();
    std::set<std::string> before, after;
    for (const auto& s : reports::ReportReader(pair.baseline.toStdString()).programSteps()) {
        before.insert(s.name);
    }
    for (const auto& s : reports::ReportReader(pair.comparison.toStdString()).programSteps()) {
        after.insert(s.name);
    }
    std::vector<std::string> added;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                        std::back_inserter(added));
    QCOMPARE(added.size(), std::size_t(1));
    const auto data = loadPair(pair);
    Selection selection;
    auto program = show<CompareProgramPane>(data, &selection);
    CompareTableModel* steps = program->stepsModel();
    const QList<int> addedRows = rowsWith(*steps, "Change", "added");
    QCOMPARE(addedRows.size(), 1);
    QCOMPARE(rowsWith(*steps, "Change", "removed").size(), 0);
    QCOMPARE(steps->rowCount(), int(after.size()));
    const int row = addedRows.front();
    QCOMPARE(cell(*steps, row, "Step").toString().toStdString(), added.front());
    QCOMPARE(steps->index(row, steps->columnOf("Cycles (baseline)")).data().toString(),
             QString("—"));
    QCOMPARE(number(*steps, row, "Cycles (baseline)"), 0);
    QVERIFY(number(*steps, row, "Cycles (comparison)") > 0);
    QCOMPARE(steps->toneAt(row, steps->columnOf("Change")), CompareTone::Worse);
    QCOMPARE(rowsWith(*program->computeSetsModel(), "Change", "added").size(), 1);
    QVERIFY(program->grab().save(out("compare_program_inserted.png")));

    auto liveness = show<CompareLivenessPane>(data, &selection);
    const QList<int> liveAdded = rowsWith(*liveness->stepsModel(), "Change", "added");
    QCOMPARE(liveAdded.size(), 1);
    const int x = liveAdded.front();
    QVERIFY(std::isnan(liveness->baselineGraph()->data()->at(x)->value));
    QVERIFY(!std::isnan(liveness->comparisonGraph()->data()->at(x)->value));
    QVERIFY(liveness->grab().save(out("compare_liveness_inserted.png")));
}

void TestComparePanes::execution() {
    const ReportPair pair = sizesPair();
    const auto data = loadPair(pair);
    const auto b = stepFigures(pair.baseline);
    const auto c = stepFigures(pair.comparison);
    // The largest regression, by step name, computed from the reports.
    std::string worst;
    std::int64_t worstDelta = 0;
    for (const auto& [name, f] : c) {
        const std::int64_t d =
            std::int64_t(f.cycles) - std::int64_t(b.count(name) ? b.at(name).cycles : 0);
        if (f.count == 1 && d > worstDelta) {
            worst = name;
            worstDelta = d;
        }
    }
    Selection selection;
    auto pane = show<CompareExecutionPane>(data, &selection);
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady(), 60000);
    const auto& charted = pane->chartedSteps();
    QVERIFY(!charted.empty());
    QCOMPARE(pane->baselineBars()->data()->size(), int(charted.size()));
    QCOMPARE(pane->comparisonBars()->data()->size(), int(charted.size()));
    const reports::StepDelta& top = data->diff.steps[charted.front()];
    QCOMPARE(top.name, worst);
    // The top bar pair: the comparison bar's middle is drawn in its side colour.
    QCustomPlot* plot = pane->stepsPlot();
    const double key = double(charted.size() - 1);
    QCOMPARE(pane->comparisonBars()->data()->at(int(charted.size()) - 1)->key, key);
    QCOMPARE(pane->comparisonBars()->data()->at(int(charted.size()) - 1)->value,
             double(c.at(worst).cycles));
    QCOMPARE(pane->baselineBars()->data()->at(int(charted.size()) - 1)->value,
             double(b.at(worst).cycles));
    const QImage image = plot->grab().toImage();
    image.save(out("compare_step_bars.png"));
    const QPointF centre = pane->comparisonBars()->dataPixelPosition(int(charted.size()) - 1);
    const QPointF base = pane->baselineBars()->dataPixelPosition(int(charted.size()) - 1);
    QCOMPARE(image.pixelColor(int(plot->xAxis->coordToPixel(double(c.at(worst).cycles) / 2)),
                              int(centre.y())),
             comparisonSideColor());
    QCOMPARE(image.pixelColor(int(plot->xAxis->coordToPixel(double(b.at(worst).cycles) / 4)),
                              int(base.y())),
             baselineSideColor());
    // Both timelines have their frames, and share the time axis: zooming one
    // moves the other to the same offset from its run's start.
    for (int side = 0; side < 2; ++side) {
        QVERIFY(pane->timeline(side)->frame() != nullptr);
    }
    QCOMPARE(pane->visibleOffset(0), 0.0);
    pane->viewport(0)->zoomAbout(300, 4.0);
    QVERIFY(pane->visibleOffset(0) > 0);
    QCOMPARE(pane->visibleOffset(1), pane->visibleOffset(0));
    QCOMPARE(pane->viewport(1)->time().span(), pane->viewport(0)->time().span());
    pane->viewport(1)->dragBy(-40);
    QCOMPARE(pane->visibleOffset(0), pane->visibleOffset(1));
    pane->resetZoom();
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady(), 60000);
    // Selecting a baseline step highlights the comparison step of the same
    // name (read from the reports) in the other timeline.
    const auto stepsB = reports::ReportReader(pair.baseline.toStdString()).programSteps();
    const auto stepsC = reports::ReportReader(pair.comparison.toStdString()).programSteps();
    const auto named =
        std::find_if(stepsB.begin(), stepsB.end(), [&](const auto& s) { return s.name == worst; });
    QVERIFY(named != stepsB.end());
    selection.setStep(named->id);
    QVERIFY(!pane->matchedComparisonStep().isNone());
    QCOMPARE(stepsC[record::index(pane->matchedComparisonStep())].name, worst);
    selection.setStep(record::StepId::none());
    QCOMPARE(pane->matchedComparisonStep(), record::StepId::none());
    QVERIFY(pane->grab().save(out("compare_execution.png")));
}

QTEST_MAIN(TestComparePanes)
#include "tst_compare_panes.moc"
