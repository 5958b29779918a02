// popops::fill: sets every element of a tensor to a value.
#ifndef TESSERA_POPOPS_FILL_HPP
#define TESSERA_POPOPS_FILL_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

void fillValue(poplar::Graph& graph, const poplar::Tensor& t, double value,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext);

template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t, FillValueType fillValue,
          poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = poplar::DebugContext()) {
    popops::fillValue(graph, t, static_cast<double>(fillValue), prog, debugContext);
}

} // namespace popops

#endif
