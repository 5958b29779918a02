#include "views/models/SummaryInsights.h"

#include "views/data/ReportData.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessera::views {

MemoryHistogram binMemory(const std::vector<std::uint64_t>& bytesPerTile, std::uint64_t capacity) {
    MemoryHistogram h;
    h.capacity = capacity;
    std::uint64_t least = bytesPerTile.empty() ? 0 : bytesPerTile.front();
    for (std::uint64_t b : bytesPerTile) {
        h.maxBytes = std::max(h.maxBytes, b);
        least = std::min(least, b);
    }
    const std::size_t bins = std::clamp<std::size_t>(bytesPerTile.size(), 8, 40);
    h.capacityInRange = capacity > 0 && 2 * h.maxBytes >= capacity;
    const std::uint64_t upper =
        h.capacityInRange ? std::max(h.maxBytes + 1, capacity) : h.maxBytes + 1;
    if (!h.capacityInRange && least < h.maxBytes && 4 * least >= h.maxBytes) {
        // Start a little below the emptiest tile, at a round number of bytes.
        std::uint64_t round = 1;
        while (round * 16 <= h.maxBytes - least) {
            round *= 2;
        }
        h.lower = least / round * round;
    }
    h.binWidth = std::max<std::uint64_t>(1, (upper - h.lower + bins - 1) / bins);
    h.counts.assign(bins, 0);
    for (std::uint64_t b : bytesPerTile) {
        ++h.counts[std::min<std::size_t>(bins - 1,
                                         static_cast<std::size_t>((b - h.lower) / h.binWidth))];
    }
    return h;
}

SummaryInsights computeInsights(const ReportData& data, std::size_t fullestCount) {
    SummaryInsights s;
    const std::uint64_t capacity = data.target.bytesPerTile;
    std::vector<TileUsage> tiles;
    std::vector<std::uint64_t> bytes;
    tiles.reserve(data.tileMemory.size());
    bytes.reserve(data.tileMemory.size());
    for (const auto& t : data.tileMemory) {
        const double fraction =
            capacity ? static_cast<double>(t.totalIncludingGaps) / static_cast<double>(capacity)
                     : 0.0;
        tiles.push_back({t.tile, t.totalIncludingGaps, t.overflowBytes, fraction});
        bytes.push_back(t.totalIncludingGaps);
        s.tilesOverCapacity += t.overflowBytes > 0 ? 1 : 0;
        s.tilesUsed += t.totalExcludingGaps > 0 ? 1 : 0;
        s.alwaysLiveBytes += t.alwaysLiveBytes;
        s.notAlwaysLivePeakBytes += t.notAlwaysLivePeakBytes;
        s.gapBytes += t.gapBytes;
        s.totalBytes += t.totalIncludingGaps;
    }
    std::stable_sort(tiles.begin(), tiles.end(), [](const TileUsage& a, const TileUsage& b) {
        return a.overflow != b.overflow ? a.overflow > b.overflow : a.bytes > b.bytes;
    });
    if (!tiles.empty()) {
        s.worst = tiles.front();
    }
    std::stable_sort(tiles.begin(), tiles.end(),
                     [](const TileUsage& a, const TileUsage& b) { return a.bytes > b.bytes; });
    tiles.resize(std::min(tiles.size(), fullestCount));
    s.fullest = std::move(tiles);
    s.histogram = binMemory(bytes, capacity);

    std::map<record::CodeletId, CodeletFootprint> byCodelet;
    std::map<record::CodeletId, std::set<record::TileId>> tilesOf;
    for (const auto& vc : data.vertexCounts) {
        auto& f = byCodelet[vc.codelet];
        f.vertices += vc.count;
        f.stateBytes += vc.stateBytes;
        tilesOf[vc.codelet].insert(vc.tile);
    }
    for (auto& [id, f] : byCodelet) {
        f.tiles = static_cast<std::uint32_t>(tilesOf[id].size());
        for (const auto& c : data.codelets) {
            if (c.id == id) {
                f.name = c.name;
                f.codeBytes = c.codeBytes * f.tiles;
            }
        }
        if (f.name.empty()) {
            f.name = "codelet " + std::to_string(id.value());
        }
        s.codelets.push_back(f);
    }
    std::stable_sort(
        s.codelets.begin(), s.codelets.end(),
        [](const CodeletFootprint& a, const CodeletFootprint& b) { return a.total() > b.total(); });

    for (const auto& v : data.variables) {
        if (v.alwaysLive || v.isConstant) {
            s.alwaysLive.push_back(&v);
        }
    }
    std::stable_sort(s.alwaysLive.begin(), s.alwaysLive.end(),
                     [](const auto* a, const auto* b) { return a->totalBytes > b->totalBytes; });
    return s;
}

} // namespace tessera::views
