#pragma once
// Which tile holds each element range of one variable. Later assignments
// override earlier ones, as Graph::setTileMapping does in Poplar.
#include "engine/graph/Ids.h"

#include <cstddef>
#include <map>
#include <vector>

namespace tessera {

struct TileInterval {
    std::size_t begin = 0;
    std::size_t end = 0;
    TileId tile = TileId::none();
    bool operator==(const TileInterval&) const = default;
};

class TileMapping {
public:
    void assign(std::size_t begin, std::size_t end, TileId tile);
    // Sorted, non-overlapping, adjacent equal-tile intervals merged.
    std::vector<TileInterval> intervals() const;
    // The first element in [0, numElements) with no tile, or numElements.
    std::size_t firstUnmapped(std::size_t numElements) const;
    TileId tileOf(std::size_t element) const; // none() when unmapped

private:
    void moveToTree();
    // Mappings made in element order (what mapping tensors linearly does)
    // stay a flat sorted list; the first assignment behind its end moves
    // the intervals to a tree, where overriding is logarithmic.
    std::vector<TileInterval> sorted_;
    std::map<std::size_t, TileInterval> byBegin_;
    bool tree_ = false;
};

} // namespace tessera
