#include "views/panes/memory/TileMemoryPlot.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/PlotStyle.h"
#include "views/data/ReportData.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tessera::views {

TileMemoryPlot::TileMemoryPlot(QWidget* parent)
    : QCustomPlot(parent) {
    setObjectName("memoryPerTilePlot");
    setNotAntialiasedElements(QCP::aePlottables | QCP::aeGrid | QCP::aeAxes);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new IntegerAxisTicker));
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteAxisTicker));
    xAxis->setLabel("Tile");
    yAxis->setLabel("Memory");
    // The legend in a row above the axis rect, so it never covers bars.
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(6);
    legend->setIconSize(12, 12);
    legend->setRowSpacing(0);
    legend->setColumnSpacing(10);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setMargins(QMargins(6, 3, 6, 3));

    capacityLine_ = new QCPItemStraightLine(this);
    capacityLine_->setObjectName("capacityLine");
    capacityLine_->setPen(QPen(capacityLineColor(), 1.5, Qt::DashLine));
    capacityLabel_ = new QCPItemText(this);
    capacityLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    capacityLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    capacityLabel_->setColor(capacityLineColor());
    capacityLabel_->setPadding(QMargins(4, 1, 4, 1));
    selectionLine_ = new QCPItemStraightLine(this);
    selectionLine_->setPen(QPen(selectionColor(), 2));
    selectionLine_->setVisible(false);
    selectionLabel_ = new QCPItemText(this);
    selectionLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionLabel_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    selectionLabel_->setPadding(QMargins(3, 1, 3, 1));
    selectionLabel_->setBrush(selectionColor());
    selectionLabel_->setColor(Qt::black);
    selectionLabel_->setVisible(false);
    for (auto* item : {static_cast<QCPAbstractItem*>(capacityLine_),
                       static_cast<QCPAbstractItem*>(capacityLabel_),
                       static_cast<QCPAbstractItem*>(selectionLine_),
                       static_cast<QCPAbstractItem*>(selectionLabel_)}) {
        item->setLayer("overlay");
        item->setSelectable(false);
        item->setClipToAxisRect(true);
    }

    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &TileMemoryPlot::clampXRange);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { pressPos_ = e->pos(); });
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (e->button() == Qt::LeftButton && (e->pos() - pressPos_).manhattanLength() < 4) {
            if (const int tile = tileAt(e->pos()); tile >= 0) {
                emit tileClicked(tile);
            }
        }
    });
    applyPalette();
}

void TileMemoryPlot::setReport(std::shared_ptr<const ReportData> report) {
    data_ = std::move(report);
    selectedTile_ = -1;
    setSelectedRanges({});
    setHighlight({}, {});
    rebuild();
    resetZoom();
}

void TileMemoryPlot::setMode(MemoryPlotMode mode) {
    if (mode != mode_) {
        mode_ = mode;
        rebuild();
    }
}

void TileMemoryPlot::setShowGaps(bool show) {
    if (show != showGaps_) {
        showGaps_ = show;
        rebuild();
    }
}

void TileMemoryPlot::setFitToData(bool fit) {
    if (fit != fitToData_) {
        fitToData_ = fit;
        updateYRange();
        replot();
    }
}

void TileMemoryPlot::rebuild() {
    for (QCPBars* b : bars_) {
        removePlottable(b);
    }
    bars_.clear();
    for (auto* line : ipuLines_) {
        removeItem(line);
    }
    ipuLines_.clear();
    plotData_ = data_ ? buildMemoryPlotData(*data_, mode_, showGaps_) : MemoryPlotData{};
    const std::size_t tiles = data_ ? data_->tileMemory.size() : 0;
    QCPBars* below = nullptr;
    for (const auto& s : plotData_.series) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(s.name);
        bars->setData(plotData_.keys, s.values, true);
        bars->setWidth(tiles > 200 ? 1.0 : 0.8);
        bars->setStackingGap(0);
        bars->setPen(tiles > 200 ? QPen(Qt::NoPen) : QPen(s.color.darker(115), 1));
        bars->setBrush(s.color);
        bars->setSelectable(QCP::stNone);
        if (below) {
            bars->moveAbove(below);
        }
        below = bars;
        bars_.append(bars);
    }
    updateMarkers();
    if (data_ && data_->target.numIpus > 1) {
        for (std::uint32_t ipu = 1; ipu < data_->target.numIpus; ++ipu) {
            auto* line = new QCPItemStraightLine(this);
            const double x = ipu * data_->target.tilesPerIpu - 0.5;
            line->point1->setCoords(x, 0);
            line->point2->setCoords(x, 1);
            line->setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DotLine));
            line->setSelectable(false);
            ipuLines_.append(line);
        }
    }
    const double capacity = data_ ? static_cast<double>(data_->target.bytesPerTile) : 0;
    capacityLine_->point1->setCoords(0, capacity);
    capacityLine_->point2->setCoords(1, capacity);
    capacityLine_->setVisible(capacity > 0);
    capacityLabel_->setText("capacity " + formatBytesShort(capacity));
    capacityLabel_->setVisible(capacity > 0);
    updateYRange();
    replot();
}

