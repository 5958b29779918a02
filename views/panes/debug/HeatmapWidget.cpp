#include "views/panes/debug/HeatmapWidget.h"

#include "views/common/Colors.h"
#include "views/panes/debug/TensorValuesModel.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::views::debugger {

namespace {
constexpr int kMargin = 8;
constexpr int kLegendHeight = 50; // the ramp, and what a downsampled pixel shows

QString reduceName(BinReduce r) {
    return r == BinReduce::Min   ? HeatmapWidget::tr("minimum")
           : r == BinReduce::Max ? HeatmapWidget::tr("maximum")
                                 : HeatmapWidget::tr("mean");
}
} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("debugHeatmap"));
    setMouseTracking(true);
    setMinimumSize(200, 140);
    clear(tr("Pick a tensor to inspect"));
}

void HeatmapWidget::clear(const QString& message) {
    values_ = {};
    changed_.clear();
    valueColors_.clear();
    rows_ = cols_ = 0;
    bins_ = {};
    message_ = message;
    update();
}

void HeatmapWidget::setMode(Mode mode) {
    mode_ = mode;
    update();
}

void HeatmapWidget::setReduce(BinReduce reduce) {
    if (reduce_ != reduce) {
        reduce_ = reduce;
        rebin();
        update();
    }
}

QColor HeatmapWidget::valueColor(double v) const {
    if (!std::isfinite(v)) {
        return QColor(Qt::magenta);
    }
    return heatColor(max_ > min_ ? (v - min_) / (max_ - min_) : 0.5);
}

void HeatmapWidget::rebin() {
    bins_ = {};
    const QRect g = gridRect();
    if (rows_ == 0 || (g.width() >= cols_ && g.height() >= rows_)) {
        return; // every element has a pixel of its own
    }
    bins_ = binGrid(values_.values, values_.owners, rows_, cols_, std::min(rows_, g.height()),
                    std::min(cols_, g.width()), reduce_);
    for (QImage& image : binImages_) {
        image = QImage(bins_.columns, bins_.rows, QImage::Format_RGB32);
    }
    for (int r = 0; r < bins_.rows; ++r) {
        for (int c = 0; c < bins_.columns; ++c) {
            const std::size_t b = std::size_t(r) * std::size_t(bins_.columns) + std::size_t(c);
            binImages_[0].setPixel(c, r, valueColor(bins_.values[b]).rgb());
            binImages_[1].setPixel(c, r,
                                   b < bins_.owners.size() ? tileColor(bins_.owners[b]).rgb()
                                                           : valueColor(bins_.values[b]).rgb());
        }
    }
}

QColor HeatmapWidget::binColor(int binRow, int binColumn) const {
    if (binRow < 0 || binColumn < 0 || binRow >= bins_.rows || binColumn >= bins_.columns) {
        return {};
    }
    return binImages_[mode_ == Mode::Tiles ? 1 : 0].pixelColor(binColumn, binRow);
}

void HeatmapWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    rebin();
}

QColor HeatmapWidget::tileColor(record::TileId tile) {
    // Neighbouring tiles get far-apart hues (golden-angle steps).
    return QColor::fromHsv(int((tile.value() * 137u) % 360u), 120, 225);
}

void HeatmapWidget::setValues(const TensorValues& values, const std::vector<bool>& changed) {
    if (!values.error.isEmpty()) {
        clear(values.error);
        return;
    }
    if (!values.live) {
        clear(tr("%1 is not live at this step: its memory may hold another variable's values")
                  .arg(values.name));
        return;
    }
    if (values.values.empty()) {
        clear(tr("%1 has no elements").arg(values.name));
        return;
    }
    values_ = values;
    changed_ = changed;
    message_.clear();
    const int n = int(values.values.size());
    if (values.shape.size() >= 2) {
        cols_ = int(values.shape.back());
    } else { // a vector wraps into a square-ish block, row by row
        cols_ = n <= 32 ? n : int(std::ceil(std::sqrt(double(n))));
    }
    rows_ = (n + cols_ - 1) / cols_;
    // The scale spans the finite values (a NaN or infinity is magenta).
    min_ = std::numeric_limits<double>::infinity();
    max_ = -min_;
    for (double v : values.values) {
        if (std::isfinite(v)) {
            min_ = std::min(min_, v);
            max_ = std::max(max_, v);
        }
    }
    if (min_ > max_) {
        min_ = max_ = 0;
    }
    valueColors_.clear();
    valueColors_.reserve(values.values.size());
    for (double v : values.values) {
        valueColors_.push_back(valueColor(v));
    }
    rebin();
    update();
}

