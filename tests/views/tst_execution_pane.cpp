// The Execution pane rendered offscreen (1400x900) on captured reports:
// matmul and mlp-train on 16 tiles and the 1,472-tile x 20,000-step stress
// report. Checks the visible range, that the painted primitives are bounded
// by the width in pixels, phase colours at known segments, that clicking a
// step selects it (the expected step found independently with a
// ReportReader), the selected step's per-tile chart, following a selection
// made elsewhere, and the steps table / exports. Grabs are written to the
// test's build directory.
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/common/Colors.h"
#include "views/common/Export.h"
#include "views/common/Format.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/models/ExecutedStepsModel.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/execution/FlameWidget.h"
#include "views/panes/execution/StepDetailsPanel.h"
#include "views/panes/execution/StepSearch.h"
#include "views/panes/execution/SummaryStrip.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::execution;

namespace {

QString reportFor(const QString& name) {
    if (name == "stress") {
        return testing::capturedReport("stress", "mk2", {{"steps", "20000"}});
    }
    if (name == "out-of-memory") {
        return testing::outOfMemoryReport();
    }
    return testing::capturedReport(name.toStdString());
}

struct Opened {
    LoadedReport report;
    std::unique_ptr<Selection> selection;
    std::unique_ptr<ExecutionPane> pane;
    std::unique_ptr<reports::ReportReader> reader; // independent of the pane's source
    reports::RunEntry run;
    std::vector<record::StepExecutionRecord> steps; // every executed step of the pane's run
};

// Where the pane's visible range puts `cycle`, computed here from the range
// alone (not with the pane's mapping code).
double expectedX(ExecutionPane* pane, double cycle) {
    const TimeMapping& m = pane->viewport()->time();
    const QRect plot = pane->timeline()->plotRect();
    return plot.left() + (cycle - m.start()) / (m.end() - m.start()) * plot.width();
}

const record::StepExecutionRecord*
stepAtCycle(const std::vector<record::StepExecutionRecord>& steps, double cycle) {
    for (const auto& e : steps) {
        if (static_cast<double>(e.startCycle) <= cycle &&
            cycle < static_cast<double>(e.startCycle + e.cycles)) {
            return &e;
        }
    }
    return nullptr;
}

} // namespace

class TestExecutionPane : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void resetZoomShowsTheRun_data() { workloads(); }
    void resetZoomShowsTheRun();
    void paintedPrimitivesBoundedByWidth_data() { workloads(); }
    void paintedPrimitivesBoundedByWidth();
    void phaseColoursAtKnownSegments_data() { workloads(); }
    void phaseColoursAtKnownSegments();
    void clickSelectsTheStep_data() { workloads(); }
    void clickSelectsTheStep();
    void selectionFromElsewhereRevealsTheStep_data() { workloads(); }
    void selectionFromElsewhereRevealsTheStep();
    void stepsTableAndExports();
    void darkPaletteAndTileRows();
    void dragPansAndWheelZooms();
    void searchOnTheStressReport();
    void everyWorkloadRenders_data();
    void everyWorkloadRenders();

private:
    void workloads() {
        QTest::addColumn<QString>("workload");
        for (const char* w : {"matmul", "mlp-train", "stress"}) {
            QTest::newRow(w) << QString(w);
        }
    }
    std::unique_ptr<Opened> open(const QString& name);
    void settle(ExecutionPane* pane);
    QImage grab(QWidget* widget, const QString& file);
};

void TestExecutionPane::initTestCase() {
    QElapsedTimer t;
    t.start();
    for (const char* w : {"matmul", "mlp-train", "stress"}) {
        QVERIFY(QFile::exists(reportFor(w)));
    }
    qInfo("captured the reports in %.1f s", t.elapsed() / 1000.0);
}

std::unique_ptr<Opened> TestExecutionPane::open(const QString& name) {
    auto o = std::make_unique<Opened>();
    const QString path = reportFor(name);
    o->report = ReportLoader::loadNow(path);
    if (!o->report.error.isEmpty()) {
        qWarning() << o->report.error;
        return nullptr;
    }
    o->selection = std::make_unique<Selection>();
    o->pane = std::make_unique<ExecutionPane>();
    o->pane->resize(1400, 900);
    o->pane->setSelection(o->selection.get());
    o->pane->setReport(o->report.data, o->report.source);
    o->pane->show();
    o->reader = std::make_unique<reports::ReportReader>(path.toStdString());
    o->run = o->report.data->runs.at(static_cast<std::size_t>(o->pane->run()));
    o->steps = o->reader->executedSteps(o->run.id, 0, o->run.steps);
    return o;
}

