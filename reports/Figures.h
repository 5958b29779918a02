#pragma once
// Figures derived from what a report stores, defined once so the CLI, the
// exporters and every pane agree on them.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::reports {

// Tile balance: the mean tile's compute cycles over the busiest tile's, in
// (0, 1]; 1 is perfectly balanced. With no compute at all (every tile at 0)
// no tile waits for another: 1.
double tileBalance(double computeMean, double computeMax);
// A program step's: computeCyclesSum / (tiles * computeCyclesMax); 1 for no tiles.
double tileBalance(const ProgramStepEntry& step, std::uint32_t tiles);

// A tensor shape for people: "[128, 64]"; "[]" for a scalar.
std::string shapeText(const std::vector<std::uint64_t>& shape);

} // namespace tessera::reports
