// Items grouped by the tile they are on, each tile's in their original order:
// one array and per-tile starts (a counting sort). A vector per tile cost
// 1472 small growing heap arrays whatever the graph's size.
#pragma once

#include "engine/core/LargeArray.h"
#include "engine/record/Ids.h"

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

namespace tessera::compiler {

template <typename Id>
class ByTile {
public:
    ByTile() = default;

    // Items 0..count-1, item i on tile tileOf(i) (< tiles).
    template <typename TileOf>
    ByTile(std::size_t tiles, std::size_t count, TileOf tileOf)
        : starts_(tiles + 1, 0) {
        for (std::size_t i = 0; i < count; ++i) {
            ++starts_.at(tileOf(i) + 1);
        }
        for (std::size_t t = 0; t < tiles; ++t) {
            starts_[t + 1] += starts_[t];
        }
        items_.resize(count);
        // starts_[t] runs ahead through tile t's items, then is moved back.
        for (std::size_t i = 0; i < count; ++i) {
            items_[starts_[tileOf(i)]++] = idOf(i);
        }
        for (std::size_t t = tiles; t > 0; --t) {
            starts_[t] = starts_[t - 1];
        }
        starts_[0] = 0;
    }

    std::span<const Id> of(std::size_t tile) const {
        return {items_.data() + starts_[tile], starts_[tile + 1] - starts_[tile]};
    }

private:
    static Id idOf(std::size_t i) {
        if constexpr (std::is_integral_v<Id>) {
            return static_cast<Id>(i);
        } else {
            return record::idAt<Id>(i);
        }
    }

    std::vector<std::size_t> starts_;
    LargeVector<Id> items_;
};

} // namespace tessera::compiler
