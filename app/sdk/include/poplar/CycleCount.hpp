// poplar/CycleCount.hpp: timing a program on the device. On Tessera the
// counts are the cycle model's (the same cycles the report shows).
#ifndef TESSERA_POPLAR_CYCLECOUNT_HPP
#define TESSERA_POPLAR_CYCLECOUNT_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/Tensor.hpp>

#include <vector>

namespace poplar {

// Wraps `prog` so it records the cycles it takes; returns a tensor of 2
// unsigned ints (low word, high word) on `tile` holding the count after it ran.
Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext = DebugContext());
Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext = DebugContext());

// Appends a stamp to `prog`: a tensor of 2 unsigned ints (low, high) on
// `tile` holding the cycle at which the stamp's step ended.
Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext = DebugContext());
Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext = DebugContext());
std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles, SyncType syncType,
                               const DebugContext& debugContext = DebugContext());

} // namespace poplar

#endif
