#include "views/common/ProportionBar.h"

#include "views/common/Format.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <cmath>

namespace tessera::views {

namespace {

QColor textOn(const QColor& back) {
    return back.lightness() > 150 ? Qt::black : Qt::white;
}

} // namespace

ProportionBar::ProportionBar(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ProportionBar::setSegments(const QVector<Segment>& segments) {
    segments_ = segments;
    updateGeometry();
    update();
}

double ProportionBar::total() const {
    double sum = 0;
    for (const Segment& s : segments_) {
        sum += std::max(0.0, s.value);
    }
    return sum;
}

int ProportionBar::barHeight() const {
    return fontMetrics().height() + 10;
}

QSize ProportionBar::sizeHint() const {
    const int rows = std::max<int>(1, static_cast<int>(segments_.size()));
    return {320, barHeight() + 8 + rows * (fontMetrics().height() + 4)};
}

QSize ProportionBar::minimumSizeHint() const {
    return {120, sizeHint().height()};
}

QRect ProportionBar::segmentRect(int i) const {
    const double sum = total();
    if (sum <= 0 || i < 0 || i >= segments_.size()) {
        return {};
    }
    const int width = this->width();
    double start = 0;
    for (int k = 0; k < i; ++k) {
        start += std::max(0.0, segments_[k].value);
    }
    const int x0 = static_cast<int>(std::lround(width * start / sum));
    const int x1 =
        static_cast<int>(std::lround(width * (start + std::max(0.0, segments_[i].value)) / sum));
    if (x1 <= x0) {
        return {};
    }
    return {x0, 0, x1 - x0, barHeight()};
}

void ProportionBar::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const double sum = total();
    const QRect bar(0, 0, width(), barHeight());
    QPainterPath clip;
    clip.addRoundedRect(QRectF(bar), 4, 4);
    p.save();
    p.setClipPath(clip);
    p.fillRect(bar, palette().color(QPalette::AlternateBase));
    for (int i = 0; i < segments_.size(); ++i) {
        const QRect r = segmentRect(i);
        if (r.isEmpty()) {
            continue;
        }
        p.fillRect(r, segments_[i].color);
        const QString pct = formatPercent(segments_[i].value / sum);
        if (p.fontMetrics().horizontalAdvance(pct) + 8 < r.width()) {
            p.setPen(textOn(segments_[i].color));
            p.drawText(r, Qt::AlignCenter, pct);
        }
    }
    p.restore();
    // Legend: one line per segment: swatch, name, value, percentage.
    const QFontMetrics fm = p.fontMetrics();
    int y = bar.bottom() + 8;
    const int nameWidth = width() / 3;
    for (const Segment& s : segments_) {
        const QRect swatch(0, y + (fm.height() - 10) / 2, 10, 10);
        p.setPen(Qt::NoPen);
        p.setBrush(s.color);
        p.drawRoundedRect(swatch, 2, 2);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(16, y, nameWidth - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   s.name);
        const QString pct = sum > 0 ? formatPercent(s.value / sum) : QString("–");
        p.drawText(QRect(nameWidth, y, width() - nameWidth - 60, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, s.valueText);
        p.drawText(QRect(width() - 56, y, 56, fm.height()), Qt::AlignRight | Qt::AlignVCenter, pct);
        y += fm.height() + 4;
    }
}

bool ProportionBar::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const double sum = total();
        for (int i = 0; i < segments_.size(); ++i) {
            if (segmentRect(i).contains(help->pos())) {
                QToolTip::showText(help->globalPos(),
                                   QString("%1: %2 (%3)")
                                       .arg(segments_[i].name, segments_[i].valueText,
                                            formatPercent(segments_[i].value / sum)),
                                   this);
                return true;
            }
        }
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    return QWidget::event(e);
}

} // namespace tessera::views
