#pragma once
// Byte ranges [begin, end) of some owner (a block, a tile's store), kept as
// sorted, merged lists so two lists can be compared by walking them side by
// side. `Owner` names the member that says whose bytes they are.
// Internal to engine/runtime.
#include <algorithm>
#include <vector>

namespace tessera::runtime {

template <auto Owner, typename R>
bool rangeBefore(const R& a, const R& b) {
    return a.*Owner != b.*Owner ? a.*Owner < b.*Owner : a.begin < b.begin;
}

// Sorts and merges ranges of one owner that overlap or touch (in a
// std::vector or a LargeVector).
template <auto Owner, typename Ranges>
void coalesce(Ranges& ranges) {
    using R = typename Ranges::value_type;
    std::sort(ranges.begin(), ranges.end(), rangeBefore<Owner, R>);
    std::size_t out = 0;
    for (const R& r : ranges) {
        if (out > 0 && ranges[out - 1].*Owner == r.*Owner && r.begin <= ranges[out - 1].end) {
            ranges[out - 1].end = std::max(ranges[out - 1].end, r.end);
        } else {
            ranges[out++] = r;
        }
    }
    ranges.resize(out);
}

} // namespace tessera::runtime
