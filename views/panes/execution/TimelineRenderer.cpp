#include "views/panes/execution/TimelineRenderer.h"

#include "views/common/Colors.h"

#include <algorithm>
#include <cmath>

namespace tessera::views::execution {

namespace {

QRgb blend(QRgb a, QRgb b, double t) {
    auto mix = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

// Solid fills straight into the image's memory: a QPainter call per cell
// would cost more than the pixels.
class Raster {
public:
    explicit Raster(QImage& image)
        : bits_(image.bits())
        , stride_(image.bytesPerLine())
        , w_(image.width())
        , h_(image.height()) {}

    void fill(int x0, int x1, int y0, int y1, QRgb c) {
        x0 = std::max(x0, 0);
        x1 = std::min(x1, w_);
        y0 = std::max(y0, 0);
        y1 = std::min(y1, h_);
        if (x0 >= x1 || y0 >= y1) {
            return;
        }
        ++rects;
        for (int y = y0; y < y1; ++y) {
            QRgb* line = reinterpret_cast<QRgb*>(bits_ + static_cast<std::ptrdiff_t>(y) * stride_);
            std::fill(line + x0, line + x1, c);
        }
    }

    int rects = 0;

private:
    uchar* bits_;
    qsizetype stride_;
    int w_, h_;
};

void add(double& min, double& max, double& sum, const reports::GroupStats& s) {
    min += static_cast<double>(s.min);
    max += static_cast<double>(s.max);
    sum += static_cast<double>(s.sum);
}

} // namespace

TimelineColors TimelineColors::fromPalette(QRgb background) {
    TimelineColors c;
    c.background = background;
    c.compute = phaseColor(Phase::Compute).rgb();
    c.exchange = phaseColor(Phase::Exchange).rgb();
    QPalette around;
    around.setColor(QPalette::Window, QColor(background)); // what phaseColor reads
    c.sync = phaseColor(Phase::Sync, around).rgb();
    c.computeShade = blend(c.compute, c.sync, 0.55);
    c.exchangeShade = blend(c.exchange, c.sync, 0.55);
    return c;
}

std::vector<Cell> foldCells(const TimelineFrame& frame, const TimeMapping& mapping, double dpr,
                            double minPx) {
    std::vector<Cell> cells;
    auto dev = [&](std::uint64_t cycle) {
        return static_cast<int>(std::floor(mapping.toPixel(static_cast<double>(cycle)) * dpr));
    };
    const double minDev = minPx * dpr;
    Cell fold;
    bool folding = false;
    auto flush = [&] {
        if (folding) {
            fold.x1 = std::max(fold.x1, fold.x0 + 1);
            cells.push_back(fold);
            folding = false;
        }
    };
    for (std::size_t i = frame.firstItemAfter(mapping.start()); i < frame.items.size(); ++i) {
        const TimelineItem& item = frame.items[i];
        if (static_cast<double>(item.startCycle) >= mapping.end()) {
            break;
        }
        const int x0 = dev(item.startCycle);
        const int x1 = dev(item.endCycle());
        if (x1 - x0 >= minDev) {
            flush();
            cells.push_back({i, i + 1, x0, x1, item.steps == 1 && x1 - x0 >= kExactMinPx * dpr});
            continue;
        }
        if (!folding) {
            fold = {i, i, x0, x0, false};
            folding = true;
        }
        fold.end = i + 1;
        fold.x1 = x1;
        if (fold.x1 - fold.x0 >= minDev) {
            flush();
        }
    }
    flush();
    return cells;
}

RowFigures rowFigures(const TimelineFrame& frame, const TimelineRow& row, std::size_t first,
                      std::size_t end) {
    RowFigures f;
    const bool perTile = row.kind == RowKind::Tile && frame.hasTiles(row.firstTile, 1);
    const std::uint32_t allEntry = frame.groups;
    for (std::size_t i = first; i < end && i < frame.items.size(); ++i) {
        const TimelineItem& item = frame.items[i];
        f.cycles += static_cast<double>(item.cycles);
        f.computePhase += static_cast<double>(item.computePhase);
        f.exchangePhase += static_cast<double>(item.exchangePhase);
        f.syncPhase += static_cast<double>(item.syncPhase);
        if (perTile) {
            const TileCycles& t =
                frame.tiles[i * frame.tileCount + (row.firstTile - frame.tileFirst)];
            f.compute += static_cast<double>(t.compute);
            f.exchange += static_cast<double>(t.exchange);
            f.sync += static_cast<double>(t.sync);
            f.computeMin += static_cast<double>(t.compute);
            f.computeMax += static_cast<double>(t.compute);
            f.exchangeMin += static_cast<double>(t.exchange);
            f.exchangeMax += static_cast<double>(t.exchange);
            continue;
        }
        const reports::LodBucket* s = item.stats;
        if (!s || s->compute.size() <= allEntry) {
            continue;
        }
        double unused = 0;
        if (row.kind == RowKind::AllTiles && row.groupCount == 0) {
            add(f.computeMin, f.computeMax, f.compute, s->compute[allEntry]);
            add(f.exchangeMin, f.exchangeMax, f.exchange, s->exchange[allEntry]);
            add(unused, unused, f.sync, s->sync[allEntry]);
            continue;
        }
        // Min / max over several groups: the extremes, not sums.
        double cMin = 1e300, cMax = 0, eMin = 1e300, eMax = 0;
        for (std::uint32_t g = row.firstGroup; g < row.firstGroup + row.groupCount && g < allEntry;
             ++g) {
            f.compute += static_cast<double>(s->compute[g].sum);
            f.exchange += static_cast<double>(s->exchange[g].sum);
            f.sync += static_cast<double>(s->sync[g].sum);
            cMin = std::min(cMin, static_cast<double>(s->compute[g].min));
            cMax = std::max(cMax, static_cast<double>(s->compute[g].max));
            eMin = std::min(eMin, static_cast<double>(s->exchange[g].min));
            eMax = std::max(eMax, static_cast<double>(s->exchange[g].max));
        }
        if (cMax > 0 || cMin < 1e300) {
            f.computeMin += cMin < 1e300 ? cMin : 0;
            f.computeMax += cMax;
            f.exchangeMin += eMin < 1e300 ? eMin : 0;
            f.exchangeMax += eMax;
        }
    }
    f.perTile = perTile;
    if (row.kind == RowKind::AllTiles) {
        f.tiles = row.groupCount == 0 ? frame.numTiles : row.tileCount; // one IPU's, if bounded
    } else if (perTile) {
        f.tiles = 1;
    } else {
        // A tile row without per-tile figures shows its group.
        const std::uint32_t t0 = row.firstGroup * frame.groupTiles;
        const std::uint32_t t1 =
            std::min(frame.numTiles, (row.firstGroup + row.groupCount) * frame.groupTiles);
        f.tiles = t1 > t0 ? t1 - t0 : 1;
    }
    return f;
}

PaintStats renderRows(QImage& image, double dpr, const TimelineFrame& frame,
                      const TimeMapping& mapping, const RowLayout& layout,
                      const TimelineColors& colors) {
    PaintStats stats;
    image.fill(colors.background);
    Raster raster(image);
    const std::vector<Cell> cells = foldCells(frame, mapping, dpr);
    stats.cells = static_cast<int>(cells.size());
    auto dev = [&](double cycle) {
        return static_cast<int>(std::floor(mapping.toPixel(cycle) * dpr));
    };
    for (const TimelineRow& row : layout.rows) {
        const int gap = row.height >= 6 ? 1 : 0;
        const int y0 = static_cast<int>(std::lround(row.y * dpr));
        const int y1 = static_cast<int>(std::lround((row.y + row.height - gap) * dpr));
        if (y1 <= y0) {
            continue;
        }
        ++stats.rows;
        const bool all = row.kind == RowKind::AllTiles;
        for (const Cell& cell : cells) {
            const RowFigures f = rowFigures(frame, row, cell.first, cell.end);
            ++stats.items;
            stats.foldedCells += cell.end - cell.first > 1 ? 1 : 0;
            if (cell.exact) {
                const TimelineItem& item = frame.items[cell.first];
                // A step wide enough gets a hairline gap before it.
                const int x0 = cell.x0 + (cell.x1 - cell.x0 >= 8 * dpr ? 1 : 0);
                const double s = static_cast<double>(item.startCycle);
                const double a = s + f.syncPhase;
                const double b = a + f.exchangePhase;
                const int xa = std::max(x0, dev(a));
                const int xb = std::max(xa, dev(b));
                raster.fill(x0, xa, y0, y1, colors.sync);
                if (all) {
                    raster.fill(xa, xb, y0, y1, colors.exchange);
                    raster.fill(xb, cell.x1, y0, y1, colors.compute);
                    continue;
                }
                // Busy from the phase start for the least busy tile (solid),
                // up to the busiest (shade); idle (sync) after.
                auto phase = [&](int xs, int xe, double start, double min, double max, QRgb full,
                                 QRgb shade) {
                    const int xm = std::clamp(dev(start + min), xs, xe);
                    const int xM = std::clamp(dev(start + max), xm, xe);
                    raster.fill(xs, xm, y0, y1, full);
                    raster.fill(xm, xM, y0, y1, shade);
                    raster.fill(xM, xe, y0, y1, colors.sync);
                };
                phase(xa, xb, a, f.exchangeMin, f.exchangeMax, colors.exchange,
                      colors.exchangeShade);
                phase(xb, cell.x1, b, f.computeMin, f.computeMax, colors.compute,
                      colors.computeShade);
                continue;
            }
            // Proportions, stacked from the bottom: compute, exchange, sync.
            double fc = 0, fe = 0;
            if (f.cycles > 0) {
                fc = all ? f.computePhase / f.cycles : f.compute / (f.tiles * f.cycles);
                fe = all ? f.exchangePhase / f.cycles : f.exchange / (f.tiles * f.cycles);
            }
            const int h = y1 - y0;
            const int hc = std::clamp(static_cast<int>(std::lround(fc * h)), 0, h);
            const int he = std::clamp(static_cast<int>(std::lround((fc + fe) * h)) - hc, 0, h - hc);
            raster.fill(cell.x0, cell.x1, y1 - hc, y1, colors.compute);
            raster.fill(cell.x0, cell.x1, y1 - hc - he, y1 - hc, colors.exchange);
            raster.fill(cell.x0, cell.x1, y0, y1 - hc - he, colors.sync);
        }
    }
    stats.rects = raster.rects;
    return stats;
}

void dimColumnsOutside(QImage& image, double dpr, const std::vector<ColumnSpan>& lit, QRgb toward,
                       int alpha) {
    const int width = image.width();
    const auto device = [dpr, width](int x) {
        return std::clamp(static_cast<int>(std::lround(x * dpr)), 0, width);
    };
    // The device columns to dim: the gaps between the lit spans.
    std::vector<ColumnSpan> dim;
    int from = 0;
    for (const ColumnSpan& s : lit) {
        const int begin = device(s.begin);
        if (begin > from) {
            dim.push_back({from, begin});
        }
        from = std::max(from, device(s.end));
    }
    if (from < width) {
        dim.push_back({from, width});
    }
    const int keep = 255 - alpha;
    const int r = qRed(toward) * alpha, g = qGreen(toward) * alpha, b = qBlue(toward) * alpha;
    for (int y = 0; y < image.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (const ColumnSpan& span : dim) {
            for (int x = span.begin; x < span.end; ++x) {
                const QRgb p = line[x];
                line[x] = qRgb((qRed(p) * keep + r) / 255, (qGreen(p) * keep + g) / 255,
                               (qBlue(p) * keep + b) / 255);
            }
        }
    }
}

} // namespace tessera::views::execution
