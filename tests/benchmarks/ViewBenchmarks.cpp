// The Execution pane at scale, rendered offscreen: a report of 1,472 tiles x
// 20,000 executed steps (the stress workload on mk2). Measures the time to
// the first complete frame (load, fetch, paint), then the redraws while
// panning and zooming (each drawn from the frame already held, as a user
// sees it before new data arrives, and again once it has), the fetches on
// the worker separately, the primitives painted per row, and the memory the
// pane holds against the report's size. The full run repeats it on a report
// of 200,000 steps (10x): the memory held must not grow with the report.
// Each size runs in a child process of its own, so one's heap does not hide
// the other's growth.
#include "Bench.h"
#include "engine/runtime/Engine.h"
#include "engine/target/Target.h"
#include "engine/workloads/Workload.h"
#include "reports/ReportWriter.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/ProgramPane.h"
#include "views/panes/execution/FlameWidget.h"
#include "views/panes/execution/SummaryStrip.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <sqlite3.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::bench {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

void capture(const std::string& path, const std::string& steps) {
    reports::WriterOptions options;
    options.workload = "stress";
    options.toolVersion = "bench";
    reports::ReportWriter writer(path, options);
    EngineOptions engineOptions;
    engineOptions.recorder = &writer;
    workloads::run(workloads::find("stress"), Target::preset("mk2"), {{"steps", steps}},
                   engineOptions);
    writer.finish();
}

// Runs the event loop until the pane has the data for its view.
double waitForData(views::ExecutionPane* pane) {
    const auto t0 = Clock::now();
    while (pane->isFetching()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        if (since(t0) > 120) {
            throw std::runtime_error("the execution pane never got its data");
        }
        QThread::usleep(200);
    }
    return since(t0);
}

// One redraw of what panning repaints: the timeline, the flame view and the strip.
double redraw(views::ExecutionPane* pane, QImage& timeline, QImage& flame, QImage& strip) {
    const std::pair<QWidget*, QImage*> parts[] = {
        {pane->timeline(), &timeline}, {pane->flame(), &flame}, {pane->strip(), &strip}};
    for (const auto& [widget, image] : parts) {
        if (image->size() != widget->size()) { // the whole widget, however the layout settled
            *image = QImage(widget->size(), QImage::Format_ARGB32_Premultiplied);
        }
    }
    // Best of three (the machine is noisy), as the other benchmarks.
    double best = 1e300;
    for (int repeat = 0; repeat < 3; ++repeat) {
        const auto t0 = Clock::now();
        for (const auto& [widget, image] : parts) {
            widget->render(image);
        }
        best = std::min(best, since(t0));
    }
    return best;
}

