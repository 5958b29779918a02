#pragma once
// One place for the colours panes use, so every pane agrees: memory
// categories, BSP phases, heat maps; with light and dark variants.
#include <QColor>
#include <QPalette>

#include "engine/record/Records.h"

namespace tessera::views {

QColor categoryColor(record::MemoryCategory category);
QColor categoryColor(std::uint32_t categoryId);
QColor gapColor();

enum class Phase { Compute, Exchange, Sync };
QColor phaseColor(Phase phase);

// t in [0, 1] -> a perceptually ordered colour ramp (dark blue .. yellow).
QColor heatColor(double t);
// Diverging ramp for differences: t in [-1, 1], blue (less) .. white .. red (more).
QColor divergingColor(double t);

QColor capacityLineColor();
QColor selectionColor();

bool isDarkPalette(const QPalette& palette);
QPalette lightPalette();
QPalette darkPalette();

} // namespace tessera::views
