#pragma once
// Downsampling a tensor drawn as a grid too big for its pixels: the grid's
// rows x columns are split into binRows x binColumns rectangular blocks (as
// even as integer division allows) and each block is reduced to one value
// (its finite elements' mean, minimum or maximum) and one tile (the tile
// holding most of its elements). Pure math, no Qt widgets.
#include "engine/record/Ids.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::views::debugger {

enum class BinReduce { Mean, Min, Max };

struct HeatmapBins {
    int rows = 0;                       // bins down
    int columns = 0;                    // bins across
    std::vector<double> values;         // row-major; NaN when a block has no finite element
    std::vector<record::TileId> owners; // row-major; empty when no owners were given
};

// The elements [first, last) of the grid's rows (or columns) that bin `bin`
// of `bins` covers, for a dimension of `size` elements.
inline std::size_t binStart(int bin, int bins, int size) {
    return std::size_t(bin) * std::size_t(size) / std::size_t(bins);
}

// `values` (and `owners`, empty or one per value) laid out row by row in a
// grid of `columns`; elements past values.size() (a ragged last row) are left out.
HeatmapBins binGrid(const std::vector<double>& values, const std::vector<record::TileId>& owners,
                    int rows, int columns, int binRows, int binColumns, BinReduce reduce);

} // namespace tessera::views::debugger
