#include "views/compare/DeltaTileMap.h"

#include "views/common/Colors.h"
#include "views/compare/models/CompareTables.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::views {

namespace {
constexpr int kLegendPx = 22;
constexpr int kMarginPx = 6;
} // namespace

DeltaTileMap::DeltaTileMap(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("deltaTileMap"));
    setMouseTracking(true);
}

void DeltaTileMap::setDeltas(std::vector<std::int64_t> deltas) {
    deltas_ = std::move(deltas);
    scale_ = 0;
    for (const std::int64_t d : deltas_) {
        scale_ = std::max<std::int64_t>(scale_, d < 0 ? -d : d);
    }
    colors_.clear();
    for (const std::int64_t d : deltas_) {
        colors_.push_back(divergingColor(
            scale_ > 0 ? static_cast<double>(d) / static_cast<double>(scale_) : 0.0));
    }
    relayout();
    update();
}

void DeltaTileMap::setSelectedTile(int tile) {
    if (selected_ != tile) {
        selected_ = tile;
        update();
    }
}

QRect DeltaTileMap::cellRect(int tile) const {
    return tile >= 0 && static_cast<std::size_t>(tile) < cells_.size()
               ? cells_[static_cast<std::size_t>(tile)]
               : QRect();
}

QColor DeltaTileMap::cellColor(int tile) const {
    return tile >= 0 && static_cast<std::size_t>(tile) < colors_.size()
               ? colors_[static_cast<std::size_t>(tile)]
               : QColor();
}

int DeltaTileMap::tileAt(const QPoint& pos) const {
    for (std::size_t i = 0; i < cells_.size(); ++i) {
        if (cells_[i].contains(pos)) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

void DeltaTileMap::relayout() {
    cells_.clear();
    const int n = static_cast<int>(deltas_.size());
    const int w = width() - 2 * kMarginPx;
    const int h = height() - 2 * kMarginPx - kLegendPx;
    if (n == 0 || w < 4 || h < 4) {
        return;
    }
    // The largest square cells that fit all tiles in rows of `cols`.
    int best = 1, bestCols = n;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        const int size = std::min(w / cols, h / rows);
        if (size > best) {
            best = size;
            bestCols = cols;
        }
    }
    const int gap = best >= 6 ? 1 : 0;
    for (int i = 0; i < n; ++i) {
        cells_.emplace_back(kMarginPx + (i % bestCols) * best, kMarginPx + (i / bestCols) * best,
                            best - gap, best - gap);
    }
}

void DeltaTileMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    for (std::size_t i = 0; i < cells_.size(); ++i) {
        p.fillRect(cells_[i], colors_[i]);
    }
    if (const QRect sel = cellRect(selected_); !sel.isEmpty()) {
        p.setPen(QPen(selectionColor(), 2));
        p.drawRect(sel.adjusted(-1, -1, 0, 0));
    }
    // Legend: the ramp from the largest shrink to the largest growth.
    const QRect legend(kMarginPx, height() - kLegendPx, std::min(width() - 2 * kMarginPx, 220), 8);
    for (int x = 0; x < legend.width(); ++x) {
        const double t = 2.0 * x / std::max(1, legend.width() - 1) - 1.0;
        p.fillRect(QRect(legend.left() + x, legend.top(), 1, legend.height()), divergingColor(t));
    }
    p.setPen(palette().color(QPalette::WindowText));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    const QString text =
        scale_ > 0 ? tr("%1 … %2").arg(deltaText(-scale_, "bytes"), deltaText(scale_, "bytes"))
                   : tr("no tile changed");
    p.drawText(QRect(legend.right() + 8, legend.top() - 5, width(), 18),
               Qt::AlignLeft | Qt::AlignVCenter, text);
}

void DeltaTileMap::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void DeltaTileMap::mouseReleaseEvent(QMouseEvent* event) {
    const int tile = tileAt(event->position().toPoint());
    if (tile >= 0) {
        emit tileClicked(tile);
    }
}

bool DeltaTileMap::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int tile = tileAt(help->pos());
        if (tile >= 0) {
            QToolTip::showText(
                help->globalPos(),
                tr("tile %1: %2")
                    .arg(tile)
                    .arg(deltaText(deltas_[static_cast<std::size_t>(tile)], "bytes")),
                this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace tessera::views
