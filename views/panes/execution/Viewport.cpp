#include "views/panes/execution/Viewport.h"

#include <algorithm>
#include <cmath>

namespace tessera::views::execution {

void Viewport::setRun(double begin, double end, std::uint32_t numTiles) {
    time_.setBounds(begin, end);
    time_.reset();
    numTiles_ = numTiles;
    boundFirst_ = 0;
    boundCount_ = numTiles;
    tileFirst_ = 0;
    tileCount_ = numTiles;
    emit changed();
}

void Viewport::setWidth(double pixels) {
    time_.setWidth(pixels);
}

void Viewport::setVisible(double start, double end) {
    time_.setVisible(start, end);
    emit changed();
}

void Viewport::zoomAbout(double pixel, double factor) {
    time_.zoomAbout(pixel, factor);
    emit changed();
}

void Viewport::dragBy(double dxPixels) {
    time_.dragBy(dxPixels);
    emit changed();
}

void Viewport::centreOn(double cycle) {
    time_.centreOn(cycle);
    emit changed();
}

void Viewport::reset() {
    time_.reset();
    tileFirst_ = boundFirst_;
    tileCount_ = boundCount_;
    emit changed();
}

void Viewport::setTiles(std::uint32_t first, std::uint32_t count) {
    count = std::clamp<std::uint32_t>(count, std::min<std::uint32_t>(1, boundCount_), boundCount_);
    first = std::clamp(first, boundFirst_, boundFirst_ + boundCount_ - count);
    if (first != tileFirst_ || count != tileCount_) {
        tileFirst_ = first;
        tileCount_ = count;
        emit changed();
    }
}

void Viewport::setTileBounds(std::uint32_t first, std::uint32_t count) {
    first = std::min(first, numTiles_);
    boundFirst_ = first;
    boundCount_ = std::min(count, numTiles_ - first);
    tileFirst_ = boundFirst_;
    tileCount_ = boundCount_;
    emit changed();
}

void Viewport::zoomTiles(double tile, double factor) {
    if (boundCount_ == 0 || !(factor > 0)) {
        return;
    }
    const double count = std::clamp(tileCount_ / factor, 1.0, static_cast<double>(boundCount_));
    const double fraction = tileCount_ ? (tile - tileFirst_) / tileCount_ : 0.0;
    const double first = tile - fraction * count;
    const auto newCount = static_cast<std::uint32_t>(std::lround(count));
    setTiles(static_cast<std::uint32_t>(std::max(0.0, std::round(first))),
             std::max<std::uint32_t>(newCount, 1));
}

void Viewport::scrollTiles(double tiles) {
    tileScroll_ += tiles;
    const double whole = std::trunc(tileScroll_);
    if (whole == 0) {
        return;
    }
    tileScroll_ -= whole;
    const double first = std::clamp(tileFirst_ + whole, static_cast<double>(boundFirst_),
                                    static_cast<double>(boundFirst_ + boundCount_ - tileCount_));
    setTiles(static_cast<std::uint32_t>(first), tileCount_);
}

} // namespace tessera::views::execution
