#pragma once
// Shared helpers of tessera-bench: timing, peak memory, JSON lines.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace tessera::bench {

struct Options {
    bool quick = false;          // small sizes, for the smoke test
    std::size_t maxVertices = 0; // graph build benchmark: skip larger graphs (0: all)
    std::string match;           // engine benchmarks: only those whose name contains this
};

// Seconds taken by fn, best of `repeats` runs (the machine is noisy).
double bestSeconds(const std::function<void()>& fn, int repeats);
// Best seconds of `value` and of `reference`, taken in alternating rounds
// (best of two each), so a slow phase of a noisy machine meets both sides.
struct AlternatedSeconds {
    double value = 0, reference = 0;
};
AlternatedSeconds alternatedBestSeconds(const std::function<void()>& value,
                                        const std::function<void()>& reference, int rounds);
// The process's peak resident set so far, in bytes (VmHWM).
std::size_t peakResidentBytes();
std::size_t currentResidentBytes();
// Runs fn in a forked child and returns the child's peak resident bytes above
// its resident bytes at the start, so one measurement cannot see another's
// memory; the program's file-backed pages (code) count as the start. fn's
// output (stdout) is the child's and is kept.
std::size_t peakResidentOfChild(const std::function<void()>& fn);

void printResult(const std::string& name, double value, const std::string& unit, double reference);

void runEngineBenchmarks(const Options& options);
// Report write, capture and open benchmarks (ReportBenchmarks.cpp); run
// after the engine's by runEngineBenchmarks.
void runReportBenchmarks(const Options& options);
// Graph construction and compile per vertex (GraphBuildBenchmarks.cpp).
void runGraphBuildBenchmarks(const Options& options);
// Capture around the run (CaptureBenchmarks.cpp): whole captures' wall time,
// peak memory and phases, the out-of-memory verdict's time.
void runCaptureBenchmarks(const Options& options);
// Graph build and each compile pass of workload graphs, against the whole
// (PassBenchmarks.cpp).
void runPassBenchmarks(const Options& options);
// The model-fidelity microbenchmarks (docs/model-fidelity.md), run as the
// separate SDK program tessera-model-bench; 0 when it succeeded.
int runModelBenchmarks(const Options& options);
// Graph construction through the Poplar API, run as the separate SDK program
// tessera-sdk-build-bench (part of the build group); 0 when it succeeded.
int runSdkBuildBenchmarks(const Options& options);
// The panes rendered offscreen (GUI builds only; creates its QApplication).
void runViewBenchmarks(const Options& options);
// Opening a 10M-step report in the Program pane (part of the views group).
void runOpenBenchmark(const Options& options);

} // namespace tessera::bench
