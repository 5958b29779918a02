// popops::zero: sets elements of a tensor to zero.
#ifndef TESSERA_POPOPS_ZERO_HPP
#define TESSERA_POPOPS_ZERO_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

void zero(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet zeroCS);
void zero(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet zeroCS);
void zero(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet zeroCS);
void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
