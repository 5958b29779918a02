#include "views/panes/execution/SummaryStrip.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/panes/execution/StepText.h"
#include "views/panes/execution/TimelineWidget.h"

#include <QPainter>

#include <cmath>

namespace tessera::views::execution {

namespace {

constexpr int kLinePx = 22;

// "492", "61,234", "6.00M": short enough for the strip.
QString compact(double v) {
    if (v < 1e5) {
        return formatCount(static_cast<std::uint64_t>(std::max(0.0, v) + 0.5));
    }
    if (v < 1e9) {
        return QString("%1M").arg(v / 1e6, 0, 'f', v < 1e7 ? 2 : 1);
    }
    return QString("%1G").arg(v / 1e9, 0, 'f', 2);
}

} // namespace

SummaryStrip::SummaryStrip(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void SummaryStrip::setClockHz(double clockHz) {
    clockHz_ = clockHz;
    update();
}

void SummaryStrip::setFigures(const StripFigures& visible, const StripFigures& selected) {
    const bool lines = selected.valid != selected_.valid;
    visible_ = visible;
    selected_ = selected;
    if (lines) {
        updateGeometry(); // one line or two
    }
    update();
}

QSize SummaryStrip::sizeHint() const {
    return {900, (selected_.valid ? 2 : 1) * kLinePx + 8};
}

void SummaryStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    QColor line = palette().color(QPalette::WindowText);
    line.setAlphaF(0.15f);
    p.setPen(line);
    p.drawLine(0, 0, width(), 0);
    paintLine(p, QRect(0, 4, width(), kLinePx), visible_);
    if (selected_.valid) {
        paintLine(p, QRect(0, 4 + kLinePx, width(), kLinePx), selected_);
    }
}

void SummaryStrip::paintLine(QPainter& p, const QRect& r, const StripFigures& f) {
    if (!f.valid) {
        return;
    }
    const QColor text = palette().color(QPalette::WindowText);
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    p.setFont(font);
    const QFontMetrics fm(font);
    // Scope, in the gutter so it lines up with the row labels.
    QFont bold = font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(QRect(6, r.top(), kGutterPx - 14, r.height()), Qt::AlignRight | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(f.scope, Qt::ElideRight, kGutterPx - 14));
    p.setFont(font);
    // Fixed columns, so the visible-range and the selected-step lines align.
    const int cyclesW =
        fm.horizontalAdvance("000,000,000 cycles (000.00 ms) · 00,000,000 steps") + 12;
    const int barW = 180;
    const int legendW = fm.horizontalAdvance("compute 100.0% · exchange 100.0% · sync 100.0%") + 16;
    int x = kGutterPx;
    const QString cycles =
        cyclesText(f.cycles, clockHz_) +
        (f.steps > 0 ? QString(" · %1 steps").arg(formatCount(static_cast<std::uint64_t>(f.steps)))
                     : QString());
    p.drawText(QRect(x, r.top(), cyclesW, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(cycles, Qt::ElideRight, cyclesW - 8));
    x += cyclesW;
    // Proportions: a stacked bar and its legend.
    const double total = f.compute + f.exchange + f.sync;
    const QRect bar(x, r.top() + 5, barW, r.height() - 10);
    p.fillRect(bar, palette().color(QPalette::Base));
    if (total > 0) {
        double acc = 0;
        const std::pair<double, Phase> parts[] = {
            {f.compute, Phase::Compute}, {f.exchange, Phase::Exchange}, {f.sync, Phase::Sync}};
        for (const auto& [v, phase] : parts) {
            const int x0 = bar.left() + static_cast<int>(std::lround(acc / total * bar.width()));
            acc += v;
            const int x1 = bar.left() + static_cast<int>(std::lround(acc / total * bar.width()));
            p.fillRect(QRect(x0, bar.top(), x1 - x0, bar.height()), phaseColor(phase, palette()));
        }
        p.drawText(QRect(bar.right() + 8, r.top(), legendW, r.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tr("compute %1 · exchange %2 · sync %3")
                       .arg(formatPercent(f.compute / total))
                       .arg(formatPercent(f.exchange / total))
                       .arg(formatPercent(f.sync / total)));
    }
    x = bar.right() + 8 + legendW;
    // Tile balance: mean over max compute.
    if (f.maxCompute <= 0 || x + 200 > width()) {
        return;
    }
    const int labelW = fm.horizontalAdvance(tr("tile balance")) + 8;
    p.drawText(QRect(x, r.top(), labelW, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
               tr("tile balance"));
    x += labelW;
    const QRect b(x, r.top() + 6, 90, r.height() - 12);
    p.fillRect(b, palette().color(QPalette::Base));
    p.fillRect(QRect(b.left(), b.top(), static_cast<int>(std::lround(f.balance() * b.width())),
                     b.height()),
               QColor(0x4a, 0x86, 0xe8));
    const QString detail =
        tr("%1 · compute a tile: mean %2 / max %3")
            .arg(formatPercent(f.balance()), compact(f.meanCompute), compact(f.maxCompute));
    const int rest = width() - b.right() - 12;
    p.drawText(QRect(b.right() + 8, r.top(), rest, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(detail, Qt::ElideRight, rest));
}

} // namespace tessera::views::execution
