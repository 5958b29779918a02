#include "views/panes/memory/TileMapWidget.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {
constexpr int kMargin = 6;
constexpr int kIpuGap = 10;
} // namespace

TileMapWidget::TileMapWidget(QWidget* parent)
    : QWidget(parent) {
    setObjectName("tileMap");
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TileMapWidget::setReport(std::shared_ptr<const ReportData> report) {
    data_ = std::move(report);
    selected_ = -1;
    selectedTiles_.clear();
    highlight_.clear();
    highlightName_.clear();
    relayout();
}

void TileMapWidget::setSelectedTile(int tile) {
    if (tile != selected_) {
        selected_ = tile;
        update();
    }
}

void TileMapWidget::setSelectedTiles(std::vector<int> tiles) {
    if (tiles != selectedTiles_) {
        selectedTiles_ = std::move(tiles);
        update();
    }
}

void TileMapWidget::setHighlight(
    const QString& name, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& tiles) {
    highlightName_ = name;
    highlight_.clear();
    for (const auto& [tile, bytes] : tiles) {
        highlight_[tile] += bytes;
    }
    relayout(); // the legend may take another line
}

void TileMapWidget::setScaleToFullest(bool scale) {
    if (scale != scaleToFullest_) {
        scaleToFullest_ = scale;
        relayout();
    }
}

namespace {
constexpr int kLegendGap = 14;   // between legend items
constexpr int kRampEndGap = 4;   // between the ramp and its end labels
constexpr int kSwatchWidth = 14; // the over-capacity swatch and its gap
} // namespace

QString TileMapWidget::legendHighText() const {
    const double capacity = data_ ? static_cast<double>(data_->target.bytesPerTile) : 0;
    return scaleToFullest_ ? QString("fullest tile, %1 (%2 of capacity)")
                                 .arg(formatBytes(fullestBytes_),
                                      formatPercent(capacity > 0 ? fullestBytes_ / capacity : 0))
                           : QString("100% of capacity");
}

std::vector<TileMapWidget::LegendItem> TileMapWidget::layOutLegend() const {
    const QFontMetrics fm = fontMetrics();
    const QString lo = scaleToFullest_ ? "0" : "0%";
    // The ramp narrows (to 40 px) before its line overflows; past that the
    // high end's label is elided.
    const int ends =
        fm.horizontalAdvance(lo) + 2 * kRampEndGap + fm.horizontalAdvance(legendHighText());
    const int rampW = std::clamp(std::min(width() / 4, width() - 2 * kMargin - ends), 40, 140);
    std::vector<LegendItem> items;
    items.push_back({lo, ends + rampW, {}, rampW});
    const QString over = "over capacity";
    items.push_back({over, kSwatchWidth + fm.horizontalAdvance(over), {}});
    if (!highlight_.empty()) {
        const QString text =
            QString("holds %1 (%2 tiles)").arg(highlightName_).arg(highlight_.size());
        items.push_back({text, fm.horizontalAdvance(text), {}});
    }
    const int right = std::max(width() - kMargin, kMargin + 1);
    const int lineHeight = fm.height() + 4;
    int x = kMargin, line = 0;
    for (LegendItem& item : items) {
        if (x > kMargin && x + item.width > right) {
            ++line;
            x = kMargin;
        }
        item.width = std::min(item.width, right - x); // elided past the right edge
        item.origin = {x, line * lineHeight};
        x += item.width + kLegendGap;
    }
    return items;
}

std::vector<QRect> TileMapWidget::legendRects() const {
    const int top = height() - legendHeight() + 4;
    std::vector<QRect> rects;
    for (const LegendItem& item : layOutLegend()) {
        rects.emplace_back(item.origin.x(), top + item.origin.y(), item.width,
                           fontMetrics().height());
    }
    return rects;
}

int TileMapWidget::legendHeight() const {
    const int lines = layOutLegend().back().origin.y() / (fontMetrics().height() + 4) + 1;
    return lines * (fontMetrics().height() + 4) + 10;
}

void TileMapWidget::relayout() {
    cells_.clear();
    colors_.clear();
    columns_ = 0;
    cellSize_ = 0;
    if (!data_ || data_->tileMemory.empty()) {
        image_ = QImage();
        update();
        return;
    }
    const auto& target = data_->target;
    const int tiles = static_cast<int>(data_->tileMemory.size());
    const int ipus = std::max<int>(1, static_cast<int>(target.numIpus));
    const int perIpu =
        std::max(1, target.tilesPerIpu ? static_cast<int>(target.tilesPerIpu) : tiles / ipus);
    const int width = std::max(1, this->width() - 2 * kMargin);
    const int height = std::max(1, this->height() - 2 * kMargin - legendHeight());
    // The arrangement (IPU columns x tile columns) giving the largest square
    // cells; among those within 10% of it, the one with the fewest empty cells.
    struct Candidate {
        int ipuCols, cols;
        double cell;
        int empty;
    };
    std::vector<Candidate> candidates;
    double best = 0;
    for (int ipuCols = 1; ipuCols <= ipus; ++ipuCols) {
        const int ipuRows = (ipus + ipuCols - 1) / ipuCols;
        const double w = (width - (ipuCols - 1) * kIpuGap) / static_cast<double>(ipuCols);
        const double h = (height - (ipuRows - 1) * kIpuGap) / static_cast<double>(ipuRows);
        for (int cols = 1; cols <= perIpu; ++cols) {
            const int rows = (perIpu + cols - 1) / cols;
            const double cell = std::min(w / cols, h / rows);
            if (cell >= 0.9 * best) {
                candidates.push_back({ipuCols, cols, cell,
                                      rows * cols - perIpu + (ipuRows * ipuCols - ipus) * perIpu});
                best = std::max(best, cell);
            }
        }
    }
    Candidate chosen{1, 1, 0, 0};
    for (const Candidate& c : candidates) {
        if (c.cell >= 0.9 * best && (chosen.cell == 0 || c.empty < chosen.empty ||
                                     (c.empty == chosen.empty && c.cell > chosen.cell))) {
            chosen = c;
        }
    }
    best = chosen.cell;
    columns_ = chosen.cols;
    const int bestIpuCols = chosen.ipuCols;
    cellSize_ = std::max(1, static_cast<int>(std::floor(best)));
    const int rows = (perIpu + columns_ - 1) / columns_;
    const int ipuW = columns_ * cellSize_, ipuH = rows * cellSize_;
    const int ipuRowsUsed = (ipus + bestIpuCols - 1) / bestIpuCols;
    const int usedW = bestIpuCols * ipuW + (bestIpuCols - 1) * kIpuGap;
    const int usedH = ipuRowsUsed * ipuH + (ipuRowsUsed - 1) * kIpuGap;
    const int x0 = kMargin + std::max(0, (width - usedW) / 2);
    const int y0 = kMargin + std::max(0, (height - usedH) / 2);
    const int spacing = cellSize_ >= 6 ? 1 : 0;
    cells_.resize(static_cast<std::size_t>(tiles));
    for (int t = 0; t < tiles; ++t) {
        const int ipu = std::min(ipus - 1, t / perIpu), local = t - ipu * perIpu;
        const int ix = x0 + (ipu % bestIpuCols) * (ipuW + kIpuGap);
        const int iy = y0 + (ipu / bestIpuCols) * (ipuH + kIpuGap);
        cells_[static_cast<std::size_t>(t)] =
            QRect(ix + (local % columns_) * cellSize_, iy + (local / columns_) * cellSize_,
                  cellSize_ - spacing, cellSize_ - spacing);
    }
    fullestBytes_ = 0;
    for (const auto& t : data_->tileMemory) {
        fullestBytes_ = std::max(fullestBytes_, t.totalIncludingGaps);
    }
    const double scale = static_cast<double>(scaleToFullest_ ? fullestBytes_ : target.bytesPerTile);
    colors_.resize(static_cast<std::size_t>(tiles));
    for (int t = 0; t < tiles; ++t) {
        const auto& m = data_->tileMemory[static_cast<std::size_t>(t)];
        colors_[static_cast<std::size_t>(t)] =
            heatColor(scale > 0 ? static_cast<double>(m.totalIncludingGaps) / scale : 0.0);
    }
    renderCells();
}

void TileMapWidget::renderCells() {
    const qreal dpr = devicePixelRatioF();
    if (size().isEmpty()) {
        image_ = QImage(); // not laid out yet (a hidden pane): nothing to paint on
        return;
    }
    image_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    image_.setDevicePixelRatio(dpr);
    image_.fill(Qt::transparent);
    QPainter p(&image_);
    const QColor over = capacityLineColor();
    QFont small = font();
    small.setPointSizeF(std::max(6.0, std::min(small.pointSizeF(), cellSize_ / 3.2)));
    p.setFont(small);
    const bool labels = cellSize_ >= 26;
    for (std::size_t t = 0; t < cells_.size(); ++t) {
        const QRect& r = cells_[t];
        p.fillRect(r, colors_[t]);
        if (data_->tileMemory[t].overflowBytes > 0) {
            if (r.width() < 6) {
                p.fillRect(r, over);
            } else {
                // A red frame and a corner flag.
                const int w = std::clamp(r.width() / 10, 1, 3);
                p.setPen(QPen(over, w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(w / 2, w / 2, -(w + 1) / 2, -(w + 1) / 2));
                const int f = std::max(3, r.width() / 4);
                const QPoint tr = r.topRight() + QPoint(1, 0);
                p.setPen(Qt::NoPen);
                p.setBrush(over);
                p.drawPolygon(QPolygon({tr, tr - QPoint(f, 0), tr + QPoint(0, f)}));
            }
        }
        if (labels) {
            p.setPen(colors_[t].lightness() > 140 ? Qt::black : Qt::white);
            p.drawText(r.adjusted(3, 2, -2, -2), Qt::AlignLeft | Qt::AlignTop, QString::number(t));
        }
    }
}

QRect TileMapWidget::cellRect(int tile) const {
    return tile >= 0 && static_cast<std::size_t>(tile) < cells_.size()
               ? cells_[static_cast<std::size_t>(tile)]
               : QRect();
}

int TileMapWidget::tileAt(const QPoint& pos) const {
    for (std::size_t t = 0; t < cells_.size(); ++t) {
        if (cells_[t].adjusted(0, 0, 1, 1).contains(pos)) {
            return static_cast<int>(t);
        }
    }
    return -1;
}

QColor TileMapWidget::cellColor(int tile) const {
    return tile >= 0 && static_cast<std::size_t>(tile) < colors_.size()
               ? colors_[static_cast<std::size_t>(tile)]
               : QColor();
}

void TileMapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (!data_) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter, "No report");
        return;
    }
    p.drawImage(0, 0, image_);
    if (!highlight_.empty()) {
        QColor dim = palette().color(QPalette::Base);
        dim.setAlpha(185);
        for (std::size_t t = 0; t < cells_.size(); ++t) {
            if (!highlight_.count(static_cast<std::uint32_t>(t))) {
                p.fillRect(cells_[t], dim);
            }
        }
    }
    // The typed selection: a thinner outline on each tile.
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(selectionColor(), cellSize_ >= 12 ? 2 : 1, Qt::SolidLine, Qt::SquareCap,
                  Qt::MiterJoin));
    for (int t : selectedTiles_) {
        if (const QRect r = cellRect(t); !r.isEmpty() && t != selected_) {
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
    }
    if (const QRect r = cellRect(selected_); !r.isEmpty()) {
        const int w = cellSize_ >= 12 ? 3 : 2;
        p.setPen(QPen(selectionColor(), w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(-w / 2 - 1, -w / 2 - 1, w / 2 + 1, w / 2 + 1));
    }
    // Legend: the heat ramp, over capacity, highlighted variable.
    const QFontMetrics fm = fontMetrics();
    const int top = height() - legendHeight() + 4;
    const std::vector<LegendItem> items = layOutLegend();
    p.setPen(palette().color(QPalette::WindowText));
    { // the ramp between its two ends
        const LegendItem& ramp = items[0];
        int x = ramp.origin.x();
        const int y = top + ramp.origin.y();
        p.drawText(QRect(x, y, fm.horizontalAdvance(ramp.text), fm.height()), Qt::AlignVCenter,
                   ramp.text);
        x += fm.horizontalAdvance(ramp.text) + kRampEndGap;
        for (int i = 0; i < ramp.ramp; ++i) {
            p.fillRect(QRect(x + i, y + 2, 1, fm.height() - 4),
                       heatColor(i / double(ramp.ramp - 1)));
        }
        x += ramp.ramp + kRampEndGap;
        const int room = std::max(0, ramp.origin.x() + ramp.width - x);
        p.drawText(QRect(x, y, room, fm.height()), Qt::AlignVCenter,
                   fm.elidedText(legendHighText(), Qt::ElideRight, room));
    }
    { // over capacity
        const LegendItem& over = items[1];
        const int y = top + over.origin.y();
        p.fillRect(QRect(over.origin.x(), y + 3, 10, fm.height() - 6), capacityLineColor());
        p.drawText(QRect(over.origin.x() + kSwatchWidth, y, over.width - kSwatchWidth, fm.height()),
                   Qt::AlignVCenter, over.text);
    }
    if (items.size() > 2) { // the highlighted variable, elided if a line cannot hold it
        const LegendItem& held = items[2];
        p.drawText(QRect(held.origin.x(), top + held.origin.y(), held.width, fm.height()),
                   Qt::AlignVCenter, fm.elidedText(held.text, Qt::ElideMiddle, held.width));
    }
}

void TileMapWidget::resizeEvent(QResizeEvent*) {
    relayout();
}

void TileMapWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        if (const int tile = tileAt(event->pos()); tile >= 0) {
            emit tileClicked(tile);
        }
    }
}

