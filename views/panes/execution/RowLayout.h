#pragma once
// The timeline's rows: an "all tiles" row on top, then one row per tile when
// few tiles are visible, else one row per tile group (several groups a row
// when even groups do not fit). Pure layout math.
#include <cstdint>
#include <vector>

namespace tessera::views::execution {

enum class RowKind { AllTiles, Group, Tile };

struct TimelineRow {
    RowKind kind = RowKind::AllTiles;
    std::uint32_t firstGroup = 0; // Group rows: groups [firstGroup, firstGroup + groupCount)
    std::uint32_t groupCount = 0;
    std::uint32_t firstTile = 0; // tiles the row covers
    std::uint32_t tileCount = 0;
    int y = 0; // logical pixels, from the top of the rows area
    int height = 0;
};

struct RowLayout {
    std::vector<TimelineRow> rows; // rows[0] is the all-tiles row
    bool tileRows = false;         // one row per tile
    int height = 0;                // used height
};

inline constexpr int kAllTilesRowPx = 28;
inline constexpr int kRowGapPx = 6; // between the all-tiles row and the others
inline constexpr int kMinTileRowPx = 12;
inline constexpr int kMinGroupRowPx = 8; // shorter rows would not show their proportions
inline constexpr int kMaxRowPx = 30;

// Rows for tiles [tileFirst, tileFirst + tileCount) of numTiles grouped by
// groupTiles, in `height` logical pixels.
RowLayout layoutRows(std::uint32_t numTiles, std::uint32_t groupTiles, std::uint32_t tileFirst,
                     std::uint32_t tileCount, int height);

} // namespace tessera::views::execution
