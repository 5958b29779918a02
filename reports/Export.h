#pragma once
// Exporters: a report as a Chrome trace (Trace Event Format, JSON object form,
// opened by Perfetto and chrome://tracing) and as CSV tables. Both read
// through ReportReader only and stream: memory stays small however long the
// run. docs/report-format.md ("Exports") describes the output.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace tessera::reports {

class ReportReader;

struct ChromeTraceOptions {
    // Upper bound on the events written (slices and counter samples), so a
    // huge report gives a trace a viewer can open. Beyond it the tile tracks,
    // then the step track, use level-of-detail buckets instead of single
    // steps, and the memory counter is sampled.
    std::uint64_t maxEvents = 500'000;
    // Targets with at most this many tiles get one track per tile; larger
    // ones one track per LOD tile group (16 tiles).
    std::uint32_t perTileTracksUpTo = 64;
};

struct ChromeTraceResult {
    std::uint64_t events = 0; // every event written, metadata included
    std::uint64_t slices = 0;
    std::uint64_t counterSamples = 0;
    std::uint32_t tileTracks = 0;
    std::uint32_t tilesPerTrack = 1;
    // 0: one slice per executed step; k ≥ 1: one per LOD bucket of level k
    // (64^k steps).
    std::uint32_t tileLevel = 0;
    std::uint32_t stepLevel = 0;
    std::uint64_t counterStride = 1; // executed steps per memory counter sample
};

// Writes the trace to `out`. Throws ReportError for a broken report.
ChromeTraceResult exportChromeTrace(const ReportReader& reader, std::ostream& out,
                                    const ChromeTraceOptions& options = {});

struct CsvResult {
    std::vector<std::pair<std::filesystem::path, std::uint64_t>> files; // file, data rows
};

// Writes one CSV file per table into `directory` (created if missing,
// existing files of the same names replaced): tiles.csv, variables.csv,
// compute_sets.csv, program_steps.csv, executed_steps.csv, runs.csv.
// RFC 4180 quoting, a header row first. Throws ReportError.
CsvResult exportCsv(const ReportReader& reader, const std::filesystem::path& directory);

} // namespace tessera::reports