QRect HeatmapWidget::gridRect() const {
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin - kLegendHeight);
    if (rows_ == 0 || cols_ == 0) {
        return area;
    }
    // Square cells where they fit, centred; otherwise as wide or tall as the area.
    const double cell = std::min(double(area.width()) / cols_, double(area.height()) / rows_);
    const int w = std::max(1, int(cell * cols_)), h = std::max(1, int(cell * rows_));
    return QRect(area.left() + (area.width() - w) / 2, area.top() + (area.height() - h) / 2, w, h);
}

QRect HeatmapWidget::cellRect(int row, int column) const {
    const QRect g = gridRect();
    if (rows_ == 0 || cols_ == 0) {
        return {};
    }
    const int x0 = g.left() + int(std::floor(double(column) * g.width() / cols_));
    const int x1 = g.left() + int(std::floor(double(column + 1) * g.width() / cols_));
    const int y0 = g.top() + int(std::floor(double(row) * g.height() / rows_));
    const int y1 = g.top() + int(std::floor(double(row + 1) * g.height() / rows_));
    return QRect(QPoint(x0, y0), QPoint(std::max(x0, x1 - 1), std::max(y0, y1 - 1)));
}

QColor HeatmapWidget::cellColor(int row, int column) const {
    const std::size_t i = std::size_t(row) * std::size_t(cols_) + std::size_t(column);
    if (row < 0 || column < 0 || row >= rows_ || column >= cols_ || i >= valueColors_.size()) {
        return {};
    }
    if (mode_ == Mode::Tiles) {
        return i < values_.owners.size() ? tileColor(values_.owners[i]) : QColor();
    }
    return valueColors_[i];
}

