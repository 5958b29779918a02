// Where compile time goes, pass by pass, for a workload's graph (issue 17):
// the graph build and each pass of compile(), in compile()'s order, against
// the whole build and compile. Repeated in one process, so the best of the
// repeats is what a pass costs on memory the process has written before.
#include "Bench.h"
#include "engine/compiler/Passes.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/Workload.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <string>

namespace tessera::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::array kPasses = {"build",     "validate", "conflicts", "flatten", "place",
                                "exchanges", "liveness", "cycles",    "layout",  "record"};
using PassSeconds = std::array<double, kPasses.size()>;

// One build and compile, each pass timed; compile()'s order (Compiler.cpp),
// one step per name of kPasses.
PassSeconds timedCompile(const workloads::Workload& workload,
                         const std::map<std::string, std::string>& params) {
    Graph graph(Target::preset("mk2"));
    workloads::Built built;
    compiler::CompiledGraph out;
    out.graph = &graph;
    const std::array<std::function<void()>, kPasses.size()> passes = {
        [&] {
            built = workload.build(graph, workloads::Parameters(workload.parameters(), params));
        },
        [&] { compiler::validateGraph(graph); },
        [&] { compiler::checkConflicts(graph); },
        [&] { compiler::flattenPrograms(built.programs, out); },
        [&] { compiler::placeVariables(out); },
        [&] { compiler::planExchanges(out); },
        [&] { compiler::analyseLiveness(out); },
        [&] { compiler::estimateCycles(out); },
        [&] { compiler::layOutMemory(out); },
        [&] { compiler::buildRecord(out); }};
    PassSeconds seconds{};
    for (std::size_t i = 0; i < passes.size(); ++i) {
        const auto t = Clock::now();
        passes[i]();
        seconds[i] = std::chrono::duration<double>(Clock::now() - t).count();
    }
    return seconds;
}

void passBenchmark(const std::string& workload, const std::map<std::string, std::string>& params,
                   int repeats) {
    const workloads::Workload& w = workloads::find(workload);
    PassSeconds best;
    best.fill(1e30);
    double bestTotal = 1e30;
    for (int r = 0; r < repeats; ++r) {
        const PassSeconds s = timedCompile(w, params);
        double total = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            best[i] = std::min(best[i], s[i]);
            total += s[i];
        }
        bestTotal = std::min(bestTotal, total);
    }
    std::string name = "passes." + workload + "_mk2";
    for (const auto& [key, value] : params) {
        name += "_" + key + "=" + value;
    }
    for (std::size_t i = 0; i < kPasses.size(); ++i) {
        printResult(name + "." + kPasses[i], best[i], "s", bestTotal);
    }
    printResult(name + ".build_and_compile", bestTotal, "s", bestTotal);
}

} // namespace

void runPassBenchmarks(const Options& options) {
    if (options.quick) {
        passBenchmark("matmul", {{"m", "64"}, {"k", "64"}, {"n", "64"}}, 2);
        return;
    }
    passBenchmark("matmul", {{"m", "2048"}, {"k", "2048"}, {"n", "2048"}}, 5);
    passBenchmark("attention", {{"sequence", "1024"}, {"dmodel", "1024"}}, 3);
}

} // namespace tessera::bench
