// tessera-cli capture WORKLOAD [--target T] [--set k=v]... [--target-param k=v]... -o FILE.tsr
#include "Commands.h"
#include "Output.h"
#include "Progress.h"
#include "WorkloadOptions.h"
#include "engine/core/Error.h"
#include "engine/target/Target.h"
#include "engine/workloads/Workload.h"
#include "reports/OutputFile.h"
#include "reports/ReportWriter.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

namespace tessera::cli {

namespace {

std::string humanBytes(std::uintmax_t n) {
    char text[32];
    if (n >= 1024 * 1024) {
        std::snprintf(text, sizeof text, "%.1f MiB", double(n) / (1024.0 * 1024.0));
    } else {
        std::snprintf(text, sizeof text, "%.1f KiB", double(n) / 1024.0);
    }
    return text;
}

int capture(const ParsedArgs& args) {
    const std::string name = args.positionals.front();
    const std::string output = args.value("--output");
    if (output.empty()) {
        throw UsageError("'capture' needs -o FILE.tsr (see 'tessera-cli capture --help')");
    }
    const bool quiet = args.has("--quiet");
    const std::vector<std::string> plugins = args.values("--plugin");
    reports::refuseToOverwriteInput(
        output, std::vector<std::filesystem::path>(plugins.begin(), plugins.end()));

    // Everything the user typed is checked before the engine starts, so a typo
    // costs no capture time and leaves no file behind.
    const WorkloadChoice choice = chooseWorkload(args, args.has("--allow-out-of-memory"));
    const workloads::Workload& workload = *choice.workload;
    const workloads::Parameters& params = choice.params;
    const std::map<std::string, std::string>& given = choice.given;
    const Target& target = choice.target;

    reports::WriterOptions writerOptions;
    writerOptions.toolVersion = TESSERA_VERSION;
    writerOptions.workload = workload.name();
    for (const auto& [key, value] : params.values()) {
        writerOptions.workloadParameters.emplace_back(key, value);
    }
    writerOptions.keepIncomplete = args.has("--keep-incomplete");
    reports::ReportWriter writer(output, writerOptions);
    ProgressRecorder progress(writer, "capture " + workload.name(),
                              !quiet && ProgressRecorder::stderrIsTerminal());

    EngineOptions engineOptions;
    engineOptions.recorder = &progress;
    engineOptions.allowOutOfMemory = args.has("--allow-out-of-memory");
    engineOptions.threads = choice.threads;

    workloads::RunResult result;
    try {
        result = workloads::run(workload, target, given, engineOptions);
    } catch (const OutOfMemoryError& e) {
        // As Poplar with allowOutOfMemory: the memory layout is the point of
        // the report, so write it, then fail.
        progress.stop();
        writer.finish();
        printError(std::string(e.what()) +
                   " (--allow-out-of-memory runs it anyway); report written to " + output);
        return kExitFailed;
    }
    progress.stop();
    writer.finish();

    if (!quiet) {
        const double ms = target.clockHz > 0 ? 1e3 * double(result.cycles) / target.clockHz : 0.0;
        print("captured %s on %s: %llu cycles in %llu steps (%.3f ms at %.3f GHz)\n",
              workload.name().c_str(), target.name.c_str(),
              static_cast<unsigned long long>(result.cycles),
              static_cast<unsigned long long>(progress.steps()), ms, target.clockHz / 1e9);
        print("verification: %s (max abs error %.3g)\n",
              result.verification.passed ? "passed" : "FAILED", result.verification.maxAbsError);
        std::error_code ec;
        const auto size = std::filesystem::file_size(output, ec);
        print("report: %s (%s)\n", output.c_str(), ec ? "?" : humanBytes(size).c_str());
        flushStandardOutput();
    }
    if (!result.verification.passed) {
        printError("verification failed for " + workload.name() + ": " +
                   result.verification.detail + " (report written to " + output + ")");
        return kExitFailed;
    }
    return kExitOk;
}

} // namespace

Command captureCommand() {
    CommandSpec spec;
    spec.name = "capture";
    spec.summary = "Run a workload on the simulated target, verify its result and write a report";
    spec.synopsis = "WORKLOAD [--target NAME] [--set NAME=VALUE]... -o FILE.tsr";
    spec.description =
        "The report is written next to FILE.tsr as FILE.tsr.partial and renamed into place\n"
        "when complete, so FILE.tsr is never half-written. Progress is shown on a terminal\n"
        "when the capture takes more than a second. Exit status 1 when the result fails\n"
        "verification or the program does not fit in tile memory (the report is still\n"
        "written). 'tessera-cli workloads' lists workloads and parameters with their ranges.\n\n"
        "Before anything is built, a parameter outside its range, a target parameter outside\n"
        "its range, or a program whose inputs and outputs alone need more tile memory than\n"
        "the target holds is refused (exit status 2); --allow-out-of-memory builds the last\n"
        "anyway and records the overflow. No workload may need more than 1 GiB of tile\n"
        "memory: the engine holds all of it in host memory.";
    spec.options = {
        {"--output", "-o", "FILE.tsr", "report to write (required)"},
        {"--allow-out-of-memory", "", "",
         "build and run even when the program does not fit tile memory"},
        {"--keep-incomplete", "", "", "if the capture fails, keep a report marked incomplete"},
        {"--quiet", "-q", "", "print no progress and no result lines (errors still go to stderr)"},
    };
    const auto shared = workloadOptionSpecs();
    spec.options.insert(spec.options.begin() + 1, shared.begin(), shared.end());
    spec.minPositionals = spec.maxPositionals = 1;
    spec.positionalNames = "a workload name (see 'tessera-cli workloads')";
    return {spec, capture};
}

} // namespace tessera::cli
