#pragma once
// What the Liveness plot draws: program steps in program order on x, and per
// step the not-always-live bytes summed over all tiles (stored per step in the
// report, loaded with the program steps) or of one tile (read from each
// step's per-tile array: the pane does that off the GUI thread when there are
// many steps).
#include "views/data/ReportData.h"

#include <atomic>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tessera::views {

class ReportSource;

struct LivenessSteps {
    std::vector<record::StepId> stepIds;             // x -> step id, program order
    std::vector<int> stepPositions;                  // x -> position in data.programSteps
    std::unordered_map<record::StepId, int> xOfStep; // step id -> x
    double alwaysLiveBytes = 0;                      // all tiles
    std::vector<double> alwaysLiveBytesPerTile;      // by tile
    std::vector<double> notAlwaysLiveBytesSum;       // x -> all tiles' bytes

    int x(record::StepId stepId) const {
        const auto it = xOfStep.find(stepId);
        return it == xOfStep.end() ? -1 : it->second;
    }
    std::size_t size() const { return stepIds.size(); }
};

LivenessSteps makeLivenessSteps(const ReportData& data);

// Not-always-live bytes per x: summed over every tile (tile < 0) or of one
// tile. Returns an empty vector when cancelled.
std::vector<double> notAlwaysLiveCurve(const LivenessSteps& steps, const ReportSource& source,
                                       int tile, const std::atomic<bool>* cancel = nullptr);

} // namespace tessera::views
