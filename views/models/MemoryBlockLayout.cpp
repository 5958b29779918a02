#include "views/models/MemoryBlockLayout.h"

#include <algorithm>

namespace tessera::views {

namespace {

// Lanes for one group of transitively overlapping blocks [first, last):
// greedy interval colouring in address order.
void assignLanes(std::vector<PlacedBlock>& blocks, std::size_t first, std::size_t last) {
    std::vector<std::uint64_t> laneEnds;
    for (std::size_t i = first; i < last; ++i) {
        const auto& b = blocks[i].block;
        auto free = std::find_if(laneEnds.begin(), laneEnds.end(),
                                 [&](std::uint64_t e) { return e <= b.address; });
        if (free == laneEnds.end()) {
            laneEnds.push_back(b.end());
            blocks[i].lane = static_cast<int>(laneEnds.size()) - 1;
        } else {
            *free = b.end();
            blocks[i].lane = static_cast<int>(free - laneEnds.begin());
        }
    }
    for (std::size_t i = first; i < last; ++i) {
        blocks[i].lanes = static_cast<int>(laneEnds.size());
        for (std::size_t j = first; j < last; ++j) {
            const auto& a = blocks[i].block;
            const auto& b = blocks[j].block;
            if (i != j && a.address < b.end() && b.address < a.end()) {
                ++blocks[i].sharers;
            }
        }
    }
}

} // namespace

TileMemoryLayout layoutTileMemory(record::TileId tile,
                                  std::vector<record::MemoryBlockRecord> entries,
                                  std::uint64_t baseAddress) {
    TileMemoryLayout layout;
    layout.tile = tile;
    layout.base = baseAddress;
    layout.end = baseAddress;
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return a.address != b.address ? a.address < b.address : a.bytes > b.bytes;
    });
    layout.blocks.reserve(entries.size());
    for (const auto& e : entries) {
        layout.blocks.push_back({e, 0, 1, 0});
    }
    std::uint64_t covered = baseAddress;
    std::size_t groupStart = 0;
    std::uint64_t groupEnd = 0;
    for (std::size_t i = 0; i < layout.blocks.size(); ++i) {
        const auto& b = layout.blocks[i].block;
        if (b.bytes == 0) {
            continue;
        }
        if (b.address > covered) {
            layout.gaps.push_back({covered, b.address - covered});
        }
        covered = std::max(covered, b.end());
        if (i > groupStart && b.address >= groupEnd) {
            assignLanes(layout.blocks, groupStart, i);
            groupStart = i;
        }
        groupEnd = i == groupStart ? b.end() : std::max(groupEnd, b.end());
    }
    assignLanes(layout.blocks, groupStart, layout.blocks.size());
    layout.end = covered;
    std::stable_sort(
        layout.blocks.begin(), layout.blocks.end(), [](const PlacedBlock& a, const PlacedBlock& b) {
            return a.block.address != b.block.address ? a.block.address < b.block.address
                                                      : a.lane < b.lane;
        });
    return layout;
}

} // namespace tessera::views
