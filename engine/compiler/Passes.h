#pragma once
// The compiler passes, in the order compile() runs them. Each fills in part
// of the CompiledGraph.
#include "engine/compiler/Compiled.h"

namespace tessera::compiler {

// v rounded up to a multiple of a (a > 0): block and state alignment.
constexpr std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) {
    return (v + a - 1) / a * a;
}

// A tile's addresses are 32-bit: one whose memory would pass them cannot be
// laid out even with allowOutOfMemory (nor held by the host). Returns `bytes`
// as 32 bits when they fit from the tile's base; otherwise throws an Error
// saying the tile needs `bytes`.
std::uint32_t withinTileAddresses(const Target& target, TileId tile, std::uint64_t bytes);

// Every variable fully mapped, every vertex on a tile with every field connected.
void validateGraph(const Graph& graph);
// Program trees -> nodes, steps and the interpreter's instructions.
void flattenPrograms(const std::vector<program::Program>& programs, CompiledGraph& out);
// One data block per variable per tile holding some of it.
void placeVariables(CompiledGraph& out);
// No two vertices of a compute set write one element, or one writes what another reads.
void checkConflicts(const Graph& graph);
// Field bindings and the transfers each step makes; exchange buffers.
void planExchanges(CompiledGraph& out);
// Live ranges of variables and exchange buffers over program steps.
void analyseLiveness(CompiledGraph& out);
// Per-vertex estimates, worker scheduling, exchange and sync costs per step.
void estimateCycles(CompiledGraph& out);
// One vertex's thread cycles and flops as estimateCycles schedules them: its
// codelet's estimator, or the vertex's own setPerfEstimate.
PerfEstimate estimateVertex(const Graph& graph, VertexId id);
// Addresses of every block and every other category; tile totals.
void layOutMemory(CompiledGraph& out);
// The report's view of it all.
void buildRecord(CompiledGraph& out);

} // namespace tessera::compiler
