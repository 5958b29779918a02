// tessera-cli export FILE.tsr --format chrome-trace|csv -o OUT [--max-events N]
#include "Commands.h"
#include "InputErrors.h"
#include "Output.h"
#include "reports/Export.h"
#include "reports/OutputFile.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <span>

namespace tessera::cli {

namespace {

constexpr std::uint64_t kMaxEvents = 100000000;

int exportChromeTrace(const reports::ReportReader& reader, const std::string& output,
                      const reports::ChromeTraceOptions& options) {
    // Written beside the output and renamed into place: never half a trace,
    // and the previous file intact when the disk is full.
    reports::AtomicOutputFile file(output);
    const reports::ChromeTraceResult result =
        reports::exportChromeTrace(reader, file.stream(), options);
    file.commit();
    const std::string tiles =
        result.tileLevel == 0
            ? "single steps"
            : "level-of-detail buckets of " +
                  std::to_string(1ull << (6 * std::min(result.tileLevel, 10u))) + " steps";
    print("wrote %s: %llu events, %u tile tracks of %u tile%s (%s)\n", output.c_str(),
          static_cast<unsigned long long>(result.events), result.tileTracks, result.tilesPerTrack,
          result.tilesPerTrack == 1 ? "" : "s", tiles.c_str());
    return kExitOk;
}

int exportCsv(const reports::ReportReader& reader, const std::string& output) {
    const reports::CsvResult result = reports::exportCsv(reader, output);
    print("wrote %zu tables to %s/:", result.files.size(), output.c_str());
    for (const auto& [file, rows] : result.files) {
        print(" %s (%llu rows)", file.filename().string().c_str(),
              static_cast<unsigned long long>(rows));
    }
    print("\n");
    return kExitOk;
}

int exportReport(const ParsedArgs& args) {
    const std::string format = args.value("--format");
    const std::string output = args.value("--output");
    if (format.empty()) {
        throw UsageError("'export' needs --format chrome-trace|csv (see 'tessera-cli export "
                         "--help')");
    }
    if (format != "chrome-trace" && format != "csv") {
        throw UsageError("unknown export format '" + format + "' (use chrome-trace or csv)");
    }
    if (output.empty()) {
        throw UsageError("'export' needs -o OUT (see 'tessera-cli export --help')");
    }
    if (args.has("--max-events") && format != "chrome-trace") {
        throw UsageError("option '--max-events' is for --format chrome-trace");
    }
    reports::ChromeTraceOptions options;
    if (args.has("--max-events")) {
        options.maxEvents = parseCount("--max-events", args.value("--max-events"), 1, kMaxEvents);
    }
    const std::filesystem::path input = args.positionals.front();
    if (format == "chrome-trace") {
        reports::refuseToOverwriteInput(output, std::span(&input, 1));
    }
    try {
        const reports::ReportReader reader(input);
        return format == "csv" ? exportCsv(reader, output)
                               : exportChromeTrace(reader, output, options);
    } catch (const reports::ReportError& e) { // a write error names the output instead
        throw reports::ReportError(namingInput(e.what(), input.string(), {}, output));
    }
}

} // namespace

Command exportCommand() {
    CommandSpec spec;
    spec.name = "export";
    spec.summary = "Export a report as a Chrome trace (Perfetto, chrome://tracing) or CSV tables";
    spec.synopsis = "FILE.tsr --format chrome-trace|csv -o OUT [--max-events N]";
    spec.description =
        "chrome-trace writes OUT as Trace Event Format JSON: a track of program steps (all\n"
        "tiles), one track per tile (targets of up to 64 tiles) or per group of 16 tiles,\n"
        "with each tile's sync, exchange and compute phases of every executed step as slices\n"
        "(imbalance shows as sync), and a counter of not-always-live memory. Times are in\n"
        "microseconds at the target's clock. When single steps would exceed --max-events\n"
        "(default 500000), tracks show level-of-detail buckets of 64^k steps instead.\n\n"
        "csv writes the directory OUT (created if needed) with tiles.csv, variables.csv,\n"
        "compute_sets.csv, program_steps.csv, executed_steps.csv and runs.csv, each with a\n"
        "header row. docs/report-format.md lists the columns.\n\n"
        "Every file is written beside its final name and renamed into place when complete:\n"
        "a failure (\"disk full\") leaves the previous files as they were. OUT may not be\n"
        "the report itself (compared by file identity, so links count too).";
    spec.options = {
        {"--format", "", "FORMAT", "chrome-trace or csv (required)"},
        {"--output", "-o", "OUT", "the trace file, or the CSV directory (required)"},
        {"--max-events", "", "N",
         "bound on trace events (chrome-trace; 1 to 100000000, default 500000)"},
    };
    spec.minPositionals = spec.maxPositionals = 1;
    spec.positionalNames = "a report file (FILE.tsr)";
    return {spec, exportReport};
}

} // namespace tessera::cli
