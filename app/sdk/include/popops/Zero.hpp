// popops::zero: sets a tensor to zero.
#ifndef TESSERA_POPOPS_ZERO_HPP
#define TESSERA_POPOPS_ZERO_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {
void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = poplar::DebugContext());
} // namespace popops

#endif
