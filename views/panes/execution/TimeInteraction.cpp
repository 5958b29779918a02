#include "views/panes/execution/TimeInteraction.h"

#include "views/panes/execution/Viewport.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <QWidget>

#include <cmath>

namespace tessera::views::execution {

namespace {
constexpr int kDragThresholdPx = 4;          // smaller movements are a click
constexpr double kZoomPerWheelUnit = 1.0015; // 120 units (one notch): about x1.2
} // namespace

bool showToolTip(QWidget* widget, QEvent* event, const std::function<QString(QPoint)>& textAt) {
    if (event->type() != QEvent::ToolTip) {
        return false;
    }
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = textAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, widget);
    }
    return true;
}

bool keyTime(Viewport& viewport, const QKeyEvent& event, double pixel) {
    if (event.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) {
        return false; // the window's shortcuts
    }
    const double width = viewport.time().width();
    const double about = pixel >= 0 && pixel <= width ? pixel : width / 2;
    switch (event.key()) {
    case Qt::Key_W:
    case Qt::Key_Up:
        viewport.zoomAbout(about, kKeyZoom);
        return true;
    case Qt::Key_S:
    case Qt::Key_Down:
        viewport.zoomAbout(about, 1 / kKeyZoom);
        return true;
    case Qt::Key_A:
    case Qt::Key_Left:
        viewport.dragBy(width * kKeyPan);
        return true;
    case Qt::Key_D:
    case Qt::Key_Right:
        viewport.dragBy(-width * kKeyPan);
        return true;
    case Qt::Key_Home:
        viewport.reset();
        return true;
    default:
        return false;
    }
}

void wheelTime(Viewport& viewport, const QWheelEvent& event, int plotLeft) {
    const int dy = event.angleDelta().y();
    const int dx = event.angleDelta().x();
    if ((event.modifiers() & Qt::ShiftModifier) || dx != 0) {
        viewport.dragBy((dx != 0 ? dx : dy) * 0.5);
    } else if (dy != 0) {
        viewport.zoomAbout(event.position().x() - plotLeft, std::pow(kZoomPerWheelUnit, dy));
    }
}

void DragTracker::press(const QMouseEvent& event) {
    if (event.button() == Qt::LeftButton) {
        pressed_ = true;
        dragging_ = false;
        pressPos_ = lastPos_ = event.position().toPoint();
    }
}

std::optional<QPoint> DragTracker::move(QWidget* widget, QPoint pos) {
    if (!pressed_) {
        return std::nullopt;
    }
    if (!dragging_ && (pos - pressPos_).manhattanLength() >= kDragThresholdPx) {
        dragging_ = true;
        widget->setCursor(Qt::ClosedHandCursor);
    }
    if (!dragging_) {
        return std::nullopt;
    }
    const QPoint delta = pos - lastPos_;
    lastPos_ = pos;
    return delta;
}

bool DragTracker::release(QWidget* widget, const QMouseEvent& event) {
    if (event.button() != Qt::LeftButton || !pressed_) {
        return false;
    }
    pressed_ = false;
    widget->setCursor(Qt::OpenHandCursor);
    const bool click = !dragging_;
    dragging_ = false;
    return click;
}

} // namespace tessera::views::execution
