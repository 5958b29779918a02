#pragma once
// The items of the dataflow graph scene: a node (a compute set as a rounded
// box, a copy as a box with a dashed border, a tensor as an ellipse) and an
// edge (a smooth curve through the layout's bend points, with an arrowhead).
#include <QColor>
#include <QGraphicsItem>
#include <QPainterPath>

#include <vector>

namespace tessera::views {

class GraphNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 601 };
    enum class Shape { ComputeSet, Copy, Tensor };

    GraphNodeItem(int index, Shape shape, const QSizeF& size, const QString& label);

    int type() const override { return Type; }
    int index() const { return index_; }
    Shape nodeShape() const { return shape_; }
    QRectF rect() const { return rect_; }
    QColor fill() const { return fill_; }

    void setFill(const QColor& fill);
    void setBorder(const QColor& border, Qt::PenStyle style = Qt::SolidLine);
    void setMarked(bool selected, bool matched);

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static QFont labelFont();

private:
    QPainterPath outline(const QRectF& r) const;

    int index_;
    Shape shape_;
    QRectF rect_;
    QString label_;
    QColor fill_ = Qt::white;
    QColor border_ = Qt::darkGray;
    Qt::PenStyle borderStyle_ = Qt::SolidLine;
    bool selected_ = false;
    bool matched_ = false;
};

class GraphEdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 602 };

    // Points run from the source to the target; the curve leaves and enters
    // vertically.
    explicit GraphEdgeItem(const std::vector<QPointF>& points);

    int type() const override { return Type; }
    void setColor(const QColor& color);
    void setHighlighted(bool highlighted);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPainterPath path_;
    QPolygonF arrow_;
    QColor color_ = Qt::gray;
    bool highlighted_ = false;
};

} // namespace tessera::views