void executionPaneAtScale(const std::string& steps, bool quick) {
    static int argc = 1;
    static char name[] = "tessera-bench";
    static char* argv[] = {name, nullptr};
    QApplication app(argc, argv);

    const std::string label = "views.execution_stress_" + steps;
    QTemporaryDir dir;
    const std::string path = dir.filePath("stress.tsr").toStdString();
    capture(path, steps);
    const double reportBytes = static_cast<double>(QFileInfo(QString::fromStdString(path)).size());

    // The pane shown and painted once without a report, so Qt's own start-up
    // (fonts, styles) counts neither in the time nor in the memory.
    views::Selection selection;
    views::ExecutionPane pane;
    pane.resize(1400, 900);
    pane.setSelection(&selection);
    pane.show();
    QImage whole(pane.size(), QImage::Format_ARGB32_Premultiplied);
    pane.render(&whole);
    QCoreApplication::processEvents();
    QImage timeline(pane.timeline()->size(), QImage::Format_ARGB32_Premultiplied);
    QImage flame(pane.flame()->size(), QImage::Format_ARGB32_Premultiplied);
    QImage strip(pane.strip()->size(), QImage::Format_ARGB32_Premultiplied);
    timeline.fill(0);
    flame.fill(0);
    strip.fill(0);

    // First complete frame: load, build the first frame on the worker, paint the whole pane.
    const std::size_t residentBefore = currentResidentBytes();
    const auto t0 = Clock::now();
    views::LoadedReport report = views::ReportLoader::loadNow(QString::fromStdString(path));
    if (!report.error.isEmpty()) {
        throw std::runtime_error(report.error.toStdString());
    }
    pane.setReport(report.data, report.source);
    waitForData(&pane);
    pane.render(&whole);
    printResult(label + ".first_frame", since(t0), "s", 2.0);

    // Pans and zooms about fixed pseudo-random points: zoom in (through
    // every level of detail), pan, zoom out, and back to the whole run.
    const int operations = quick ? 32 : 320;
    views::execution::Viewport* viewport = pane.viewport();
    const double width = viewport->time().width();
    std::uint32_t seed = 12345;
    auto next = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<double>(seed >> 8) / static_cast<double>(1u << 24);
    };
    double redrawSum = 0, redrawMax = 0, fetchSum = 0, fetchMax = 0;
    int redraws = 0, fetches = 0, maxCells = 0;
    for (int i = 0; i < operations; ++i) {
        switch (i % 16) {
        case 3:
            viewport->dragBy(1.5 * width); // beyond the frame's margin: a fetch
            break;
        case 7:
            viewport->dragBy(-0.7 * width); // inside it: none
            break;
        case 12:
            viewport->dragBy((next() - 0.5) * 4 * width);
            break;
        case 13:
        case 14:
            viewport->zoomAbout(next() * width, 1 / 8.0);
            break;
        case 15:
            viewport->reset();
            break;
        default: // ten zooms in by 2: from the whole run down to a few steps
            viewport->zoomAbout(next() * width, 2);
        }
        // The redraw right away, from the frame held; then once the data for
        // the new view has arrived (when it had to be fetched).
        const double now = redraw(&pane, timeline, flame, strip);
        redrawSum += now;
        redrawMax = std::max(redrawMax, now);
        ++redraws;
        if (pane.isFetching()) {
            const double fetched = waitForData(&pane);
            fetchSum += fetched;
            fetchMax = std::max(fetchMax, fetched);
            ++fetches;
            const double after = redraw(&pane, timeline, flame, strip);
            redrawSum += after;
            redrawMax = std::max(redrawMax, after);
            ++redraws;
        }
        maxCells = std::max(maxCells, pane.timeline()->lastPaintStats().cells);
    }
    // Searching dims what does not match: the redraw of the whole run with a
    // search (a step name from the middle of the run) against the same view
    // without one.
    auto meanRedraw = [&] {
        double sum = 0;
        for (int i = 0; i < 5; ++i) {
            sum += redraw(&pane, timeline, flame, strip);
        }
        return sum / 5;
    };
    auto settle = [&](const QString& text) {
        pane.setSearchText(text);
        while (pane.isSearching()) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
        }
        viewport->reset();
        waitForData(&pane);
        redraw(&pane, timeline, flame, strip); // the first after a change lays out
    };
    const auto& programSteps = report.data->programSteps;
    settle(QString::fromStdString(programSteps[programSteps.size() / 2].name));
    const double searched = meanRedraw();
    settle(QString());
    printResult(label + ".redraw_with_search", searched, "s", meanRedraw());

    printResult(label + ".redraw_mean", redrawSum / redraws, "s", 0.016);
    printResult(label + ".redraw_max", redrawMax, "s", 0.016);
    printResult(label + ".fetch_mean", fetches ? fetchSum / fetches : 0, "s", 0.1);
    printResult(label + ".fetch_max", fetchMax, "s", 0.1);
    printResult(label + ".cells_per_row_max", maxCells, "cells", width / 2.5);
    const double resident =
        static_cast<double>(currentResidentBytes()) - static_cast<double>(residentBefore);
    printResult(label + ".resident_growth", std::max(0.0, resident), "bytes", reportBytes);
}

