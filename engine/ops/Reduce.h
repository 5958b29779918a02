#pragma once
// Reductions in two stages: each tile reduces what it holds, then the
// partial results are exchanged and reduced again (the PopLibs shape).
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <string>

namespace tessera::ops {

// result[r] = op over in[r, :] for a 2-D `in`; op is "Add" or "Max".
Tensor reduceRows(Graph& graph, program::Sequence& seq, const Tensor& in, const std::string& op,
                  const std::string& name);
// result[c] = sum over in[:, c]; the result is mapped linearly over tiles.
Tensor reduceColumnsAdd(Graph& graph, program::Sequence& seq, const Tensor& in,
                        const std::string& name);
// A one-element tensor: op over all elements.
Tensor reduceAll(Graph& graph, program::Sequence& seq, const Tensor& in, const std::string& op,
                 const std::string& name);

} // namespace tessera::ops
