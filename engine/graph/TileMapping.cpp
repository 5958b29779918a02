#include "engine/graph/TileMapping.h"

#include <algorithm>

namespace tessera {

void TileMapping::moveToTree() {
    for (const TileInterval& iv : sorted_) {
        byBegin_.emplace_hint(byBegin_.end(), iv.begin, iv);
    }
    sorted_ = {};
    tree_ = true;
}

void TileMapping::assign(std::size_t begin, std::size_t end, TileId tile) {
    if (begin >= end) {
        return;
    }
    if (!tree_) {
        if (sorted_.empty() || sorted_.back().end <= begin) {
            if (!sorted_.empty() && sorted_.back().end == begin && sorted_.back().tile == tile) {
                sorted_.back().end = end;
            } else {
                sorted_.push_back({begin, end, tile});
            }
            return;
        }
        moveToTree();
    }
    // Trim or split intervals that overlap [begin, end).
    auto it = byBegin_.lower_bound(begin);
    if (it != byBegin_.begin()) {
        auto prev = std::prev(it);
        if (prev->second.end > begin) {
            TileInterval left = prev->second;
            if (left.end > end) {
                byBegin_[end] = {end, left.end, left.tile};
            }
            prev->second.end = begin;
        }
    }
    it = byBegin_.lower_bound(begin);
    while (it != byBegin_.end() && it->first < end) {
        if (it->second.end > end) {
            TileInterval right = {end, it->second.end, it->second.tile};
            byBegin_.erase(it);
            byBegin_[end] = right;
            break;
        }
        it = byBegin_.erase(it);
    }
    byBegin_[begin] = {begin, end, tile};
}

std::vector<TileInterval> TileMapping::intervals() const {
    if (!tree_) {
        return sorted_; // merged as it was built
    }
    std::vector<TileInterval> out;
    out.reserve(byBegin_.size());
    for (const auto& [begin, iv] : byBegin_) {
        if (!out.empty() && out.back().end == iv.begin && out.back().tile == iv.tile) {
            out.back().end = iv.end;
        } else {
            out.push_back(iv);
        }
    }
    return out;
}

std::size_t TileMapping::firstUnmapped(std::size_t numElements) const {
    std::size_t covered = 0;
    if (!tree_) {
        for (const TileInterval& iv : sorted_) {
            if (iv.begin > covered) {
                return covered;
            }
            covered = iv.end;
        }
        return covered < numElements ? covered : numElements;
    }
    for (const auto& [begin, iv] : byBegin_) {
        if (begin > covered) {
            return covered;
        }
        covered = std::max(covered, iv.end);
    }
    return covered < numElements ? covered : numElements;
}

TileId TileMapping::tileOf(std::size_t element) const {
    if (!tree_) {
        auto it =
            std::upper_bound(sorted_.begin(), sorted_.end(), element,
                             [](std::size_t e, const TileInterval& iv) { return e < iv.begin; });
        if (it == sorted_.begin()) {
            return TileId::none();
        }
        --it;
        return element < it->end ? it->tile : TileId::none();
    }
    auto it = byBegin_.upper_bound(element);
    if (it == byBegin_.begin()) {
        return TileId::none();
    }
    --it;
    return element < it->second.end ? it->second.tile : TileId::none();
}

} // namespace tessera