// A synthetic report written through ReportWriter (the engine would take
// hours for 10M steps): 64 tiles, 16 operations (Blocks) of 4 Execute steps
// each, and one run cycling through the 64 program steps `steps` times in all.
void writeSyntheticReport(const std::string& path, std::uint64_t steps) {
    constexpr std::uint32_t kTiles = 64, kOperations = 16, kStepsPerOperation = 4;
    record::CompiledRecord c;
    c.target.name = "synthetic";
    c.target.tilesPerIPU = kTiles;
    c.target.bytesPerTile = 624 * 1024;
    c.target.clockHz = 1.33e9;
    c.programNodes.push_back({record::ProgramNodeId{0u}, record::ProgramNodeId::none(), 0,
                              record::ProgramKind::Sequence, "main"});
    for (std::uint32_t op = 0; op < kOperations; ++op) {
        const auto opNode = static_cast<std::uint32_t>(c.programNodes.size());
        c.programNodes.push_back({record::ProgramNodeId{opNode}, record::ProgramNodeId{0u}, 0,
                                  record::ProgramKind::Block, "operation" + std::to_string(op)});
        for (std::uint32_t k = 0; k < kStepsPerOperation; ++k) {
            const auto id = static_cast<std::uint32_t>(c.programSteps.size());
            const auto node = static_cast<std::uint32_t>(c.programNodes.size());
            record::ProgramNodeRecord n{record::ProgramNodeId{node},
                                        record::ProgramNodeId{opNode},
                                        0,
                                        record::ProgramKind::Execute,
                                        {}};
            n.step = record::StepId{static_cast<std::uint32_t>(id)};
            c.programNodes.push_back(n);
            record::ProgramStepRecord p;
            p.id = record::StepId{static_cast<std::uint32_t>(id)};
            p.node = record::ProgramNodeId{static_cast<std::uint32_t>(node)};
            p.name = "op" + std::to_string(op) + "/step" + std::to_string(k);
            p.operation = record::ProgramNodeId{static_cast<std::uint32_t>(opNode)};
            for (std::uint32_t t = 0; t < kTiles; ++t) {
                p.computeCycles.push_back(100 + (t * 7 + id * 13) % 50);
                p.exchangeCycles.push_back(20 + (t + id) % 10);
                p.notAlwaysLiveBytes.push_back(1024 * ((t + id) % 8));
            }
            p.computePhaseCycles = 150;
            p.exchangePhaseCycles = 30;
            p.syncCycles = 20;
            p.totalCycles = 200;
            c.programSteps.push_back(std::move(p));
        }
    }
    reports::ReportWriter writer(path);
    writer.onCompiled(c);
    writer.onRunBegin({0, 0, 0});
    const auto programSteps = static_cast<std::uint32_t>(c.programSteps.size());
    for (std::uint64_t seq = 0; seq < steps; ++seq) {
        writer.onStep({0, seq, record::StepId{static_cast<std::uint32_t>(seq % programSteps)},
                       seq * 200, 200});
    }
    writer.onRunEnd({0, steps, steps * 200, steps * 150, steps * 30, steps * 20, true, {}});
    writer.finish();
}

// What opening did before schema 1.2 (issue 17): count every executed step
// (a GROUP BY over executed_steps), on the GUI thread.
double groupByScanSeconds(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* q = nullptr;
    const auto t0 = Clock::now();
    sqlite3_prepare_v2(db,
                       "SELECT program_step, count(*) FROM executed_steps GROUP BY program_step",
                       -1, &q, nullptr);
    std::uint64_t total = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        total += static_cast<std::uint64_t>(sqlite3_column_int64(q, 1));
    }
    const double seconds = since(t0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    if (total == 0) {
        throw std::runtime_error("the synthetic report has no executed steps");
    }
    return seconds;
}

// Opening a report as the GUI does: the loader (on this thread), then the
// Program pane's statistics and its first frame painted. Budget: 1 s.
void programPaneOpen(std::uint64_t steps, const std::string& label) {
    static int argc = 1;
    static char name[] = "tessera-bench";
    static char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const std::string path = dir.filePath("synthetic.tsr").toStdString();
    const auto written = Clock::now();
    writeSyntheticReport(path, steps);
    const double writeSeconds = since(written);

    views::ProgramPane warm; // Qt's own start-up is not the report's
    warm.resize(1400, 900);
    QImage image(warm.size(), QImage::Format_ARGB32_Premultiplied);
    warm.render(&image);

    const auto t0 = Clock::now();
    views::LoadedReport report = views::ReportLoader::loadNow(QString::fromStdString(path));
    if (!report.error.isEmpty()) {
        throw std::runtime_error(report.error.toStdString());
    }
    views::ProgramPane pane;
    pane.resize(1400, 900);
    pane.setReport(report.data, report.source);
    while (!pane.isReady()) { // the program's figures are computed on a worker
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    pane.render(&image);
    const double open = since(t0);
    std::uint64_t executions = 0;
    for (const auto& [step, count] : report.data->stepExecutions) {
        executions += count;
    }
    if (executions != steps) {
        throw std::runtime_error("the opened report counts " + std::to_string(executions) +
                                 " executions, not " + std::to_string(steps));
    }
    printResult(label + ".first_frame", open, "s", 1.0);
    printResult(label + ".group_by_scan", groupByScanSeconds(path), "s", 1.0);
    std::cerr << label << ": the synthetic report was written in " << writeSeconds << " s\n";
}

} // namespace

void runViewBenchmarks(const Options& options) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    const std::vector<std::string> sizes = options.quick
                                               ? std::vector<std::string>{"2000"}
                                               : std::vector<std::string>{"20000", "200000"};
    for (const std::string& steps : sizes) {
        peakResidentOfChild([&] { executionPaneAtScale(steps, options.quick); });
    }
    runOpenBenchmark(options);
}

void runOpenBenchmark(const Options& options) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // Issue 17: a 10M-step report opens in under a second (--quick: 100k steps).
    const std::uint64_t openSteps = options.quick ? 100'000 : 10'000'000;
    peakResidentOfChild([&] {
        programPaneOpen(openSteps,
                        options.quick ? "views.open_100k_steps" : "views.open_10M_steps");
    });
}

} // namespace tessera::bench
