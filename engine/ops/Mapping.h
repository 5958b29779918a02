#pragma once
// Tile-mapping helpers, in the spirit of poputil::mapTensorLinearly.
#include "engine/graph/Graph.h"

#include <cstddef>

namespace tessera::ops {

// Spreads the tensor's elements evenly over tiles [firstTile, firstTile + tiles)
// (all tiles by default) in chunks that are multiples of `grain` elements.
void mapLinearly(Graph& graph, const Tensor& t, std::size_t grain = 1,
                 TileId firstTile = TileId{0u}, std::size_t tiles = 0);

// Maps whole rows of a 2-D tensor to tiles, balancing rows across tiles.
void mapRows(Graph& graph, const Tensor& t);

// Per tile, the flat index ranges of `t` it holds, as (tile, begin, end).
struct TileRange {
    TileId tile;
    std::size_t begin, end;
};
std::vector<TileRange> tileRanges(const Graph& graph, const Tensor& t);

// Every element of `t` has a tile.
bool fullyMapped(const Graph& graph, const Tensor& t);

// Splits [begin, end) into at most `pieces` near-equal chunks of at least `grain`.
std::vector<std::pair<std::size_t, std::size_t>> splitRange(std::size_t begin, std::size_t end,
                                                            std::size_t pieces, std::size_t grain);

} // namespace tessera::ops
