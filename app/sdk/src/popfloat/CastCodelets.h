#pragma once
// popfloat's cast codelets on the engine and the vertices that run them over
// the tiles holding a tensor.
#include "engine/graph/Graph.h"

#include <popfloat/experimental/GfloatExpr.hpp>

#include <string>

namespace popfloat::experimental::detail {

// Adds every cast codelet (float and half in and out) once.
void addCastCodelets(tessera::Graph& g);

// Vertices into `cs` over the tiles of `out` (its elements are the work):
//   "CastToGfloat<In,Out>": in -> out rounded into the format in `param`
//   "CastToGfloatInPlace<T>": out rounded in place (`in` unused)
//   "CastGfloatToNative<In,Out>": in -> out converted
// mode and nanoo are the rounding of the first two.
void addCastVertices(tessera::Graph& g, tessera::ComputeSet cs, const std::string& family,
                     const tessera::Tensor& in, const tessera::Tensor& out,
                     const tessera::Tensor& param, RoundType mode, bool nanoo);

} // namespace popfloat::experimental::detail