void TileMemoryPlot::updateYRange() {
    const double capacity = data_ ? static_cast<double>(data_->target.bytesPerTile) : 0;
    double top = fitToData_ ? plotData_.maxTotal : std::max(plotData_.maxTotal, capacity);
    if (highlight_) {
        for (auto it = highlight_->data()->constBegin(); it != highlight_->data()->constEnd();
             ++it) {
            top = std::max(top, it->value);
        }
    }
    yAxis->setRange(0, std::max(1.0, top * 1.12));
    const double labelY = std::min(capacity, yAxis->range().upper);
    capacityLabel_->position->setCoords(0.995, labelY);
    // Above the line when it is on the scale, hanging from the top when not.
    capacityLabel_->setPositionAlignment(Qt::AlignRight |
                                         (capacity > labelY ? Qt::AlignTop : Qt::AlignBottom));
    capacityLabel_->setText(
        QString("capacity %1%2").arg(formatBytesShort(capacity), capacity > labelY ? " ↑" : ""));
}

void TileMemoryPlot::updateMarkers() {
    if (highlightTiles_.isEmpty()) {
        if (markers_) {
            removePlottable(markers_);
            markers_ = nullptr;
        }
        return;
    }
    if (!markers_) {
        markers_ = new QCPGraph(xAxis, yAxis);
        markers_->setLineStyle(QCPGraph::lsNone);
        markers_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted,
                                                  QPen(selectionColor().darker(160), 1),
                                                  selectionColor(), 9));
        markers_->setLayer("overlay");
        markers_->setSelectable(QCP::stNone);
        markers_->removeFromLegend();
    }
    QVector<double> tops;
    for (double tile : highlightTiles_) {
        double top = 0;
        const auto i = static_cast<qsizetype>(tile);
        for (const auto& series : plotData_.series) {
            top += i < series.values.size() ? series.values[i] : 0;
        }
        tops << top;
    }
    markers_->setData(highlightTiles_, tops);
}

void TileMemoryPlot::clampXRange(const QCPRange& range) {
    const double tiles = data_ ? static_cast<double>(data_->tileMemory.size()) : 1;
    const double lo = -0.5, hi = std::max(0.5, tiles - 0.5);
    // At least three tiles wide, unless there are fewer.
    const double narrowest = std::min(3.0, hi - lo);
    QCPRange r = range;
    if (!(r.size() <= hi - lo)) { // also a NaN range
        r = QCPRange(lo, hi);
    } else if (r.size() < narrowest) {
        const double c = r.center();
        r = QCPRange(c - narrowest / 2, c + narrowest / 2);
    }
    if (r.lower < lo) {
        r += lo - r.lower;
    }
    if (r.upper > hi) {
        r -= r.upper - hi;
    }
    if (r != range && !clamping_) {
        // setRange() signals rangeChanged, which comes back here: once is enough.
        clamping_ = true;
        xAxis->setRange(r);
        clamping_ = false;
    }
}

void TileMemoryPlot::setSelectedTile(int tile) {
    selectedTile_ = tile;
    const bool show =
        tile >= 0 && data_ && static_cast<std::size_t>(tile) < data_->tileMemory.size();
    selectionLine_->setVisible(show);
    selectionLabel_->setVisible(show);
    if (show) {
        selectionLine_->point1->setCoords(tile, 0);
        selectionLine_->point2->setCoords(tile, 1);
        selectionLabel_->position->setCoords(tile, 0.0);
        selectionLabel_->setText(QString("tile %1").arg(tile));
        // Keep the label inside the plot at either end of the tile axis.
        const double tiles = static_cast<double>(data_->tileMemory.size());
        const Qt::Alignment h = tile < tiles * 0.1   ? Qt::AlignLeft
                                : tile > tiles * 0.9 ? Qt::AlignRight
                                                     : Qt::AlignHCenter;
        selectionLabel_->setPositionAlignment(h | Qt::AlignTop);
    }
    replot();
}

