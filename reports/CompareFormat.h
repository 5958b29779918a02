#pragma once
// A ReportDiff as text for people and as JSON (the output of `tessera-cli
// diff`). docs/report-format.md ("Comparing reports") describes the JSON.
#include "reports/Compare.h"

#include <cstddef>
#include <functional>
#include <string>

namespace tessera::reports {

class JsonWriter;

struct DiffFormat {
    // Rows per list (steps, compute sets, tiles, liveness, variables); 0: all.
    std::size_t top = 20;
};

// Totals, then the changed, added and removed rows of each list, largest
// regressions first.
std::string formatDiffText(const ReportDiff& diff, const DiffFormat& format = {});

// One JSON object with every row of every list (up to format.top each, when
// not 0). `extra`, if given, writes more members into the top-level object.
std::string formatDiffJson(const ReportDiff& diff, const DiffFormat& format = {.top = 0},
                           const std::function<void(JsonWriter&)>& extra = {});

// "+12.3%", "-0.5%", "0.0%", or "new" when only the comparison has it.
std::string formatPercent(const Delta& delta);
// 1234567 -> "1,234,567"; with sign: "+1,234,567".
std::string formatCount(std::int64_t value, bool sign = false);

} // namespace tessera::reports
