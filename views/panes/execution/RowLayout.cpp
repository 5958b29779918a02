#include "views/panes/execution/RowLayout.h"

#include <algorithm>

namespace tessera::views::execution {

RowLayout layoutRows(std::uint32_t numTiles, std::uint32_t groupTiles, std::uint32_t tileFirst,
                     std::uint32_t tileCount, int height, std::uint32_t scroll) {
    RowLayout out;
    TimelineRow all;
    all.kind = RowKind::AllTiles;
    all.firstTile = 0;
    all.tileCount = numTiles;
    all.height = std::min(kAllTilesRowPx, std::max(height, 0));
    out.rows.push_back(all);
    const int top = all.height + kRowGapPx;
    const int available = height - top;
    tileFirst = std::min(tileFirst, numTiles);
    tileCount = std::min(tileCount, numTiles - tileFirst);
    groupTiles = std::max<std::uint32_t>(groupTiles, 1);
    if (available < kMinGroupRowPx || tileCount == 0) {
        out.height = all.height;
        return out;
    }
    // Row i of n spans [top + i*h/n, top + (i+1)*h/n), each at most kMaxRowPx.
    auto place = [&](std::uint32_t n) {
        const int used = std::min(available, static_cast<int>(n) * kMaxRowPx);
        for (std::uint32_t i = 0; i < n; ++i) {
            const int y0 = top + static_cast<int>(static_cast<long long>(i) * used / n);
            const int y1 = top + static_cast<int>(static_cast<long long>(i + 1) * used / n);
            out.rows[i + 1].y = y0;
            out.rows[i + 1].height = y1 - y0;
        }
        out.height = top + used;
    };
    const auto fitRows = static_cast<std::uint32_t>(available / kMinTileRowPx);
    const std::uint32_t g0 = tileFirst / groupTiles;
    const std::uint32_t g1 = (tileFirst + tileCount + groupTiles - 1) / groupTiles;
    const std::uint32_t groups = g1 - g0;
    // Groups when they fill at least half the rows that fit; else scrolled tile rows.
    const bool scrolled = tileCount > fitRows && groups * 2 < fitRows;
    if (tileCount <= fitRows || scrolled) {
        out.tileRows = true;
        if (scrolled) {
            out.scrollRange = tileCount - fitRows;
            out.scroll = std::min(scroll, out.scrollRange);
            tileFirst += out.scroll;
            tileCount = fitRows;
        }
        for (std::uint32_t t = 0; t < tileCount; ++t) {
            TimelineRow row;
            row.kind = RowKind::Tile;
            row.firstTile = tileFirst + t;
            row.tileCount = 1;
            row.firstGroup = (tileFirst + t) / groupTiles;
            row.groupCount = 1;
            out.rows.push_back(row);
        }
        place(tileCount);
        return out;
    }
    const auto maxRows = static_cast<std::uint32_t>(available / kMinGroupRowPx);
    const std::uint32_t perRow = (groups + maxRows - 1) / maxRows;
    for (std::uint32_t g = g0; g < g1; g += perRow) {
        TimelineRow row;
        row.kind = RowKind::Group;
        row.firstGroup = g;
        row.groupCount = std::min(perRow, g1 - g);
        row.firstTile = g * groupTiles;
        row.tileCount = std::min(numTiles, (g + row.groupCount) * groupTiles) - row.firstTile;
        out.rows.push_back(row);
    }
    place(static_cast<std::uint32_t>(out.rows.size() - 1));
    return out;
}

bool boundAllTilesRow(RowLayout& layout, std::uint32_t numTiles, std::uint32_t groupTiles,
                      std::uint32_t boundFirst, std::uint32_t boundCount) {
    if (layout.rows.empty()) {
        return false;
    }
    TimelineRow& all = layout.rows.front();
    groupTiles = std::max<std::uint32_t>(groupTiles, 1);
    const std::uint32_t boundEnd = boundFirst + boundCount;
    const bool whole = boundFirst == 0 && boundEnd >= numTiles;
    const bool onEdges =
        boundFirst % groupTiles == 0 && (boundEnd % groupTiles == 0 || boundEnd == numTiles);
    if (whole || boundCount == 0 || boundEnd > numTiles || !onEdges) {
        return false;
    }
    all.firstTile = boundFirst;
    all.tileCount = boundCount;
    all.firstGroup = boundFirst / groupTiles;
    all.groupCount = (boundEnd + groupTiles - 1) / groupTiles - all.firstGroup;
    return true;
}

} // namespace tessera::views::execution
