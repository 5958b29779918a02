#pragma once
// How a tile's not-always-live blocks share addresses (ReportReader::
// notAlwaysLiveOverlap): each block's bytes at addresses no other
// not-always-live block uses count as not overlapped, the rest as overlapped
// (so a byte two blocks share counts twice). Its own header, beside
// ReportTypes.h, so adding it did not rebuild every includer of that one.
#include <cstdint>

namespace tessera::reports {

struct TileOverlap {
    std::uint32_t tile = 0;
    std::uint64_t notOverlappedBytes = 0;
    std::uint64_t overlappedBytes = 0;
    bool operator==(const TileOverlap&) const = default;
};

} // namespace tessera::reports
