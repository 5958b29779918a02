// tessera-cli summary FILE.tsr [--json]
#include "Commands.h"
#include "InputErrors.h"
#include "Output.h"
#include "reports/ReportReader.h"

#include <cstdio>

namespace tessera::cli {

Command summaryCommand() {
    CommandSpec spec;
    spec.name = "summary";
    spec.summary = "Print a report's summary: target, cycles, memory, program, verification";
    spec.synopsis = "FILE.tsr [--json]";
    spec.description =
        "The text form is for people. --json prints an object with (at least) the keys\n"
        "target {name, tiles, bytes_per_tile, clock_hz}, cycles {total, compute, exchange,\n"
        "sync}, memory {total_bytes, peak_tile_bytes, peak_tile, out_of_memory},\n"
        "program {steps, compute_sets, vertices, variables} and verification {passed,\n"
        "max_abs_error}; docs/report-format.md explains each figure.";
    spec.options = {{"--json", "", "", "print JSON instead of text"}};
    spec.minPositionals = spec.maxPositionals = 1;
    spec.positionalNames = "a report file (FILE.tsr)";
    return {spec, [](const ParsedArgs& args) {
                const std::string& path = args.positionals.front();
                const reports::Summary summary = readingInput(path, {}, [&] {
                    const reports::ReportReader reader(path);
                    return reader.summary();
                });
                const std::string text = args.has("--json") ? reports::formatJson(summary)
                                                            : reports::formatText(summary);
                printText(text);
                return kExitOk;
            }};
}

} // namespace tessera::cli
