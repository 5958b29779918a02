// popops::scaledAddTo: A += scale * B, in place.
#ifndef TESSERA_POPOPS_SCALEDADD_HPP
#define TESSERA_POPOPS_SCALEDADD_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace popops {

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
// A -= scale * B
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace popops

#endif
