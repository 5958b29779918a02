// libFuzzer target for the report reader: any bytes, opened as a report, must
// either read or fail with one ReportError line; never crash, hang, leak or
// throw anything else. Beyond opening, it runs the queries the panes and the
// CLI use, and (for inputs of sane size) the comparison core and the Chrome
// trace exporter on the report against itself.
//
// Built only with clang (-fsanitize=fuzzer,address,undefined) by the `fuzz`
// preset; tests/fuzz/CMakeLists.txt runs it for a bounded time from a seed
// corpus of real reports and garbage.
#include "reports/Compare.h"
#include "reports/CompareFormat.h"
#include "reports/Export.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <streambuf>

namespace {

using namespace tessera::reports;

// A stream that discards everything (the exporter's output is not checked).
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// One scratch file per fuzzing process, removed at exit.
const std::filesystem::path& inputPath() {
    static const std::filesystem::path path = [] {
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove(inputPath(), ec);
        });
        return std::filesystem::temp_directory_path() /
               ("tessera-fuzz-" + std::to_string(::getpid()) + ".tsr");
    }();
    return path;
}

void exercise(const ReportReader& reader) {
    (void)reader.info();
    const TargetInfo& target = reader.target();
    const Summary summary = reader.summary();
    (void)formatText(summary);
    (void)formatJson(summary);
    (void)reader.memoryCategories();
    (void)reader.codelets();
    const auto variables = reader.variables();
    for (std::size_t i = 0; i < variables.size() && i < 8; ++i) {
        (void)reader.variableTiles(variables[i].id);
    }
    const auto computeSets = reader.computeSets();
    (void)reader.vertexCounts();
    if (!computeSets.empty()) {
        (void)reader.vertexCounts(computeSets.front().id);
    }
    (void)reader.tileMemory();
    (void)reader.memoryBlocks(tessera::record::TileId{0u});
    (void)reader.programNodes();
    const auto steps = reader.programSteps();
    (void)reader.verifications();
    // Per-tile arrays are numTiles long: keep the deeper queries to sizes a
    // report of this length can honestly describe.
    const bool sane = target.numTiles <= 65536 && steps.size() <= 4096;
    for (std::size_t i = 0; sane && i < steps.size() && i < 8; ++i) {
        (void)reader.stepTiles(steps[i].id);
        (void)reader.liveVariables(steps[i].id);
    }
    const auto runs = reader.runs();
    for (std::size_t r = 0; r < runs.size() && r < 4; ++r) {
        (void)reader.executedSteps(runs[r].id, 0, 256);
        const auto levels = reader.lodLevels(runs[r].id);
        for (std::size_t l = 1; l < levels.size() && l < 6; ++l) {
            (void)reader.lodBuckets(runs[r].id, levels[l].level, 0, 1 << 20);
        }
        if (sane) {
            (void)reader.lodBuckets(runs[r].id, 0, 0, 64);
        }
    }
    if (sane) {
        const ReportDiff diff = compare(Baseline(reader), Comparison(reader));
        (void)formatDiffText(diff);
        (void)formatDiffJson(diff);
        NullBuffer buffer;
        std::ostream sink(&buffer);
        (void)exportChromeTrace(reader, sink, {.maxEvents = 20000});
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    {
        std::ofstream out(inputPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        const ReportReader reader(inputPath());
        exercise(reader);
    } catch (const ReportError&) {
        // The one acceptable way to fail: a clear error line.
    }
    return 0;
}
