#include "views/panes/debug/HeatmapBins.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::views::debugger {

HeatmapBins binGrid(const std::vector<double>& values, const std::vector<record::TileId>& owners,
                    int rows, int columns, int binRows, int binColumns, BinReduce reduce) {
    HeatmapBins out;
    out.rows = std::max(0, std::min(binRows, rows));
    out.columns = std::max(0, std::min(binColumns, columns));
    const std::size_t bins = std::size_t(out.rows) * std::size_t(out.columns);
    out.values.assign(bins, std::numeric_limits<double>::quiet_NaN());
    const bool withOwners = owners.size() == values.size();
    if (withOwners) {
        out.owners.assign(bins, record::TileId{0u});
    }
    std::vector<record::TileId> blockOwners;
    for (int br = 0; br < out.rows; ++br) {
        const std::size_t r0 = binStart(br, out.rows, rows), r1 = binStart(br + 1, out.rows, rows);
        for (int bc = 0; bc < out.columns; ++bc) {
            const std::size_t c0 = binStart(bc, out.columns, columns);
            const std::size_t c1 = binStart(bc + 1, out.columns, columns);
            double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
            std::size_t finite = 0;
            blockOwners.clear();
            for (std::size_t r = r0; r < r1; ++r) {
                for (std::size_t c = c0; c < c1; ++c) {
                    const std::size_t i = r * std::size_t(columns) + c;
                    if (i >= values.size()) {
                        break;
                    }
                    if (withOwners) {
                        blockOwners.push_back(owners[i]);
                    }
                    const double v = values[i];
                    if (std::isfinite(v)) {
                        sum += v;
                        lo = std::min(lo, v);
                        hi = std::max(hi, v);
                        ++finite;
                    }
                }
            }
            const std::size_t b = std::size_t(br) * std::size_t(out.columns) + std::size_t(bc);
            if (finite > 0) {
                out.values[b] = reduce == BinReduce::Min   ? lo
                                : reduce == BinReduce::Max ? hi
                                                           : sum / double(finite);
            }
            if (withOwners && !blockOwners.empty()) {
                // The tile holding most of the block (the lowest on a tie).
                std::sort(blockOwners.begin(), blockOwners.end());
                record::TileId best = blockOwners.front();
                std::size_t bestRun = 0;
                for (std::size_t i = 0; i < blockOwners.size();) {
                    std::size_t j = i;
                    while (j < blockOwners.size() && blockOwners[j] == blockOwners[i]) {
                        ++j;
                    }
                    if (j - i > bestRun) {
                        bestRun = j - i;
                        best = blockOwners[i];
                    }
                    i = j;
                }
                out.owners[b] = best;
            }
        }
    }
    return out;
}

} // namespace tessera::views::debugger
