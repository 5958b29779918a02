#pragma once
// The timeline's rows: an "all tiles" row on top, then one row per tile
// while they fit; when they do not, rows of tile groups (several groups a row
// when even groups do not fit) if there are enough groups to fill the height,
// else one row per tile still, scrolled vertically as tracks are in Tracy
// and Perfetto (a few groups of many tiles would leave the height blank).
// Pure layout math.
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
    // Tile rows that do not all fit: rows shown from tile row `scroll`, which
    // goes from 0 to scrollRange (0: nothing to scroll).
    std::uint32_t scroll = 0;
    std::uint32_t scrollRange = 0;
    std::uint32_t shownFirstTile() const { return rows.size() > 1 ? rows[1].firstTile : 0; }
    std::uint32_t shownTiles() const {
        return rows.size() > 1 ? rows.back().firstTile + rows.back().tileCount - rows[1].firstTile
                               : 0;
    }
};

inline constexpr int kAllTilesRowPx = 28;
inline constexpr int kRowGapPx = 6; // between the all-tiles row and the others
inline constexpr int kMinTileRowPx = 12;
inline constexpr int kMinGroupRowPx = 8; // shorter rows would not show their proportions
inline constexpr int kMaxRowPx = 30;

// Rows for tiles [tileFirst, tileFirst + tileCount) of numTiles grouped by
// groupTiles, in `height` logical pixels; `scroll`: the first tile row shown
// when tile rows scroll (clamped).
RowLayout layoutRows(std::uint32_t numTiles, std::uint32_t groupTiles, std::uint32_t tileFirst,
                     std::uint32_t tileCount, int height, std::uint32_t scroll = 0);

// With the view bounded to tiles [boundFirst, boundFirst + boundCount) (one
// IPU), the top row sums those tiles only: it becomes the groups that cover
// them exactly. When the bounds do not fall on group edges the row keeps
// every tile (its label then says so); returns whether it was bounded.
bool boundAllTilesRow(RowLayout& layout, std::uint32_t numTiles, std::uint32_t groupTiles,
                      std::uint32_t boundFirst, std::uint32_t boundCount);

} // namespace tessera::views::execution
