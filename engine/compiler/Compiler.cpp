#include "engine/compiler/Passes.h"

#include <future>

namespace tessera::compiler {

namespace {

// Below this many vertices the checks take less than starting a thread,
// whose stack and malloc arena are fresh memory (at 10^4 vertices a thread
// made compile 12 % slower and its peak memory 10 % larger:
// docs/BENCHMARKS.md, "Fresh memory").
constexpr std::size_t kConcurrentChecksFrom = 65536;

// validateGraph and checkConflicts only read the graph: on a large graph the
// conflict check runs on a second thread. A validation error is reported
// first, as when they ran one after the other.
void checkGraph(const Graph& graph) {
    if (graph.vertices().size() < kConcurrentChecksFrom) {
        validateGraph(graph);
        checkConflicts(graph);
        return;
    }
    std::future<void> conflicts = std::async(std::launch::async, [&] { checkConflicts(graph); });
    try {
        validateGraph(graph);
    } catch (...) {
        conflicts.wait();
        throw;
    }
    conflicts.get();
}

} // namespace

CompiledGraph compile(const Graph& graph, const std::vector<program::Program>& programs) {
    CompiledGraph out;
    out.graph = &graph;
    checkGraph(graph);
    flattenPrograms(programs, out);
    placeVariables(out);
    planExchanges(out);
    analyseLiveness(out);
    estimateCycles(out);
    layOutMemory(out);
    buildRecord(out);
    return out;
}

} // namespace tessera::compiler
