#include "engine/compiler/Passes.h"

namespace tessera::compiler {

CompiledGraph compile(const Graph& graph, const std::vector<program::Program>& programs) {
    CompiledGraph out;
    out.graph = &graph;
    validateGraph(graph);
    checkConflicts(graph);
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