bool TileMapWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && data_) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const int tile = tileAt(help->pos());
        if (tile < 0) {
            QToolTip::hideText();
            return true;
        }
        const auto& m = data_->tileMemory[static_cast<std::size_t>(tile)];
        const auto& target = data_->target;
        const double cap = static_cast<double>(target.bytesPerTile);
        QString text =
            QString("<b>Tile %1</b> (IPU %2)<br>%3 of %4 (%5)")
                .arg(tile)
                .arg(target.tilesPerIpu ? tile / static_cast<int>(target.tilesPerIpu) : 0)
                .arg(
                    formatBytes(m.totalIncludingGaps), formatBytes(target.bytesPerTile),
                    formatPercent(cap > 0 ? static_cast<double>(m.totalIncludingGaps) / cap : 0.0));
        text += QString("<br>%1 bytes, %2 without gaps")
                    .arg(formatCount(m.totalIncludingGaps), formatBytes(m.totalExcludingGaps));
        if (m.overflowBytes) {
            text += QString("<br><b>over capacity by %1</b>").arg(formatBytes(m.overflowBytes));
        }
        if (auto it = highlight_.find(static_cast<std::uint32_t>(tile)); it != highlight_.end()) {
            text +=
                QString("<br>%1: %2").arg(highlightName_.toHtmlEscaped(), formatBytes(it->second));
        }
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) {
        relayout();
    }
    return QWidget::event(e);
}

} // namespace tessera::views
