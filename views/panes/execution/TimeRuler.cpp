#include "views/panes/execution/TimeRuler.h"

#include "views/common/Format.h"

#include <QLocale>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace tessera::views::execution {

QString tickCycleLabel(double cycles) {
    const double v = std::max(0.0, std::round(cycles));
    if (v >= 1e9) {
        return QString("%1G").arg(v / 1e9, 0, 'g', 6);
    }
    return formatCount(static_cast<std::uint64_t>(v));
}

QString tickTimeLabel(double cycles, double stepCycles, double clockHz) {
    if (clockHz <= 0) {
        return QString();
    }
    const double seconds = cycles / clockHz;
    const double stepSeconds = std::max(stepCycles / clockHz, 1e-15);
    // The largest unit in which the step is at least 0.1, with decimals for
    // about two significant digits of the step.
    struct Unit {
        double scale;
        const char* name;
    };
    static const Unit units[] = {{1, "s"}, {1e3, "ms"}, {1e6, "µs"}, {1e9, "ns"}};
    const Unit* unit = &units[3];
    for (const Unit& u : units) {
        if (stepSeconds * u.scale >= 0.1) {
            unit = &u;
            break;
        }
    }
    const double step = stepSeconds * unit->scale;
    const int decimals =
        std::clamp(1 - static_cast<int>(std::floor(std::log10(step) + 1e-9)), 0, 6);
    static const QLocale english(QLocale::English, QLocale::UnitedStates); // "5,962 µs"
    return QString("%1 %2").arg(english.toString(seconds * unit->scale, 'f', decimals),
                                QString::fromUtf8(unit->name));
}

void paintRuler(QPainter& painter, const QRect& rect, const TimeMapping& mapping, double origin,
                double clockHz, const QPalette& palette) {
    painter.save();
    painter.setClipRect(rect);
    painter.fillRect(rect, palette.color(QPalette::Window));
    const QColor text = palette.color(QPalette::WindowText);
    QColor faint = text;
    faint.setAlphaF(0.55f);
    const double step = niceTickStep(mapping.cyclesPerPixel(), kRulerLabelSpacingPx);
    const int base = rect.bottom();
    // Minor ticks at a fifth of the step.
    painter.setPen(faint);
    const double minor = step / 5;
    if (minor / mapping.cyclesPerPixel() >= 4) {
        double k = std::ceil((mapping.start() - origin) / minor);
        for (double c = origin + k * minor; c <= mapping.end(); c = origin + (++k) * minor) {
            const int x = rect.left() + static_cast<int>(std::floor(mapping.toPixel(c)));
            painter.drawLine(x, base - 3, x, base);
        }
    }
    QFont small = painter.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter.setFont(small);
    const QFontMetrics fm(small);
    for (const double c : tickCycles(mapping, origin, kRulerLabelSpacingPx)) {
        const int x = rect.left() + static_cast<int>(std::floor(mapping.toPixel(c)));
        painter.setPen(text);
        painter.drawLine(x, base - 8, x, base);
        const QString cyclesLabel = tickCycleLabel(c - origin);
        const QString timeLabel = tickTimeLabel(c - origin, step, clockHz);
        // Labels right of their tick, when they fit (not cut at the edge).
        const int labelWidth =
            std::max(fm.horizontalAdvance(cyclesLabel), fm.horizontalAdvance(timeLabel));
        if (x + 3 + labelWidth > rect.right()) {
            continue;
        }
        painter.drawText(x + 3, rect.top() + fm.ascent() + 1, cyclesLabel);
        painter.setPen(faint);
        painter.drawText(x + 3, rect.top() + 2 * fm.height() - 1, timeLabel);
    }
    painter.setPen(faint);
    painter.drawLine(rect.left(), base, rect.right(), base);
    painter.restore();
}

} // namespace tessera::views::execution
