#include "views/panes/liveness/LivenessSeries.h"

#include "views/data/ReportSource.h"

#include <algorithm>
#include <numeric>

namespace tessera::views {

LivenessSteps makeLivenessSteps(const ReportData& data) {
    LivenessSteps s;
    std::vector<int> order(data.programSteps.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto& sa = data.programSteps[static_cast<std::size_t>(a)];
        const auto& sb = data.programSteps[static_cast<std::size_t>(b)];
        return std::tie(sa.programIndex, sa.id) < std::tie(sb.programIndex, sb.id);
    });
    for (const int pos : order) {
        const auto id = data.programSteps[static_cast<std::size_t>(pos)].id;
        s.xOfStep[id] = static_cast<int>(s.stepIds.size());
        s.stepIds.push_back(id);
        s.stepPositions.push_back(pos);
        s.notAlwaysLiveBytesSum.push_back(static_cast<double>(
            data.programSteps[static_cast<std::size_t>(pos)].notAlwaysLiveBytesSum));
    }
    s.alwaysLiveBytesPerTile.assign(data.target.numTiles, 0);
    for (const auto& t : data.tileMemory) {
        s.alwaysLiveBytes += static_cast<double>(t.alwaysLiveBytes);
        if (t.tile.value() < s.alwaysLiveBytesPerTile.size()) {
            s.alwaysLiveBytesPerTile[t.tile.value()] = static_cast<double>(t.alwaysLiveBytes);
        }
    }
    return s;
}

std::vector<double> notAlwaysLiveCurve(const LivenessSteps& steps, const ReportSource& source,
                                       int tile, const std::atomic<bool>* cancel) {
    if (tile < 0) {
        return steps.notAlwaysLiveBytesSum; // stored at write time: no tile arrays read
    }
    std::vector<double> curve;
    curve.reserve(steps.size());
    for (const auto id : steps.stepIds) {
        if (cancel && cancel->load()) {
            return {};
        }
        const auto tiles = source.stepTiles(id);
        const auto& bytes = tiles->notAlwaysLiveBytes;
        curve.push_back(static_cast<std::size_t>(tile) < bytes.size()
                            ? bytes[static_cast<std::size_t>(tile)]
                            : 0.0);
    }
    return curve;
}

} // namespace tessera::views
