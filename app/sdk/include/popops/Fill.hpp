// popops::fill: sets elements of a tensor to a value.
#ifndef TESSERA_POPOPS_FILL_HPP
#define TESSERA_POPOPS_FILL_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

namespace detail {
void fillValue(poplar::Graph& graph, const poplar::Tensor& t, double value,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext);
void fillValue(poplar::Graph& graph, const poplar::Tensor& t,
               const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet cs,
               double value);
} // namespace detail

// Vertices filling the elements of t in tileRegions (held by `tile`), added to fillCS.
template <typename FillValueType>
void fill(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet fillCS, FillValueType fillValue) {
    std::vector<std::vector<poplar::Interval>> mapping(tile + 1);
    mapping[tile] = tileRegions;
    detail::fillValue(graph, t, mapping, fillCS, static_cast<double>(fillValue));
}
// Vertices filling the elements of t held by `tile`.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet fillCS,
          FillValueType fillValue) {
    const std::vector<std::vector<poplar::Interval>> all = graph.getTileMapping(t);
    std::vector<std::vector<poplar::Interval>> mapping(tile + 1);
    if (tile < all.size()) {
        mapping[tile] = all[tile];
    }
    detail::fillValue(graph, t, mapping, fillCS, static_cast<double>(fillValue));
}
// Vertices filling the regions of t given per tile.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet fillCS,
          FillValueType fillValue) {
    detail::fillValue(graph, t, mapping, fillCS, static_cast<double>(fillValue));
}
// Every element of t set to fillValue.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          FillValueType fillValue,
          const poplar::DebugContext& debugContext = poplar::DebugContext()) {
    detail::fillValue(graph, t, static_cast<double>(fillValue), prog, debugContext);
}

} // namespace popops

#endif
