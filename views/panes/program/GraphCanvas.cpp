#include "views/panes/program/GraphCanvas.h"

#include "views/panes/program/GraphItems.h"

#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 4.0;
} // namespace

GraphCanvas::GraphCanvas(QWidget* parent)
    : QGraphicsView(parent) {
    setObjectName("dataflowCanvas");
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
    setFrameShape(QFrame::NoFrame);
}

void GraphCanvas::zoomBy(double factor) {
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    const double applied = target / zoom();
    scale(applied, applied);
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0) {
        zoomBy(std::pow(1.15, steps));
    }
    event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
    pressPos_ = event->pos();
    pressedNode_ = -1;
    for (QGraphicsItem* item : items(event->pos())) {
        if (item->type() == GraphNodeItem::Type) {
            pressedNode_ = static_cast<GraphNodeItem*>(item)->index();
            break;
        }
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && pressedNode_ >= 0 &&
        (event->pos() - pressPos_).manhattanLength() < 5) {
        emit nodeClicked(pressedNode_);
    }
    pressedNode_ = -1;
}

} // namespace tessera::views
