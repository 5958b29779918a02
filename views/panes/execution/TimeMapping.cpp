#include "views/panes/execution/TimeMapping.h"

#include <algorithm>
#include <cmath>

namespace tessera::views::execution {

void TimeMapping::setBounds(double begin, double end) {
    boundsBegin_ = begin;
    boundsEnd_ = std::max(end, begin + 1.0);
    if (!hasBounds_ || start_ < boundsBegin_ || end_ > boundsEnd_ || end_ <= start_) {
        start_ = boundsBegin_;
        end_ = boundsEnd_;
    }
    hasBounds_ = true;
    clamp();
}

void TimeMapping::setWidth(double pixels) {
    width_ = std::max(pixels, 1.0);
    clamp();
}

void TimeMapping::setVisible(double start, double end) {
    start_ = start;
    end_ = end;
    clamp();
}

void TimeMapping::reset() {
    start_ = boundsBegin_;
    end_ = boundsEnd_;
}

double TimeMapping::minSpan() const {
    return std::min(boundsEnd_ - boundsBegin_, std::max(1.0, width_ / kMaxPixelsPerCycle));
}

void TimeMapping::zoomAbout(double pixel, double factor) {
    if (!(factor > 0)) {
        return;
    }
    const double anchor = toCycle(pixel);
    const double fraction = pixel / width_;
    const double newSpan = std::clamp(span() / factor, minSpan(), boundsEnd_ - boundsBegin_);
    start_ = anchor - fraction * newSpan;
    end_ = start_ + newSpan;
    clamp();
}

void TimeMapping::dragBy(double dxPixels) {
    const double shift = -dxPixels * cyclesPerPixel();
    start_ += shift;
    end_ += shift;
    clamp();
}

void TimeMapping::centreOn(double cycle) {
    const double s = span();
    start_ = cycle - s / 2;
    end_ = start_ + s;
    clamp();
}

void TimeMapping::clamp() {
    const double bounds = boundsEnd_ - boundsBegin_;
    double s = std::clamp(end_ - start_, minSpan(), bounds);
    if (s > bounds * (1 - 1e-12)) {
        s = bounds; // rounding must not leave a sliver of the run out
    }
    if (!std::isfinite(start_)) {
        start_ = boundsBegin_;
    }
    start_ = std::clamp(start_, boundsBegin_, boundsEnd_ - s);
    end_ = start_ + s;
}

std::uint32_t chooseLodLevel(const std::vector<reports::LodLevel>& levels, double visibleSteps,
                             double widthPx, double minBucketPx) {
    if (levels.empty()) {
        return 0;
    }
    const double maxBuckets = std::max(widthPx, 1.0) / std::max(minBucketPx, 1e-9);
    for (const reports::LodLevel& level : levels) {
        const double buckets =
            visibleSteps / static_cast<double>(std::max<std::uint64_t>(level.bucketSteps, 1));
        if (buckets <= maxBuckets) {
            return level.level;
        }
    }
    return levels.back().level;
}

double niceTickStep(double cyclesPerPixel, double minSpacingPx) {
    const double raw = std::max(cyclesPerPixel * minSpacingPx, 1.0);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * decade >= raw - 1e-9 * raw) {
            return m * decade;
        }
    }
    return 10 * decade;
}

std::vector<double> tickCycles(const TimeMapping& mapping, double origin, double minSpacingPx) {
    std::vector<double> out;
    const double step = niceTickStep(mapping.cyclesPerPixel(), minSpacingPx);
    double k = std::ceil((mapping.start() - origin) / step);
    for (double c = origin + k * step; c <= mapping.end() && out.size() < 1000;
         c = origin + (++k) * step) {
        out.push_back(c);
    }
    return out;
}

} // namespace tessera::views::execution
