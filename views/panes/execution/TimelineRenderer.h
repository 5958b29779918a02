#pragma once
// Draws the timeline's rows into an image, in time O(pixels): items (steps
// or buckets) narrower than kMinBucketPx are folded together, so a row never
// has more drawn cells than pixel columns / kMinBucketPx, whatever the
// number of steps. A single step wide enough is drawn in time order (sync,
// exchange, compute, with the tiles' spread as a lighter shade); a bucket or
// a fold shows its compute / exchange / sync proportions stacked.
#include "views/panes/execution/RowLayout.h"
#include "views/panes/execution/TimeMapping.h"
#include "views/panes/execution/TimelineFrame.h"

#include <QImage>
#include <QRgb>

#include <cstddef>
#include <vector>

namespace tessera::views::execution {

// A single step is drawn phase by phase from this width; narrower, as
// proportions like a bucket (its phases would not show anyway).
inline constexpr double kExactMinPx = 6.0;

// One drawn column range, the same for every row.
struct Cell {
    std::size_t first = 0; // items [first, end)
    std::size_t end = 0;
    int x0 = 0; // device pixels in the image
    int x1 = 0;
    bool exact = false; // one step, drawn phase by phase
};

// Primitives painted in one frame (for tests and the benchmark).
struct PaintStats {
    int cells = 0; // cells per row
    int items = 0; // cells drawn over all rows
    int rects = 0; // filled rectangles
    int rows = 0;
    int foldedCells = 0; // cells holding more than one item
};

// A row's figures over items [first, end): cycles summed over the items.
struct RowFigures {
    double cycles = 0;
    double computePhase = 0, exchangePhase = 0, syncPhase = 0;
    double compute = 0, exchange = 0, sync = 0; // summed over the row's tiles
    double computeMin = 0, computeMax = 0;      // per tile (sums of per-item extremes)
    double exchangeMin = 0, exchangeMax = 0;
    double tiles = 0;
    bool perTile = false; // from per-tile figures (else the tiles' group)
};

struct TimelineColors {
    QRgb background = 0xffffffff;
    QRgb compute = 0, exchange = 0, sync = 0;
    QRgb computeShade = 0, exchangeShade = 0;
    static TimelineColors fromPalette(QRgb background);
};

std::vector<Cell> foldCells(const TimelineFrame& frame, const TimeMapping& mapping, double dpr,
                            double minPx = kMinBucketPx);
RowFigures rowFigures(const TimelineFrame& frame, const TimelineRow& row, std::size_t first,
                      std::size_t end);

// Renders rows into `image` (device pixels; the image's x = 0 is the
// mapping's pixel 0, y = 0 the rows area's top).
PaintStats renderRows(QImage& image, double dpr, const TimelineFrame& frame,
                      const TimeMapping& mapping, const RowLayout& layout,
                      const TimelineColors& colors);

// Columns [begin, end) in logical pixels from the image's left edge.
struct ColumnSpan {
    int begin = 0;
    int end = 0;
};

// Blends every column of a rendered (RGB32) image outside `lit` (ascending,
// disjoint) towards `toward` by alpha / 255: how a search dims what does not
// match. Done on the pixels, in one pass: a translucent fillRect per gap cost
// ~90 ms a paint at 500 matches.
void dimColumnsOutside(QImage& image, double dpr, const std::vector<ColumnSpan>& lit, QRgb toward,
                       int alpha);

} // namespace tessera::views::execution
