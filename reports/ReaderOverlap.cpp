// ReportReader::notAlwaysLiveOverlap: how not-always-live blocks share
// addresses, per tile, from one ordered scan of memory_blocks.
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Tables.h"

#include <algorithm>

namespace tessera::reports {

namespace {

// Sweeps the blocks' boundaries: between two boundaries every address is
// covered by the same number of blocks, alone (not overlapped) or shared.
TileOverlap overlapOf(std::uint32_t tile,
                      const std::vector<std::pair<std::uint64_t, std::uint64_t>>& blocks) {
    std::vector<std::pair<std::uint64_t, int>> edges; // address, +1 start / -1 end
    edges.reserve(blocks.size() * 2);
    for (const auto& [address, bytes] : blocks) {
        edges.emplace_back(address, +1);
        edges.emplace_back(address + bytes, -1);
    }
    std::sort(edges.begin(), edges.end());
    TileOverlap out{tile, 0, 0};
    std::int64_t covering = 0;
    std::uint64_t at = 0;
    for (const auto& [address, delta] : edges) {
        const std::uint64_t span = address - at;
        if (covering == 1) {
            out.notOverlappedBytes += span;
        } else if (covering > 1) {
            out.overlappedBytes += span * static_cast<std::uint64_t>(covering);
        }
        covering += delta;
        at = address;
    }
    return out;
}

} // namespace

std::vector<TileOverlap> ReportReader::notAlwaysLiveOverlap() const {
    std::vector<TileOverlap> out;
    using tables::col;
    using C = tables::memory_blocks::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::memory_blocks::kTable) +
                             " WHERE category_id = :category ORDER BY tile, address");
    q.bind(":category", static_cast<std::int64_t>(record::MemoryCategory::NotAlwaysLiveVariable));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> blocks;
    std::uint32_t current = 0;
    bool any = false;
    while (q.step()) {
        const std::uint32_t tile = d_->tile(q, col(C::tile));
        const std::uint64_t address = q.count(col(C::address));
        const std::uint64_t bytes = q.count(col(C::bytes));
        if (bytes > sql::kMaxCount - address) {
            q.damaged(col(C::bytes), "is " + std::to_string(bytes) + ": the block ends past 2^48");
        }
        if (any && tile != current) {
            out.push_back(overlapOf(current, blocks));
            blocks.clear();
        }
        current = tile;
        any = true;
        blocks.emplace_back(address, bytes);
    }
    if (any) {
        out.push_back(overlapOf(current, blocks));
    }
    return out;
}

} // namespace tessera::reports
