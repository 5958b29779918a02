#pragma once
// One tile's memory blocks arranged for drawing: in address order, with
// blocks that share addresses (not-always-live variables whose live ranges
// do not overlap) given separate lanes, and the gaps between blocks listed.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <vector>

namespace tessera::views {

struct PlacedBlock {
    record::MemoryBlockRecord block;
    int lane = 0;    // 0-based lane within its group of blocks sharing addresses
    int lanes = 1;   // lanes in that group (1: the block shares nothing)
    int sharers = 0; // other blocks overlapping its address range
};

struct MemoryGap {
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
};

struct TileMemoryLayout {
    record::TileId tile;
    std::uint64_t base = 0;          // the memory's first address
    std::uint64_t end = 0;           // one past the last block's last byte (base when empty)
    std::vector<PlacedBlock> blocks; // by address, then lane
    std::vector<MemoryGap> gaps;     // ranges in [base, end) no block covers
};

TileMemoryLayout layoutTileMemory(record::TileId tile,
                                  std::vector<record::MemoryBlockRecord> blocks,
                                  std::uint64_t baseAddress);

} // namespace tessera::views
