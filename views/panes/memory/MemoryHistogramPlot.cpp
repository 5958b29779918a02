#include "views/panes/memory/MemoryHistogramPlot.h"

#include "views/common/Colors.h"
#include "views/common/PlotStyle.h"

#include <algorithm>

namespace tessera::views {

MemoryHistogramPlot::MemoryHistogramPlot(QWidget* parent)
    : QCustomPlot(parent) {
    setObjectName("memoryHistogram");
    setMinimumHeight(150);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteAxisTicker));
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new IntegerAxisTicker));
    xAxis->setLabel("Memory used by a tile (including gaps)");
    yAxis->setLabel("Tiles");
    bars_ = new QCPBars(xAxis, yAxis);
    bars_->setName("tiles");
    bars_->setBrush(heatColor(0.45));
    bars_->setPen(QPen(heatColor(0.45).darker(130), 1));
    bars_->setSelectable(QCP::stNone);
    capacityLine_ = new QCPItemStraightLine(this);
    capacityLine_->setPen(QPen(capacityLineColor(), 1.5, Qt::DashLine));
    capacityLabel_ = new QCPItemText(this);
    capacityLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    capacityLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    capacityLabel_->setColor(capacityLineColor());
    capacityLabel_->setPadding(QMargins(4, 2, 4, 2));
    applyPlotPalette(this, palette());
}

void MemoryHistogramPlot::setHistogram(const MemoryHistogram& h) {
    QVector<double> keys, values;
    const double w = static_cast<double>(h.binWidth);
    double most = 1;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        keys << static_cast<double>(h.lower) + (static_cast<double>(i) + 0.5) * w;
        values << static_cast<double>(h.counts[i]);
        most = std::max(most, values.back());
    }
    bars_->setData(keys, values, true);
    bars_->setWidth(w * 0.9);
    xAxis->setRange(static_cast<double>(h.lower), std::max(1.0, h.upper()));
    yAxis->setRange(0, most * 1.12);
    const double cap = static_cast<double>(h.capacity);
    const bool show = h.capacity > 0 && cap <= h.upper();
    capacityLine_->setVisible(show);
    capacityLabel_->setVisible(show);
    capacityLine_->point1->setCoords(cap, 0);
    capacityLine_->point2->setCoords(cap, 1);
    capacityLabel_->position->setCoords(cap, 0.0);
    capacityLabel_->setText("capacity " + formatBytesShort(cap));
    replot();
}

void MemoryHistogramPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPlotPalette(this, palette());
        replot();
    }
}

} // namespace tessera::views
