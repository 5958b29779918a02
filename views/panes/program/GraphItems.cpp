#include "views/panes/program/GraphItems.h"

#include "views/common/Colors.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace tessera::views {

namespace {

constexpr double kMarkMargin = 5;
constexpr double kArrowLength = 8;
constexpr double kArrowHalfWidth = 4;

// Black or white, whichever reads better on `fill`.
QColor textOn(const QColor& fill) {
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance < 0.45 ? QColor(Qt::white) : QColor(0x1a, 0x1a, 0x1a);
}

} // namespace

QFont GraphNodeItem::labelFont() {
    QFont f;
    f.setPointSizeF(9);
    return f;
}

GraphNodeItem::GraphNodeItem(int index, Shape shape, const QSizeF& size, const QString& label)
    : index_(index)
    , shape_(shape)
    , rect_(-size.width() / 2, -size.height() / 2, size.width(), size.height()) {
    const QFontMetricsF metrics(labelFont());
    label_ = metrics.elidedText(label, Qt::ElideLeft, size.width() - 14);
    setAcceptHoverEvents(false);
}

void GraphNodeItem::setFill(const QColor& fill) {
    fill_ = fill;
    update();
}

void GraphNodeItem::setBorder(const QColor& border, Qt::PenStyle style) {
    border_ = border;
    borderStyle_ = style;
    update();
}

void GraphNodeItem::setMarked(bool selected, bool matched) {
    if (selected != selected_ || matched != matched_) {
        selected_ = selected;
        matched_ = matched;
        setZValue(selected ? 2 : matched ? 1 : 0);
        update();
    }
}

QPainterPath GraphNodeItem::outline(const QRectF& r) const {
    QPainterPath p;
    switch (shape_) {
    case Shape::Tensor:
        p.addEllipse(r);
        break;
    case Shape::Copy:
        p.addRoundedRect(r, 3, 3);
        break;
    case Shape::ComputeSet:
        p.addRoundedRect(r, r.height() / 3, r.height() / 3);
        break;
    }
    return p;
}

QRectF GraphNodeItem::boundingRect() const {
    return rect_.adjusted(-kMarkMargin, -kMarkMargin, kMarkMargin, kMarkMargin);
}

QPainterPath GraphNodeItem::shape() const {
    return outline(rect_);
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (selected_ || matched_) {
        const QColor mark = selected_ ? selectionColor() : QColor(0xe7, 0x29, 0x8a);
        painter->setPen(QPen(mark, selected_ ? 4 : 3, selected_ ? Qt::SolidLine : Qt::DashLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(outline(rect_.adjusted(-3, -3, 3, 3)));
    }
    QPen pen(border_, 1.5, borderStyle_);
    pen.setCosmetic(lod < 0.5);
    painter->setPen(pen);
    painter->setBrush(fill_);
    painter->drawPath(outline(rect_));
    if (lod >= 0.4 && !label_.isEmpty()) {
        painter->setFont(labelFont());
        painter->setPen(textOn(fill_));
        painter->drawText(rect_.adjusted(7, 0, -7, 0), Qt::AlignCenter, label_);
    }
}

GraphEdgeItem::GraphEdgeItem(const std::vector<QPointF>& points) {
    setZValue(-1);
    if (points.size() < 2) {
        return;
    }
    // Stop the curve at the arrowhead's base so the line does not poke through.
    std::vector<QPointF> pts = points;
    const bool down = pts.back().y() >= pts[pts.size() - 2].y();
    const QPointF tip = pts.back();
    const QPointF base = tip + QPointF(0, down ? -kArrowLength : kArrowLength);
    pts.back() = base;
    path_.moveTo(pts.front());
    for (std::size_t i = 1; i < pts.size(); ++i) {
        const QPointF a = pts[i - 1];
        const QPointF b = pts[i];
        const double dy = (b.y() - a.y()) / 2;
        path_.cubicTo(a + QPointF(0, dy), b - QPointF(0, dy), b);
    }
    arrow_ << tip << base + QPointF(-kArrowHalfWidth, 0) << base + QPointF(kArrowHalfWidth, 0);
}

void GraphEdgeItem::setColor(const QColor& color) {
    color_ = color;
    update();
}

void GraphEdgeItem::setHighlighted(bool highlighted) {
    if (highlighted != highlighted_) {
        highlighted_ = highlighted;
        setZValue(highlighted ? -0.5 : -1);
        update();
    }
}

QRectF GraphEdgeItem::boundingRect() const {
    return path_.boundingRect().united(arrow_.boundingRect()).adjusted(-3, -3, 3, 3);
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->setRenderHint(QPainter::Antialiasing, true);
    const QColor c = highlighted_ ? selectionColor().darker(110) : color_;
    QPen pen(c, highlighted_ ? 2.4 : 1.3);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    painter->setPen(Qt::NoPen);
    painter->setBrush(c);
    painter->drawPolygon(arrow_);
}

} // namespace tessera::views
