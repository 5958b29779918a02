// libFuzzer target for the GUI's data path: any bytes, opened as the window
// opens a report, must load (whole or in part, with its problems listed) or
// fail with one ReportError line; every read a pane then makes must succeed
// or throw ReportError. Never a crash, a hang, a leak or another exception.
//
// It drives the very sources the panes run (views/data, views/models,
// views/panes/execution and liveness; they are plain C++ and Qt Gui, no
// widgets): loadReportData and ReportSource as the window loads, the program
// statistics of the Program pane, the liveness curves, the execution pane's
// step index and timeline frames at several zooms (rendered offscreen into an
// image, as the timeline paints them) and its step search, and the compare
// mode's loading of a report against itself.
//
// Built with the `fuzz` preset (clang, -fsanitize=fuzzer,address,undefined);
// tests/fuzz/CMakeLists.txt runs it for a bounded time from the seed corpus
// and the regression seeds.
#include "reports/ReportError.h"
#include "views/compare/CompareData.h"
#include "views/data/ReportData.h"
#include "views/data/ReportSource.h"
#include "views/models/ProgramStats.h"
#include "views/panes/execution/FrameBuilder.h"
#include "views/panes/execution/RowLayout.h"
#include "views/panes/execution/TimeMapping.h"
#include "views/panes/execution/TimelineRenderer.h"
#include "views/panes/liveness/LivenessSeries.h"

#include <unistd.h>

#include <QImage>
#include <QString>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

namespace {

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::execution;

const std::filesystem::path& inputPath() {
    static const std::filesystem::path path = [] {
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove(inputPath(), ec);
        });
        return std::filesystem::temp_directory_path() /
               ("tessera-fuzz-view-" + std::to_string(::getpid()) + ".tsr");
    }();
    return path;
}

// Runs one read the way a pane does: a ReportError is the pane's message,
// anything else escapes and fails the fuzzer.
template <class Read>
void read(Read&& r) {
    try {
        r();
    } catch (const reports::ReportError&) {
    }
}

// The timeline of one run: its index, then frames of the whole run, of a
// narrow slice (single steps) and with tile rows, each rendered.
void timeline(const std::shared_ptr<const ReportData>& data,
              const std::shared_ptr<ReportSource>& source, const reports::RunEntry& run) {
    FrameBuilder builder(data, source);
    const auto index = builder.index(run.id);
    const double begin = static_cast<double>(index->firstCycle());
    const double end = std::max(static_cast<double>(index->endCycle()), begin + 1);
    TimeMapping mapping;
    mapping.setBounds(begin, end);
    mapping.setWidth(400);
    const TimelineRequest whole{run.id, begin, end, 400, false, 0, 0};
    const TimelineRequest narrow{run.id, begin, begin + (end - begin) / 200, 400, false, 0, 0};
    const TimelineRequest tiles{run.id, begin, end, 400, true, 0, 8};
    for (const TimelineRequest& request : {whole, narrow, tiles}) {
        const auto frame = builder.build(request);
        mapping.setVisible(request.start, request.end);
        const RowLayout layout = layoutRows(data->target.numTiles, frame->groupTiles,
                                            request.tileFirst, request.tileCount, 200);
        QImage image(400, std::max(layout.height, 1), QImage::Format_RGB32);
        (void)renderRows(image, 1.0, *frame, mapping, layout,
                         TimelineColors::fromPalette(0xffffffff));
    }
    if (!data->programSteps.empty()) {
        (void)builder.findExecution(run.id, data->programSteps.front().id, 0);
    }
}

void exercise(const std::filesystem::path& path) {
    const auto data = loadReportData(path);
    const auto source = std::make_shared<ReportSource>(path);
    // Per-tile arrays are numTiles long: keep the reads to what a file of
    // this size can honestly describe (as fuzz_report_reader does).
    const bool sane = data->target.numTiles <= 4096 && data->programSteps.size() <= 4096;
    read([&] { (void)computeProgramStats(*data, countStepExecutions(*data, *source)); });
    (void)computeProgramStats(*data, {});
    if (sane) {
        const LivenessSteps steps = makeLivenessSteps(*data);
        read([&] { (void)notAlwaysLiveCurve(steps, *source, -1); });
        read([&] { (void)notAlwaysLiveCurve(steps, *source, 0); });
        for (std::size_t i = 0; i < steps.size() && i < 4; ++i) {
            read([&] { (void)source->liveVariables(steps.stepIds[i]); });
        }
        read([&] { (void)source->memoryBlocks(record::TileId{data->summary.memory.peakTile}); });
        for (std::size_t r = 0; r < data->runs.size() && r < 2; ++r) {
            read([&] { timeline(data, source, data->runs[r]); });
        }
        const QString p = QString::fromStdString(path.string());
        read([&] { (void)loadComparison(p, p); });
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    {
        std::ofstream out(inputPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes), static_cast<std::streamsize>(size));
    }
    read([] { exercise(inputPath()); });
    return 0;
}