void TestExecutionPane::settle(ExecutionPane* pane) {
    QVERIFY(QTest::qWaitForWindowExposed(pane));
    QTRY_VERIFY_WITH_TIMEOUT(!pane->isFetching(), 60000);
}

QImage TestExecutionPane::grab(QWidget* widget, const QString& file) {
    const QImage image = widget->grab().toImage();
    if (!file.isEmpty()) {
        image.save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath(file));
    }
    return image;
}

void TestExecutionPane::resetZoomShowsTheRun() {
    QFETCH(QString, workload);
    QElapsedTimer t;
    t.start();
    auto o = open(workload);
    QVERIFY(o);
    settle(o->pane.get());
    if (QTest::currentTestFailed()) {
        return;
    }
    grab(o->pane.get(), "execution-" + workload + ".png");
    qInfo("%s: first complete frame after %lld ms", qPrintable(workload), t.elapsed());
    QVERIFY(t.elapsed() < 20000); // the benchmark holds the 2 s budget; this only catches hangs
    // The run is the longest one; at reset zoom the whole of it is visible.
    for (const auto& r : o->report.data->runs) {
        QVERIFY(r.cycles <= o->run.cycles);
    }
    const TimeMapping& m = o->pane->viewport()->time();
    QCOMPARE(m.start(), static_cast<double>(o->run.startCycle));
    QCOMPARE(m.end(), static_cast<double>(o->run.startCycle + o->run.cycles));
    QVERIFY(o->run.steps > 0);
    QCOMPARE(o->steps.size(), o->run.steps);
    // The frame holds every executed step of the run (all are visible).
    const TimelineFrame* f = o->pane->timeline()->frame();
    QVERIFY(f && f->stepsComplete);
    QCOMPARE(f->steps.size(), o->steps.size());
    // Rows: 16 tiles as tile rows; 1,472 tiles as tile groups.
    const RowLayout& layout = o->pane->timeline()->layout();
    const std::uint32_t tiles = o->report.data->target.numTiles;
    QCOMPARE(layout.tileRows, tiles == 16);
    if (tiles == 16) {
        QCOMPARE(layout.rows.size(), std::size_t{17});
    } else {
        QCOMPARE(layout.rows.back().firstTile + layout.rows.back().tileCount, tiles);
        QVERIFY(layout.rows.size() > 20);
    }
    // 20,000 steps do not fit 1,400 pixels: buckets; a few hundred steps do.
    QCOMPARE(f->level == 0, static_cast<double>(o->run.steps) <=
                                o->pane->timeline()->plotRect().width() / kMinBucketPx);
    QVERIFY(o->pane->flame()->lastPaintStats().rows > 0);
}

void TestExecutionPane::paintedPrimitivesBoundedByWidth() {
    QFETCH(QString, workload);
    auto o = open(workload);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    const int width = pane->timeline()->plotRect().width();
    const int perRow = static_cast<int>(width / kMinBucketPx) + 2;
    auto check = [&](const QString& when) {
        settle(pane);
        grab(pane, QString());
        const PaintStats& s = pane->timeline()->lastPaintStats();
        const auto rows = static_cast<int>(pane->timeline()->layout().rows.size());
        QVERIFY2(s.cells > 0, qPrintable(when));
        QVERIFY2(s.cells <= perRow,
                 qPrintable(QString("%1: %2 cells > %3").arg(when).arg(s.cells).arg(perRow)));
        QVERIFY2(s.cells <= width, qPrintable(when));
        QCOMPARE(s.rows, rows);
        QCOMPARE(s.items, s.cells * rows);
        const PaintStats& flame = pane->flame()->lastPaintStats();
        QVERIFY2(flame.items <= flame.rows * perRow, qPrintable(when));
    };
    check("reset");
    // Zoom in around several points, then pan: the bound holds at every level.
    for (const double at : {0.1, 0.5, 0.93}) {
        pane->viewport()->reset();
        for (int i = 0; i < 4; ++i) {
            pane->viewport()->zoomAbout(at * width, 6);
            check(QString("zoom %1 at %2").arg(i).arg(at));
            if (at == 0.5) {
                grab(pane, QString("execution-%1-zoom%2.png").arg(workload).arg(i + 1));
            }
        }
        pane->viewport()->dragBy(width / 3.0);
        check(QString("pan at %1").arg(at));
    }
}

