#pragma once
// The tables of the compare panes, one per list of a ReportDiff, filled into
// a CompareTableModel. Rows are in the diff's order (largest regression
// first for steps and compute sets, program order for liveness, largest
// growth first for variables, tile order for tiles). Every quantity shows as
// "NAME (baseline)", "NAME (comparison)", "NAME Δ" and "NAME Δ%" columns.
#include "reports/Compare.h"
#include "views/compare/models/CompareTableModel.h"

#include <memory>

namespace tessera::views {

struct CompareData;

// Lower is better for cycles, time, bytes and tiles over capacity; counts of
// things (steps, variables...) are neither better nor worse.
bool lowerIsBetter(const reports::Figure& figure);
// Worse when the delta grows a lower-is-better quantity, better when it shrinks.
CompareTone toneOf(const reports::Delta& delta);
// "+1,234" / "-12 B" style text of a delta in a unit ("bytes", "cycles", ...).
QString deltaText(std::int64_t delta, const std::string& unit);
QString valueText(std::int64_t value, const std::string& unit);

void fillTotals(CompareTableModel& model, const std::shared_ptr<const CompareData>& data);
void fillSteps(CompareTableModel& model, const std::shared_ptr<const CompareData>& data);
void fillComputeSets(CompareTableModel& model, const std::shared_ptr<const CompareData>& data);
void fillLiveness(CompareTableModel& model, const std::shared_ptr<const CompareData>& data);
void fillTiles(CompareTableModel& model, const std::shared_ptr<const CompareData>& data);
void fillVariables(CompareTableModel& model, const std::shared_ptr<const CompareData>& data);

} // namespace tessera::views
