#pragma once
// A small horizontal colour ramp (views/common/Colors.h heatColor) with the
// metric's name and its range, for the dataflow graph's colouring.
#include <QWidget>

namespace tessera::views {

class HeatLegend : public QWidget {
public:
    explicit HeatLegend(QWidget* parent = nullptr);

    void setRange(const QString& title, const QString& low, const QString& high);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString title_, low_, high_;
};

} // namespace tessera::views