void TileMemoryPlot::setSelectedRanges(const std::vector<std::pair<int, int>>& ranges) {
    for (auto* item : rangeItems_) {
        removeItem(item);
    }
    rangeItems_.clear();
    // Behind the bars, the full height of the plot: each range's tiles stand out.
    QColor fill = selectionColor();
    fill.setAlpha(70);
    for (const auto& [first, last] : ranges) {
        auto* rect = new QCPItemRect(this);
        rect->setLayer("grid");
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(first - 0.5, 0.0);
        rect->bottomRight->setCoords(last + 0.5, 1.0);
        rect->setPen(QPen(selectionColor(), 1));
        rect->setBrush(fill);
        rect->setSelectable(false);
        rangeItems_ << rect;
    }
    replot();
}

void TileMemoryPlot::setHighlight(
    const QString& name, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& tiles) {
    if (highlight_) {
        removePlottable(highlight_);
        highlight_ = nullptr;
    }
    highlightTiles_.clear();
    for (const auto& entry : tiles) {
        highlightTiles_ << entry.first;
    }
    if (!tiles.empty()) {
        highlight_ = new QCPBars(xAxis, yAxis);
        highlight_->setName(name);
        QVector<double> keys, values;
        for (const auto& [tile, bytes] : tiles) {
            keys << tile;
            values << static_cast<double>(bytes);
        }
        highlight_->setData(keys, values);
        highlight_->setWidth(data_ && data_->tileMemory.size() > 200 ? 1.0 : 0.5);
        highlight_->setWidthType(QCPBars::wtPlotCoords);
        QColor fill = selectionColor();
        fill.setAlpha(210);
        highlight_->setBrush(fill);
        highlight_->setPen(QPen(selectionColor().darker(140), 1));
        highlight_->setLayer("overlay");
        highlight_->setSelectable(QCP::stNone);
    }
    updateMarkers();
    updateYRange();
    replot();
}

int TileMemoryPlot::tileAt(const QPoint& pos) const {
    if (!data_ || !axisRect()->rect().contains(pos)) {
        return -1;
    }
    const auto tile = static_cast<long long>(std::lround(xAxis->pixelToCoord(pos.x())));
    return tile >= 0 && tile < static_cast<long long>(data_->tileMemory.size())
               ? static_cast<int>(tile)
               : -1;
}

void TileMemoryPlot::zoomIn() {
    xAxis->scaleRange(0.5, xAxis->range().center());
    replot();
}

void TileMemoryPlot::zoomOut() {
    xAxis->scaleRange(2.0, xAxis->range().center());
    replot();
}

void TileMemoryPlot::resetZoom() {
    const double tiles = data_ ? static_cast<double>(data_->tileMemory.size()) : 1;
    xAxis->setRange(-0.5, std::max(0.5, tiles - 0.5));
    replot();
}

void TileMemoryPlot::applyPalette() {
    applyPlotPalette(this, palette());
    QColor back = palette().color(QPalette::Base);
    back.setAlpha(215);
    capacityLabel_->setBrush(back);
    for (auto* line : ipuLines_) {
        line->setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DotLine));
    }
}

void TileMemoryPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot();
    }
}

bool TileMemoryPlot::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip || !data_) {
        return QCustomPlot::event(e);
    }
    const auto* help = static_cast<QHelpEvent*>(e);
    const int tile = tileAt(help->pos());
    if (tile < 0) {
        QToolTip::hideText();
        return true;
    }
    const auto& t = data_->tileMemory[static_cast<std::size_t>(tile)];
    QString text =
        QString("<b>Tile %1</b> — %2 of %3 (%4)")
            .arg(tile)
            .arg(formatBytes(t.totalIncludingGaps), formatBytes(data_->target.bytesPerTile),
                 formatPercent(data_->target.bytesPerTile
                                   ? static_cast<double>(t.totalIncludingGaps) /
                                         static_cast<double>(data_->target.bytesPerTile)
                                   : 0.0));
    text += "<table>";
    for (auto it = plotData_.series.rbegin(); it != plotData_.series.rend(); ++it) {
        text +=
            QString(
                "<tr><td><span style='color:%1'>■</span> %2</td><td align=right>&nbsp;%3</td></tr>")
                .arg(it->color.name(), it->name.toHtmlEscaped(),
                     formatBytes(static_cast<std::uint64_t>(it->values[tile])));
    }
    if (t.overflowBytes) {
        text += QString("<tr><td><b>overflow</b></td><td align=right>&nbsp;%1</td></tr>")
                    .arg(formatBytes(t.overflowBytes));
    }
    text += "</table>";
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

} // namespace tessera::views
