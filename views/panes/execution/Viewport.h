#pragma once
// What part of a run the execution pane shows, shared by the timeline and
// the flame view so they zoom and pan together: the visible cycles (x) and
// the visible tiles (rows of the timeline).
#include "views/panes/execution/TimeMapping.h"

#include <QObject>

#include <cstdint>

namespace tessera::views::execution {

class Viewport : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    const TimeMapping& time() const { return time_; }
    std::uint32_t numTiles() const { return numTiles_; }
    std::uint32_t tileFirst() const { return tileFirst_; }
    std::uint32_t tileCount() const { return tileCount_; }
    // The tiles the rows may show (one IPU's, or all): tile zoom, scroll and
    // reset stay inside them.
    std::uint32_t boundFirst() const { return boundFirst_; }
    std::uint32_t boundCount() const { return boundCount_; }

    // A new run: bounds in cycles and the number of tiles; shows all of it.
    void setRun(double begin, double end, std::uint32_t numTiles);
    void setWidth(double pixels); // no signal: the widget resizing asks for a repaint itself

    void setVisible(double start, double end);
    void zoomAbout(double pixel, double factor);
    void zoomCentre(double factor) { zoomAbout(time_.width() / 2, factor); }
    void dragBy(double dxPixels);
    void centreOn(double cycle);
    void reset(); // all cycles and all tiles

    void setTiles(std::uint32_t first, std::uint32_t count); // clamped to the bounds
    // Limits the rows to tiles [first, first + count) and shows all of them.
    void setTileBounds(std::uint32_t first, std::uint32_t count);
    // Zooms the tile axis about `tile` (factor > 1 shows fewer tiles).
    void zoomTiles(double tile, double factor);
    void scrollTiles(double tiles);

signals:
    void changed();

private:
    TimeMapping time_;
    std::uint32_t numTiles_ = 0;
    std::uint32_t tileFirst_ = 0;
    std::uint32_t tileCount_ = 0;
    std::uint32_t boundFirst_ = 0;
    std::uint32_t boundCount_ = 0;
    double tileScroll_ = 0; // fractional scroll not yet applied
};

} // namespace tessera::views::execution
