#pragma once
// A compact strip under the flame view: for the visible range and for the
// selected step, the cycles, the compute / exchange / sync proportions (a
// stacked bar) and the tile balance (mean over max compute).
#include "reports/Figures.h"

#include <QString>
#include <QWidget>

namespace tessera::views::execution {

struct StripFigures {
    bool valid = false;
    QString scope; // "Visible", "Step phase0"
    double cycles = 0;
    double steps = 0;
    double compute = 0; // phase cycles
    double exchange = 0;
    double sync = 0;
    double meanCompute = 0; // per tile
    double maxCompute = 0;  // the busiest tile's (sum of compute phases)
    double balance() const { return reports::tileBalance(meanCompute, maxCompute); }
};

class SummaryStrip : public QWidget {
    Q_OBJECT

public:
    explicit SummaryStrip(QWidget* parent = nullptr);

    void setClockHz(double clockHz);
    void setFigures(const StripFigures& visible, const StripFigures& selected);
    const StripFigures& visible() const { return visible_; }
    const StripFigures& selected() const { return selected_; }

    QSize sizeHint() const override;
    // Narrower than its hint it cuts its text: it must not hold the window wide.
    QSize minimumSizeHint() const override { return {320, sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void paintLine(class QPainter& painter, const QRect& rect, const StripFigures& f);

    double clockHz_ = 0;
    StripFigures visible_;
    StripFigures selected_;
};

} // namespace tessera::views::execution
