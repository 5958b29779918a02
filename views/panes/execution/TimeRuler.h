#pragma once
// The time ruler above the timeline: nice ticks labelled in cycles (from the
// run's start) and in time at the target's clock.
#include "views/panes/execution/TimeMapping.h"

#include <QRect>
#include <QString>

class QPainter;
class QPalette;

namespace tessera::views::execution {

inline constexpr int kRulerHeightPx = 34;
inline constexpr double kRulerLabelSpacingPx = 96;

// `rect` is the ruler's area; its left edge is the mapping's pixel 0.
void paintRuler(QPainter& painter, const QRect& rect, const TimeMapping& mapping, double origin,
                double clockHz, const QPalette& palette);

// "12,000" style cycle label and a time label whose decimals suit `step`
// cycles, e.g. "9.06 µs".
QString tickCycleLabel(double cycles);
QString tickTimeLabel(double cycles, double stepCycles, double clockHz);

} // namespace tessera::views::execution
