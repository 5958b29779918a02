#pragma once
// profiler.blocks.implicitFlush: where lightweight profiling flushes each
// tile's block buffer to the host (docs/libpva.md, "Block flushes").
#include "Options.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <vector>

namespace poplar::detail {

// The name of the flush program the engine runs (and libpva recognises).
inline constexpr const char* kBlockFlushName = "BlockFlush";

// The engine's programs with a block flush (a Sync named BlockFlush) at the
// end of the body of every Repeat whose body holds an instrumented program
// not inside a nested loop. Unchanged when lightweight profiling is off or
// profiler.blocks.implicitFlush is false. The caller's program nodes are
// never modified: changed paths are copied.
std::vector<tessera::program::Program>
withBlockFlushes(const std::vector<tessera::program::Program>& programs,
                 const tessera::Graph& graph, const EngineConfig& config);

} // namespace poplar::detail
