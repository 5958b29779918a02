// poputil on the engine's mapping helpers.
#include "Impl.h"
#include "engine/ops/Mapping.h"

#include <poputil/TileMapping.hpp>

#include <algorithm>

namespace poputil {

using poplar::detail::Access;
using poplar::detail::translate;

void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t, unsigned minElementsPerTile,
                       unsigned grainSize) {
    translate([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const std::size_t n = t.numElements();
        const std::size_t grain = std::max(1u, grainSize);
        std::size_t tiles = g.getTarget().numTiles();
        if (minElementsPerTile > 0) {
            tiles = std::min(tiles, std::max<std::size_t>(1, n / minElementsPerTile));
        }
        tessera::ops::mapLinearly(g, Access::tensor(t), grain, tessera::TileId{0u}, tiles);
        return 0;
    });
}

void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t) {
    const unsigned grain = graph.getTarget().getVectorWidth(t.elementType());
    mapTensorLinearly(graph, t, 0, grain);
}

} // namespace poputil
