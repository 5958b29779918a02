#pragma once
// The view of the dataflow graph scene: the wheel zooms under the mouse, a
// drag pans, a click on a node reports it.
#include <QGraphicsView>

namespace tessera::views {

class GraphCanvas : public QGraphicsView {
    Q_OBJECT

public:
    explicit GraphCanvas(QWidget* parent = nullptr);

    void zoomBy(double factor);
    double zoom() const { return transform().m11(); }

signals:
    void nodeClicked(int index);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QPoint pressPos_;
    int pressedNode_ = -1;
};

} // namespace tessera::views
