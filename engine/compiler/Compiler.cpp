#include "engine/compiler/Passes.h"

#include <future>

namespace tessera::compiler {

namespace {

// Below these sizes the conflict check takes less than starting a thread,
// whose stack and malloc arena are fresh memory (at 10^4 vertices a thread
// made compile 12 % slower and its peak memory 10 % larger:
// docs/BENCHMARKS.md, "Fresh memory"). A matMul 2048^3 graph has 39,540
// vertices but 518k connection entries, its check 19 ms of an 86 ms compile.
constexpr std::size_t kConcurrentChecksFrom = 65536;         // vertices
constexpr std::size_t kConcurrentChecksFromEntries = 262144; // connection entries

bool checkConcurrently(const Graph& graph) {
    return graph.vertices().size() >= kConcurrentChecksFrom ||
           graph.connectionEntries() >= kConcurrentChecksFromEntries;
}

void passesAfterValidation(const std::vector<program::Program>& programs, CompiledGraph& out) {
    flattenPrograms(programs, out);
    placeVariables(out);
    planExchanges(out);
    analyseLiveness(out);
    estimateCycles(out);
    layOutMemory(out);
    buildRecord(out);
}

} // namespace

// On a large graph the conflict check, which only reads the graph, runs on a
// second thread beside validation and every later pass (they read the graph
// too and write only `out`). Errors are reported as if the passes ran one
// after the other: a validation error first, then a conflict, then what a
// later pass found (an out-of-memory verdict, a cycle estimator's error).
CompiledGraph compile(const Graph& graph, const std::vector<program::Program>& programs) {
    CompiledGraph out;
    out.graph = &graph;
    if (!checkConcurrently(graph)) {
        validateGraph(graph);
        checkConflicts(graph);
        passesAfterValidation(programs, out);
        return out;
    }
    std::future<void> conflicts = std::async(std::launch::async, [&] { checkConflicts(graph); });
    try {
        validateGraph(graph);
    } catch (...) {
        conflicts.wait();
        throw;
    }
    try {
        passesAfterValidation(programs, out);
    } catch (...) {
        conflicts.get(); // a conflict, when there is one, is the error reported
        throw;
    }
    conflicts.get();
    return out;
}

} // namespace tessera::compiler