int HeatmapWidget::elementAt(const QPoint& pos) const {
    const QRect g = gridRect();
    if (rows_ == 0 || !g.contains(pos)) {
        return -1;
    }
    const int c = std::clamp(int(double(pos.x() - g.left()) * cols_ / g.width()), 0, cols_ - 1);
    const int r = std::clamp(int(double(pos.y() - g.top()) * rows_ / g.height()), 0, rows_ - 1);
    const int e = r * cols_ + c;
    return e < int(values_.values.size()) ? e : -1;
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (rows_ == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    if (downsampled()) {
        paintBins(p);
    } else {
        paintCells(p);
    }
    const QRect grid = gridRect();
    paintLegend(
        p, QRect(grid.left(), grid.bottom() + 6, std::max(grid.width(), 260), kLegendHeight - 6));
}

void HeatmapWidget::paintBins(QPainter& p) const {
    p.drawImage(gridRect(), binImages_[mode_ == Mode::Tiles ? 1 : 0]);
}

void HeatmapWidget::paintCells(QPainter& p) const {
    const QRect g = gridRect();
    const double cellW = double(g.width()) / cols_, cellH = double(g.height()) / rows_;
    const int n = int(values_.values.size());
    for (int r = 0; r < rows_; ++r) {
        for (int c = 0; c < cols_ && r * cols_ + c < n; ++c) {
            p.fillRect(cellRect(r, c), cellColor(r, c));
        }
    }
    // Tile boundaries: where the right or lower neighbour lives on another tile.
    // Only where cells are wide enough that the lines leave them visible.
    const bool vertical = cellW >= kSeparatorMinCellPx, horizontal = cellH >= kSeparatorMinCellPx;
    const auto& owners = values_.owners;
    if (owners.size() == values_.values.size() && (vertical || horizontal)) {
        p.setPen(QPen(palette().color(QPalette::WindowText), 1));
        for (int r = 0; r < rows_; ++r) {
            for (int c = 0; c < cols_; ++c) {
                const std::size_t i = std::size_t(r * cols_ + c);
                if (i >= owners.size()) {
                    break;
                }
                const QRect cell = cellRect(r, c);
                if (vertical && c + 1 < cols_ && i + 1 < owners.size() &&
                    owners[i + 1] != owners[i]) {
                    p.drawLine(cell.right() + 1, cell.top(), cell.right() + 1, cell.bottom() + 1);
                }
                if (horizontal && r + 1 < rows_ && i + std::size_t(cols_) < owners.size() &&
                    owners[i + std::size_t(cols_)] != owners[i]) {
                    p.drawLine(cell.left(), cell.bottom() + 1, cell.right() + 1, cell.bottom() + 1);
                }
            }
        }
    }
    if (std::min(cellW, cellH) < kOutlineMinCellPx) {
        return;
    }
    QColor outline = TensorValuesModel::changedColor();
    outline.setAlpha(255);
    p.setPen(QPen(outline, 2));
    p.setBrush(Qt::NoBrush);
    for (std::size_t i = 0; i < changed_.size() && i < values_.values.size(); ++i) {
        if (changed_[i]) {
            p.drawRect(cellRect(int(i) / cols_, int(i) % cols_).adjusted(1, 1, -1, -1));
        }
    }
}

void HeatmapWidget::paintLegend(QPainter& p, const QRect& area) const {
    p.setPen(palette().color(QPalette::WindowText));
    if (mode_ == Mode::Tiles) {
        p.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   downsampled() ? tr("Coloured by tile; a pixel shows the tile holding most of "
                                      "its elements")
                                 : tr("Coloured by tile; lines separate tiles where cells are "
                                      "wide enough"));
        return;
    }
    if (downsampled()) {
        const int blockRows = (rows_ + bins_.rows - 1) / bins_.rows;
        const int blockCols = (cols_ + bins_.columns - 1) / bins_.columns;
        p.drawText(QRect(area.left(), area.top() + 26, area.width(), area.height() - 26),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tr("%1×%2 elements: a pixel shows the %3 of up to %4×%5")
                       .arg(rows_)
                       .arg(cols_)
                       .arg(reduceName(reduce_))
                       .arg(blockRows)
                       .arg(blockCols));
    }
    const QString lo = QString::number(min_, 'g', 5), hi = QString::number(max_, 'g', 5);
    const int textWidth =
        std::max(p.fontMetrics().horizontalAdvance(lo), p.fontMetrics().horizontalAdvance(hi)) + 8;
    const QRect bar(area.left() + textWidth, area.top() + 6, area.width() - 2 * textWidth, 14);
    for (int x = 0; x < bar.width(); ++x) {
        p.setPen(heatColor(double(x) / std::max(1, bar.width() - 1)));
        p.drawLine(bar.left() + x, bar.top(), bar.left() + x, bar.bottom());
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(area.left(), area.top(), textWidth - 4, area.height()),
               Qt::AlignRight | Qt::AlignVCenter, lo);
    p.drawText(QRect(bar.right() + 4, area.top(), textWidth, area.height()),
               Qt::AlignLeft | Qt::AlignVCenter, hi);
}

void HeatmapWidget::mousePressEvent(QMouseEvent* event) {
    const int e = elementAt(event->position().toPoint());
    if (e >= 0) {
        emit elementClicked(e);
    }
}

bool HeatmapWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int e = elementAt(help->pos());
        if (e >= 0) {
            const std::size_t i = std::size_t(e);
            QString text = tr("%1 %2 = %3 on tile %4")
                               .arg(values_.name, TensorValuesModel::indexText(i, values_.shape),
                                    QString::number(values_.values[i], 'g', 7))
                               .arg(i < values_.owners.size() ? values_.owners[i].value() : 0u);
            if (downsampled()) {
                const QRect g = gridRect();
                const int bc =
                    std::clamp(int(double(help->pos().x() - g.left()) * bins_.columns / g.width()),
                               0, bins_.columns - 1);
                const int br =
                    std::clamp(int(double(help->pos().y() - g.top()) * bins_.rows / g.height()), 0,
                               bins_.rows - 1);
                text += tr("<br>this pixel: %1 %2 of rows %3–%4, columns %5–%6")
                            .arg(reduceName(reduce_),
                                 QString::number(
                                     bins_.values[std::size_t(br) * std::size_t(bins_.columns) +
                                                  std::size_t(bc)],
                                     'g', 7))
                            .arg(binStart(br, bins_.rows, rows_))
                            .arg(binStart(br + 1, bins_.rows, rows_) - 1)
                            .arg(binStart(bc, bins_.columns, cols_))
                            .arg(binStart(bc + 1, bins_.columns, cols_) - 1);
            }
            QToolTip::showText(help->globalPos(), text, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace tessera::views::debugger
