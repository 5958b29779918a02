#pragma once
// A report's headline figures and their text and JSON forms (the output of
// `tessera-cli summary`). Cycle totals are over all runs: sums of the executed
// steps' phase cycles.
#include <cstdint>
#include <optional>
#include <string>

namespace tessera::reports {

struct Summary {
    struct Report {
        std::string path;
        std::string schemaVersion;
        bool complete = false;
        std::string createdAt;
        std::string toolVersion;
        std::string workload;
    } report;
    struct Target {
        std::string name;
        std::uint32_t ipus = 0;
        std::uint32_t tiles = 0;
        std::uint64_t bytesPerTile = 0;
        double clockHz = 0;
    } target;
    struct Cycles {
        std::uint64_t total = 0;
        std::uint64_t compute = 0;
        std::uint64_t exchange = 0;
        std::uint64_t sync = 0;
    } cycles;
    struct Memory {
        std::uint64_t totalBytes = 0; // all tiles, including gaps
        std::uint64_t peakTileBytes = 0;
        std::uint32_t peakTile = 0;
        bool outOfMemory = false;
        std::uint32_t tilesOverCapacity = 0;
    } memory;
    struct Program {
        std::uint64_t steps = 0;
        std::uint64_t computeSets = 0;
        std::uint64_t vertices = 0;
        std::uint64_t variables = 0;
    } program;
    struct Runs {
        std::uint64_t count = 0;
        std::uint64_t executedSteps = 0;
        std::uint64_t incomplete = 0; // runs that stopped early
    } runs;
    struct Verification {
        bool passed = false;
        double maxAbsError = 0;
        std::string detail;
    };
    std::optional<Verification> verification; // none when nothing was verified
};

std::string formatText(const Summary& summary);
// A JSON object with (at least) the keys target, cycles, memory, program,
// verification; docs/report-format.md lists them.
std::string formatJson(const Summary& summary);

} // namespace tessera::reports
