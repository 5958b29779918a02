#pragma once
// What the timeline and the flame view do alike with the mouse: tool tips
// from a text-at-position function, wheel to zoom about the pointer (Shift or
// a horizontal wheel pans), and a left-button drag that pans once it passes a
// small threshold, a release without a drag being a click.
#include <QPoint>
#include <QString>

#include <functional>
#include <optional>

class QEvent;
class QKeyEvent;
class QMouseEvent;
class QWheelEvent;
class QWidget;

namespace tessera::views::execution {

class Viewport;

// Handles a QEvent::ToolTip (returns true); any other event: false.
bool showToolTip(QWidget* widget, QEvent* event, const std::function<QString(QPoint)>& textAt);

// Pans or zooms the time axis; `plotLeft` is where time 0 of the view is drawn.
void wheelTime(Viewport& viewport, const QWheelEvent& event, int plotLeft);

// Keyboard navigation (as in PopVision and Tracy): W / Up zoom in and S /
// Down zoom out by kKeyZoom about `pixel` (the pointer over the plot) or the
// view's centre when `pixel` < 0; A / Left and D / Right pan by kKeyPan of
// the view; Home shows the whole run. True when the key was one of these.
inline constexpr double kKeyZoom = 1.5;
inline constexpr double kKeyPan = 0.1;
bool keyTime(Viewport& viewport, const QKeyEvent& event, double pixel = -1);

class DragTracker {
public:
    void press(const QMouseEvent& event); // left button only
    // While the button is down: the movement since the last call once the
    // drag has started (the widget's cursor shows a closed hand), else none.
    std::optional<QPoint> move(QWidget* widget, QPoint pos);
    // True when this left-button release ends a click rather than a drag.
    bool release(QWidget* widget, const QMouseEvent& event);

private:
    QPoint pressPos_;
    QPoint lastPos_;
    bool pressed_ = false;
    bool dragging_ = false;
};

} // namespace tessera::views::execution
