#pragma once
// Finding steps by name in the execution pane. A program step matches when
// its name, its compute set's name or its operation's (enclosing Block's)
// debug name contains the text, ignoring case; names are per program step,
// so matching reads the program steps only. The executions of the matching
// steps in a run are then found by one scan of the run's executed steps on
// a worker thread (FrameBuilder::findExecutions), never on the GUI thread.
#include "reports/ReportTypes.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {
using reports::ReportData;
}

namespace tessera::views::execution {

// Executions kept per search: more are counted but not held (about 32 MB).
inline constexpr std::size_t kMaxSearchMatches = std::size_t{1} << 20;

// What a search found in one run.
struct StepMatches {
    QString text;
    std::vector<bool> steps;                        // by program step id: matches the text
    std::vector<record::StepExecutionRecord> found; // executions of those steps, in run order
    std::uint64_t total = 0;                        // executions found, held or not
    bool matchesStep(record::StepId programStep) const {
        return programStep.value() < steps.size() && steps[programStep.value()];
    }
    bool truncated() const { return total > found.size(); }
    // The first held execution starting at or after `cycle` (found.size() if none).
    std::size_t firstAtOrAfter(double cycle) const;
};

// Program steps whose names contain `text` (case-insensitive), by step id.
std::vector<bool> matchingSteps(const ReportData& data, const QString& text);

// "3 of 17", "– of 17" (none chosen yet), "no matches"; empty when not searching.
QString matchCountText(const StepMatches* matches, int current);

} // namespace tessera::views::execution