void TestExecutionPane::phaseColoursAtKnownSegments() {
    QFETCH(QString, workload);
    auto o = open(workload);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    // The executed step with the longest compute phase among the first 500.
    const auto programSteps = o->reader->programSteps();
    const record::StepExecutionRecord* best = nullptr;
    for (std::size_t i = 0; i < o->steps.size() && i < 500; ++i) {
        if (!best || programSteps[o->steps[i].programStep.value()].computePhaseCycles >
                         programSteps[best->programStep.value()].computePhaseCycles) {
            best = &o->steps[i];
        }
    }
    QVERIFY(best);
    const reports::ProgramStepEntry& ps = programSteps[best->programStep.value()];
    QVERIFY(ps.computePhaseCycles > 0);
    // Show it across the middle third.
    const auto s = static_cast<double>(best->startCycle), len = static_cast<double>(best->cycles);
    pane->viewport()->setVisible(s - len, s + 2 * len);
    settle(pane);
    QCOMPARE(pane->timeline()->frame()->level, 0u);
    const QImage image = grab(pane->timeline(), "execution-" + workload + "-step.png");
    const QRect plot = pane->timeline()->plotRect();
    const TimelineRow& all = pane->timeline()->layout().rows[0];
    const int yAll = plot.top() + all.y + all.height / 2;
    const double a = s + static_cast<double>(ps.syncCycles);          // exchange phase starts
    const double b = a + static_cast<double>(ps.exchangePhaseCycles); // compute phase starts
    auto pixel = [&](double cycle, int y) {
        return QColor(image.pixel(static_cast<int>(expectedX(pane, cycle)), y));
    };
    auto wide = [&](double cycles) { return cycles / (len * 3) * plot.width() >= 6; };
    QCOMPARE(pixel(b + static_cast<double>(ps.computePhaseCycles) / 2, yAll),
             phaseColor(Phase::Compute));
    if (wide(static_cast<double>(ps.exchangePhaseCycles))) {
        QCOMPARE(pixel(a + static_cast<double>(ps.exchangePhaseCycles) / 2, yAll),
                 phaseColor(Phase::Exchange));
    }
    if (wide(static_cast<double>(ps.syncCycles))) {
        QCOMPARE(pixel(s + static_cast<double>(ps.syncCycles) / 2, yAll), phaseColor(Phase::Sync));
    }
    // A tile or group row: solid compute while its least busy tile computes,
    // idle (sync colour) after its busiest tile is done.
    const TimelineRow& row = pane->timeline()->layout().rows[1];
    const int y = plot.top() + row.y + row.height / 2;
    const reports::StepTiles tiles = o->reader->stepTiles(best->programStep);
    std::uint64_t minC = UINT64_MAX, maxC = 0;
    for (std::uint32_t t = row.firstTile; t < row.firstTile + row.tileCount; ++t) {
        minC = std::min<std::uint64_t>(minC, tiles.computeCycles[t]);
        maxC = std::max<std::uint64_t>(maxC, tiles.computeCycles[t]);
    }
    if (wide(static_cast<double>(minC))) {
        QCOMPARE(pixel(b + static_cast<double>(minC) / 2, y), phaseColor(Phase::Compute));
    }
    const double idle = static_cast<double>(ps.computePhaseCycles - maxC);
    if (wide(idle)) {
        QCOMPARE(pixel(b + static_cast<double>(maxC) + idle / 2, y), phaseColor(Phase::Sync));
    }
}

