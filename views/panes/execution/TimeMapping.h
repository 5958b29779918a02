#pragma once
// The x axis of the execution timeline: a visible range of cycles
// [start, end) shown across [0, width) pixels, inside the bounds of a run.
// Zoom about a point, pan, clamp; plus the level-of-detail choice and ruler
// ticks that follow from it. Pure math, no Qt.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <vector>

namespace tessera::views::execution {

// A bucket (or a folded run of steps) is drawn at least this wide.
inline constexpr double kMinBucketPx = 2.5;
// The deepest zoom: one cycle at most this many pixels wide.
inline constexpr double kMaxPixelsPerCycle = 32.0;

class TimeMapping {
public:
    // The run: [begin, end) cycles. An empty run becomes [begin, begin + 1).
    // The first call shows everything; later ones keep the visible range
    // when it still fits.
    void setBounds(double begin, double end);
    void setWidth(double pixels);              // at least one pixel
    void setVisible(double start, double end); // clamped into the bounds
    void reset();                              // visible = bounds

    double boundsBegin() const { return boundsBegin_; }
    double boundsEnd() const { return boundsEnd_; }
    double start() const { return start_; }
    double end() const { return end_; }
    double span() const { return end_ - start_; }
    double width() const { return width_; }
    double cyclesPerPixel() const { return span() / width_; }
    double minSpan() const; // the deepest zoom for this width
    bool isReset() const { return start_ <= boundsBegin_ && end_ >= boundsEnd_; }

    double toPixel(double cycle) const { return (cycle - start_) * width_ / span(); }
    double toCycle(double pixel) const { return start_ + pixel * span() / width_; }

    // factor > 1 zooms in. The cycle under `pixel` stays under it unless the
    // bounds stop the view.
    void zoomAbout(double pixel, double factor);
    // Drags the content by dx pixels (positive: towards the right, showing
    // earlier cycles), as a hand would.
    void dragBy(double dxPixels);
    // Centres the view on `cycle` keeping the zoom.
    void centreOn(double cycle);

private:
    void clamp();

    double boundsBegin_ = 0;
    double boundsEnd_ = 1;
    double start_ = 0;
    double end_ = 1;
    double width_ = 1;
    bool hasBounds_ = false;
};

// The finest level whose buckets are still at least minBucketPx wide on
// average, given how many executed steps are visible across widthPx pixels;
// the coarsest level when none is. levels[0] is level 0 (single steps).
std::uint32_t chooseLodLevel(const std::vector<reports::LodLevel>& levels, double visibleSteps,
                             double widthPx, double minBucketPx = kMinBucketPx);

// A "nice" tick spacing (1, 2 or 5 × 10^k cycles, at least one cycle) so
// that ticks are at least minSpacingPx apart at cyclesPerPixel.
double niceTickStep(double cyclesPerPixel, double minSpacingPx);
// Tick positions (absolute cycles) inside the visible range, on multiples of
// the nice step counted from `origin` (the run's first cycle).
std::vector<double> tickCycles(const TimeMapping& mapping, double origin, double minSpacingPx);

} // namespace tessera::views::execution
