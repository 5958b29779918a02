// Casts between element types (popops/Cast.hpp). Float to integer casts
// truncate and saturate (NaN gives 0); anything non-zero becomes true.
#ifndef TESSERA_POPOPS_CAST_HPP
#define TESSERA_POPOPS_CAST_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());
void castWithOutput(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Tensor& dst,
                    poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());
// A program casting src into dst (a Copy when the types are equal or int /
// unsigned).
poplar::program::Program cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext& debugContext = poplar::DebugContext());
// Vertices casting src into dst, added to `cs`.
void cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst, poplar::ComputeSet cs);
poplar::Tensor cast(poplar::Graph& graph, poplar::Tensor src, const poplar::Type& dstType,
                    poplar::ComputeSet cs,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());
// A one-element bool tensor: |cast(input) - input| <= tolerance * |input|
// (input: one FLOAT element; outputType: HALF).
poplar::Tensor
checkAccuracyWhenCast(poplar::Graph& graph, const poplar::Tensor& input, poplar::Type outputType,
                      double tolerance, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