void TestExecutionPane::clickSelectsTheStep() {
    QFETCH(QString, workload);
    auto o = open(workload);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    TimelineWidget* timeline = pane->timeline();
    const QRect plot = timeline->plotRect();
    const TimeMapping& m = pane->viewport()->time();
    const int y = plot.top() + timeline->layout().rows[0].height / 2;
    record::StepId last = record::StepId::none();
    for (const double at : {0.07, 0.31, 0.5, 0.77, 0.96}) {
        const int x = plot.left() + static_cast<int>(at * plot.width());
        const double cycle = m.start() + (x + 0.5 - plot.left()) / plot.width() * m.span();
        const record::StepExecutionRecord* expected = stepAtCycle(o->steps, cycle);
        QVERIFY(expected);
        QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(x, y));
        QCOMPARE(o->selection->step(), expected->programStep);
        last = o->selection->step();
    }
    // The details show the step; its chart has a bar per tile equal to the
    // report's per-tile cycles.
    StepDetailsPanel* details = pane->details();
    QCOMPARE(details->step(), last);
    const std::uint32_t tiles = o->report.data->target.numTiles;
    QTRY_VERIFY_WITH_TIMEOUT(!details->isLoading() &&
                                 details->bars(0)->data()->size() == static_cast<int>(tiles),
                             10000);
    const reports::StepTiles expected = o->reader->stepTiles(last);
    const std::vector<std::uint32_t>* phases[] = {&expected.computeCycles, &expected.exchangeCycles,
                                                  &expected.syncCycles};
    for (int p = 0; p < 3; ++p) {
        auto data = details->bars(p)->data();
        QCOMPARE(data->size(), static_cast<int>(tiles));
        for (std::uint32_t t = 0; t < tiles; ++t) {
            QCOMPARE(data->at(static_cast<int>(t))->key, static_cast<double>(t));
            QCOMPARE(data->at(static_cast<int>(t))->value, static_cast<double>((*phases[p])[t]));
        }
    }
    QVERIFY(pane->strip()->selected().valid);
    grab(pane, "execution-" + workload + "-selected.png");
}

void TestExecutionPane::selectionFromElsewhereRevealsTheStep() {
    QFETCH(QString, workload);
    auto o = open(workload);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    // Zoom on the first step, then select (as another pane would) a step
    // that does not run in view.
    const record::StepExecutionRecord& first = o->steps.front();
    pane->viewport()->setVisible(static_cast<double>(first.startCycle),
                                 static_cast<double>(first.startCycle + first.cycles));
    settle(pane);
    const TimeMapping& m = pane->viewport()->time();
    auto inView = [&](record::StepId programStep) {
        for (const auto& e : o->steps) {
            if (e.programStep == programStep && static_cast<double>(e.startCycle) < m.end() &&
                static_cast<double>(e.startCycle + e.cycles) > m.start()) {
                return true;
            }
        }
        return false;
    };
    std::uint32_t target = record::kNone;
    for (auto it = o->steps.rbegin(); it != o->steps.rend(); ++it) {
        if (!inView(it->programStep)) {
            target = it->programStep.value();
            break;
        }
    }
    QVERIFY(target != record::kNone);
    o->selection->setStep(record::StepId{target});
    QTRY_VERIFY_WITH_TIMEOUT(inView(record::StepId{target}), 10000);
    settle(pane);
    QCOMPARE(pane->details()->step(), record::StepId{target});
}

