#pragma once
// The figures the Summary pane shows beyond the report's headline Summary:
// fullest tiles, the worst overflow, a histogram of memory across tiles,
// vertex state and code by codelet, and the always-live variables. Pure
// computation over ReportData (no widgets), so it is tested on its own.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

struct TileUsage {
    record::TileId tile;
    std::uint64_t bytes = 0;    // including gaps
    std::uint64_t overflow = 0; // beyond capacity
    double fraction = 0;        // bytes / capacity
};

// Tiles binned by memory used (including gaps): bin i covers
// [lower + i * binWidth, lower + (i + 1) * binWidth).
struct MemoryHistogram {
    std::uint64_t lower = 0;
    std::uint64_t binWidth = 1;
    std::vector<std::uint64_t> counts;
    std::uint64_t capacity = 0;
    std::uint64_t maxBytes = 0;
    bool capacityInRange = false; // the bins reach the capacity
    double upper() const {
        return static_cast<double>(lower) +
               static_cast<double>(binWidth) * static_cast<double>(counts.size());
    }
};

struct CodeletFootprint {
    std::string name;
    std::uint64_t vertices = 0;
    std::uint64_t stateBytes = 0; // vertex state and descriptors, all tiles
    std::uint64_t codeBytes = 0;  // code size times the tiles it is on
    std::uint32_t tiles = 0;
    std::uint64_t total() const { return stateBytes + codeBytes; }
};

struct SummaryInsights {
    std::vector<TileUsage> fullest; // up to `fullestCount`, fullest first
    std::uint32_t tilesOverCapacity = 0;
    TileUsage worst;             // the tile with most overflow (or the fullest)
    std::uint32_t tilesUsed = 0; // tiles with any memory in use
    MemoryHistogram histogram;
    std::vector<CodeletFootprint> codelets; // largest state + code first
    std::vector<const reports::VariableEntry*>
        alwaysLive;                    // always-live and constants, largest first
    std::uint64_t alwaysLiveBytes = 0; // sum over tiles
    std::uint64_t notAlwaysLivePeakBytes = 0;
    std::uint64_t gapBytes = 0;
    std::uint64_t totalBytes = 0; // including gaps
};

// Bins per-tile byte counts: between 8 and 40 bins (one per tile for few
// tiles) up to the fullest tile, or to the capacity when the fullest tile
// uses at least half of it. The bins start at 0, or just below the emptiest
// tile when every tile uses at least a quarter of the fullest's bytes (so
// the spread shows) and the capacity is off the scale.
MemoryHistogram binMemory(const std::vector<std::uint64_t>& bytesPerTile, std::uint64_t capacity);

// `data` must outlive the result (alwaysLive points into it).
SummaryInsights computeInsights(const ReportData& data, std::size_t fullestCount = 5);

} // namespace tessera::views
