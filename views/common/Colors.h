#pragma once
// One place for the colours panes use, so every pane agrees: memory
// categories, BSP phases, heat maps; with light and dark variants.
#include "engine/record/Records.h"

#include <QColor>
#include <QPalette>

namespace tessera::views {

QColor categoryColor(record::MemoryCategory category);
QColor categoryColor(std::uint32_t categoryId);
QColor gapColor();

enum class Phase { Compute, Exchange, Sync };
QColor phaseColor(Phase phase);
// The same on `palette`: on a dark one sync is a quiet grey, not a light block
// that outshines compute and exchange.
QColor phaseColor(Phase phase, const QPalette& palette);

// t in [0, 1] -> a perceptually ordered colour ramp (dark blue .. yellow).
QColor heatColor(double t);
// Diverging ramp for differences: t in [-1, 1], blue (less) .. white .. red (more).
QColor divergingColor(double t);

// Comparisons: a figure that got better (smaller cycles or memory) or worse,
// readable on the palette's background (light and dark variants).
QColor betterColor(const QPalette& palette);
QColor worseColor(const QPalette& palette);
// The two sides of a comparison in plots: baseline and comparison.
QColor baselineSideColor();
QColor comparisonSideColor();

QColor capacityLineColor();
QColor selectionColor();

bool isDarkPalette(const QPalette& palette);
QPalette lightPalette();
QPalette darkPalette();

} // namespace tessera::views
