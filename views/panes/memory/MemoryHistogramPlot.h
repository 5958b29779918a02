#pragma once
// A histogram of memory across tiles: how many tiles use how many bytes,
// with the tile capacity marked when it is on the scale.
#include "views/models/SummaryInsights.h"

#include <qcustomplot.h>

namespace tessera::views {

class MemoryHistogramPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit MemoryHistogramPlot(QWidget* parent = nullptr);

    void setHistogram(const MemoryHistogram& histogram);
    QCPBars* bars() const { return bars_; }
    QCPItemStraightLine* capacityLine() const { return capacityLine_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    QCPBars* bars_ = nullptr;
    QCPItemStraightLine* capacityLine_ = nullptr;
    QCPItemText* capacityLabel_ = nullptr;
};

} // namespace tessera::views