void TestExecutionPane::stepsTableAndExports() {
    auto o = open("mlp-train");
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    // Zoom on the middle half: the table lists the steps overlapping it.
    const TimeMapping& m = pane->viewport()->time();
    pane->viewport()->setVisible(m.start() + m.span() / 4, m.end() - m.span() / 4);
    settle(pane);
    pane->refreshStepsTable();
    ExecutedStepsModel* model = pane->stepsModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Rows: the executions overlapping the range, by the reader's executed
    // steps (columns: tst_executed_steps_model, on a hand-built report).
    std::vector<std::uint64_t> expected, shown;
    for (const auto& e : o->steps) {
        if (static_cast<double>(e.startCycle) < m.end() &&
            static_cast<double>(e.startCycle + e.cycles) > m.start()) {
            expected.push_back(e.sequence);
        }
    }
    QVERIFY(!expected.empty());
    for (int r = 0; r < model->rowCount(); ++r) {
        shown.push_back(model->index(r, ExecutedStepsModel::Sequence).data().toULongLong());
    }
    QCOMPARE(shown, expected);
    const QList<ExportTarget> targets = pane->exportTargets();
    QCOMPARE(targets.size(), 3);
    QCOMPARE(targets[0].name, QString("execution-timeline"));
    QCOMPARE(targets[0].widget, static_cast<QWidget*>(pane->timeline()));
    QCOMPARE(targets[1].widget, static_cast<QWidget*>(pane->flame()));
    QCOMPARE(targets[2].model, static_cast<QAbstractItemModel*>(model));
    const QDir out(TESSERA_TEST_OUTPUT_DIR);
    QString error;
    QVERIFY2(exportPng(targets[0].widget, out.filePath("execution-export-timeline.png"), &error),
             qPrintable(error));
    QVERIFY2(exportPdf(targets[1].widget, out.filePath("execution-export-flame.pdf"), &error),
             qPrintable(error));
    QVERIFY2(exportCsv(targets[2].model, out.filePath("execution-export-steps.csv"), &error),
             qPrintable(error));
    QFile csv(out.filePath("execution-export-steps.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), model->rowCount() + 1);
    QVERIFY(lines[0].startsWith("sequence,program step,name"));
}

void TestExecutionPane::darkPaletteAndTileRows() {
    auto o = open("stress");
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    pane->setPalette(darkPalette());
    settle(pane);
    grab(pane, "execution-stress-dark.png");
    // Open the tiles of one group (click its label): one row per tile.
    TimelineWidget* timeline = pane->timeline();
    const TimelineRow& group = timeline->layout().rows[3];
    QCOMPARE(group.kind, RowKind::Group);
    const std::uint32_t firstTile = group.firstTile, count = group.tileCount;
    QTest::mouseClick(timeline, Qt::LeftButton, {},
                      QPoint(20, timeline->plotRect().top() + group.y + group.height / 2));
    QCOMPARE(pane->viewport()->tileFirst(), firstTile);
    QCOMPARE(pane->viewport()->tileCount(), count);
    // Zoom on a few steps so each shows its phases per tile.
    const record::StepExecutionRecord& e = o->steps[o->steps.size() / 2];
    pane->viewport()->setVisible(static_cast<double>(e.startCycle),
                                 static_cast<double>(e.startCycle + 6 * e.cycles));
    settle(pane);
    QVERIFY(timeline->layout().tileRows);
    QCOMPARE(timeline->layout().rows.size(), std::size_t{count + 1});
    const TimelineFrame* f = timeline->frame();
    QVERIFY(f->hasTiles(firstTile, count));
    QVERIFY(!timeline->toolTipAt(QPoint(timeline->plotRect().center())).isEmpty());
    // A tile row's label selects the tile (for every pane).
    const TimelineRow& tileRow = timeline->layout().rows[5];
    QTest::mouseClick(timeline, Qt::LeftButton, {},
                      QPoint(20, timeline->plotRect().top() + tileRow.y + tileRow.height / 2));
    QCOMPARE(o->selection->tile(), record::TileId{firstTile + 4});
    const QImage image = grab(pane, "execution-stress-tiles-dark.png");
    // The plot background (the gap under the all-tiles row) follows the dark palette.
    const int gapY = timeline->plotRect().top() + timeline->layout().rows[0].height + kRowGapPx / 2;
    const QColor corner(
        image.pixel(timeline->mapTo(pane, QPoint(timeline->plotRect().left() + 2, gapY))));
    QVERIFY(corner.lightness() < 128);
}

// A drag past the threshold pans by the pixels moved (both views); a small
// wiggle is a click, not a pan; the wheel zooms about the pointer.
void TestExecutionPane::dragPansAndWheelZooms() {
    auto o = open("stress");
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    const TimeMapping& time = pane->viewport()->time();
    const record::StepExecutionRecord& e = o->steps[o->steps.size() / 2];
    pane->viewport()->setVisible(static_cast<double>(e.startCycle),
                                 static_cast<double>(e.startCycle + 40 * e.cycles));
    settle(pane);
    for (QWidget* view :
         {static_cast<QWidget*>(pane->timeline()), static_cast<QWidget*>(pane->flame())}) {
        const double start = time.start(), perPixel = time.span() / time.width();
        const QPoint from(view->width() / 2, view->height() / 2);
        QTest::mousePress(view, Qt::LeftButton, {}, from);
        QTest::mouseMove(view, from + QPoint(2, 0)); // under the threshold: no pan
        QCOMPARE(time.start(), start);
        QTest::mouseMove(view, from + QPoint(-60, 0));
        QTest::mouseRelease(view, Qt::LeftButton, {}, from + QPoint(-60, 0));
        // Dragging left shows later cycles: 60 px of them.
        QVERIFY2(
            std::abs(time.start() - (start + 60 * perPixel)) <= perPixel,
            qPrintable(
                QString("start %1, expected %2").arg(time.start()).arg(start + 60 * perPixel)));
        QCOMPARE(view->cursor().shape(), Qt::OpenHandCursor);
    }
    // One wheel notch up zooms in about the pointer: the cycle under it stays put.
    TimelineWidget* timeline = pane->timeline();
    const QPoint at(timeline->plotRect().left() + timeline->plotRect().width() / 3,
                    timeline->plotRect().center().y());
    const double span = time.span();
    const double under = timeline->cycleAtX(at.x());
    QWheelEvent wheel(at, timeline->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, {},
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(timeline, &wheel);
    QVERIFY(time.span() < span * 0.9);
    QVERIFY(std::abs(timeline->cycleAtX(at.x()) - under) <= time.span() / time.width() * 1.5);
    // Headless screenshots wait for isReady(): false while a far pan's data is fetched.
    settle(pane);
    QVERIFY(pane->isReady());
    pane->viewport()->dragBy(-20 * time.width());
    QVERIFY(!pane->isReady());
    settle(pane);
    QVERIFY(pane->isReady());
}

// 20,000 executed steps on 1,472 tiles: the search's executions equal those
// counted here from the reader's steps, jumping reaches them in order, and a
// repaint with thousands of matches stays bounded by the pixels (its cells
// and time compared with a repaint without the search, same process).
void TestExecutionPane::searchOnTheStressReport() {
    auto o = open("stress");
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    const ReportData& data = *o->report.data;
    // The name of the step executed in the middle of the run.
    const reports::ProgramStepEntry* middle = data.step(o->steps[o->steps.size() / 2].programStep);
    QVERIFY(middle);
    const QString text = QString::fromStdString(
        !middle->name.empty() ? middle->name : data.computeSetName(middle->computeSet));
    QVERIFY(!text.isEmpty());
    auto named = [&](const std::string& s) {
        return QString::fromStdString(s).contains(text, Qt::CaseInsensitive);
    };
    std::vector<std::uint64_t> expected;
    for (const auto& e : o->steps) {
        const reports::ProgramStepEntry* s = data.step(e.programStep);
        const record::ProgramNodeRecord* op =
            !s->operation.isNone() ? data.node(s->operation) : nullptr;
        if (named(s->name) ||
            (!s->computeSet.isNone() && named(data.computeSetName(s->computeSet))) ||
            (op && named(op->name))) {
            expected.push_back(e.sequence);
        }
    }
    QVERIFY(expected.size() > 100);
    pane->setSearchText(text);
    QTRY_VERIFY_WITH_TIMEOUT(!pane->isSearching(), 30000);
    const StepMatches* m = pane->searchMatches();
    QVERIFY(m);
    QCOMPARE(m->total, expected.size());
    QCOMPARE(m->found.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(m->found[i].sequence, expected[i]);
    }
    // What the dimming costs is a benchmark (tessera-bench --only views:
    // views.execution_stress_N.redraw_with_search), not a timed test.
    grab(pane, "execution-stress-search.png");
    pane->findNext();
    QCOMPARE(pane->currentMatch(), 0);
    QCOMPARE(o->selection->step(), o->steps[expected[0]].programStep);
    pane->findPrevious();
    QCOMPARE(pane->currentMatch(), static_cast<int>(expected.size()) - 1);
    QCOMPARE(pane->matchLabel()->text(), QString("%1 of %1").arg(formatCount(expected.size())));
    const TimeMapping& time = pane->viewport()->time();
    const auto last = static_cast<double>(o->steps[expected.back()].startCycle);
    QVERIFY(time.start() <= last && last < time.end());
}

void TestExecutionPane::everyWorkloadRenders_data() {
    QTest::addColumn<QString>("workload");
    for (const char* w : {"elementwise", "reduce", "softmax", "conv2d", "attention",
                          "gather-scatter", "out-of-memory"}) {
        QTest::newRow(w) << QString(w);
    }
}

void TestExecutionPane::everyWorkloadRenders() {
    QFETCH(QString, workload);
    auto o = open(workload);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    settle(pane);
    grab(pane, "execution-" + workload + ".png");
    const TimelineFrame* f = pane->timeline()->frame();
    QVERIFY(f);
    QCOMPARE(f->steps.size(), o->steps.size()); // a 16-tile run fits one frame
    if (!o->steps.empty()) {
        QVERIFY(pane->timeline()->lastPaintStats().cells > 0);
        QVERIFY(pane->flame()->lastPaintStats().items > 0);
        // Clicking the middle of the longest step selects it.
        const record::StepExecutionRecord& e =
            *std::max_element(o->steps.begin(), o->steps.end(),
                              [](const auto& a, const auto& b) { return a.cycles < b.cycles; });
        const int x =
            static_cast<int>(expectedX(pane, static_cast<double>(e.startCycle) + e.cycles / 2.0));
        QTest::mouseClick(pane->timeline(), Qt::LeftButton, {},
                          QPoint(x, pane->timeline()->plotRect().top() + 5));
        QCOMPARE(o->selection->step(), e.programStep);
    }
}

QTEST_MAIN(TestExecutionPane)
#include "tst_execution_pane.moc"
