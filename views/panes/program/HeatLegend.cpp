#include "views/panes/program/HeatLegend.h"

#include "views/common/Colors.h"

#include <QLinearGradient>
#include <QPainter>

#include <algorithm>

namespace tessera::views {

namespace {
constexpr int kRampWidth = 120;
constexpr int kRampHeight = 10;
} // namespace

HeatLegend::HeatLegend(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void HeatLegend::setRange(const QString& title, const QString& low, const QString& high) {
    title_ = title;
    low_ = low;
    high_ = high;
    updateGeometry();
    update();
}

QSize HeatLegend::sizeHint() const {
    const QFontMetrics m = fontMetrics();
    const int text = m.horizontalAdvance(title_ + "  " + low_) + m.horizontalAdvance(high_) + 16;
    return {kRampWidth + text, std::max(m.height(), kRampHeight) + 6};
}

void HeatLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics m = fontMetrics();
    const int mid = height() / 2;
    int x = 0;
    p.setPen(palette().color(QPalette::WindowText));
    const QString lead = title_ + "  " + low_;
    p.drawText(QRect(x, 0, m.horizontalAdvance(lead) + 2, height()),
               Qt::AlignVCenter | Qt::AlignLeft, lead);
    x += m.horizontalAdvance(lead) + 6;
    QLinearGradient ramp(x, 0, x + kRampWidth, 0);
    for (int i = 0; i <= 8; ++i) {
        ramp.setColorAt(i / 8.0, heatColor(i / 8.0));
    }
    const QRect bar(x, mid - kRampHeight / 2, kRampWidth, kRampHeight);
    p.fillRect(bar, ramp);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(bar);
    x += kRampWidth + 6;
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(x, 0, width() - x, height()), Qt::AlignVCenter | Qt::AlignLeft, high_);
}

} // namespace tessera::views
