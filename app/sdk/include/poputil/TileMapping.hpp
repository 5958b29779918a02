// poputil::mapTensorLinearly: spreads a tensor evenly over the tiles.
#ifndef TESSERA_POPUTIL_TILEMAPPING_HPP
#define TESSERA_POPUTIL_TILEMAPPING_HPP

#include <poplar/Graph.hpp>

namespace poputil {

// Elements per tile are multiples of `grainSize`, and at least
// `minElementsPerTile` (fewer tiles are used for small tensors).
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t, unsigned minElementsPerTile,
                       unsigned grainSize);
// Grain: one 64-bit vector of the element type.
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t);

} // namespace poputil

#endif
