#pragma once
// What the timeline and the flame view draw from: one fetch of a run's
// visible range at one level of detail, built off the GUI thread by
// FrameBuilder and never changed afterwards.
#include "reports/ReportTypes.h"
#include "views/panes/execution/FlameSpans.h"
#include "views/panes/execution/StepIndex.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::views::execution {

// One executed step (level 0) or one bucket of consecutive steps.
struct TimelineItem {
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    std::uint64_t firstSeq = 0;
    std::uint64_t steps = 0;
    std::uint64_t computePhase = 0; // sums over the item's steps
    std::uint64_t exchangePhase = 0;
    std::uint64_t syncPhase = 0;
    record::StepId programStep = record::StepId::none(); // level 0 only
    // Per tile group, then all tiles: min, max and sum of the tiles' compute,
    // exchange and sync cycles (a bucket's own, or the program step's,
    // shared by all its executions). Kept alive by the frame.
    const reports::LodBucket* stats = nullptr;
    std::uint64_t endCycle() const { return startCycle + cycles; }
};

// One tile's cycles in one item.
struct TileCycles {
    std::uint64_t compute = 0;
    std::uint64_t exchange = 0;
    std::uint64_t sync = 0;
};

// What the widget asks for: the worker picks the level from the index.
struct TimelineRequest {
    std::uint32_t run = 0;
    double start = 0; // visible cycles [start, end)
    double end = 0;
    double widthPx = 1;
    bool tileRows = false; // per-tile figures wanted for tiles [tileFirst, tileFirst + tileCount)
    std::uint32_t tileFirst = 0;
    std::uint32_t tileCount = 0;
    bool operator==(const TimelineRequest&) const = default;
};

struct TimelineFrame {
    TimelineRequest request;
    std::shared_ptr<const StepIndex> index;
    std::uint32_t level = 0;
    double coveredStart = 0; // every item overlapping [coveredStart, coveredEnd) is here
    double coveredEnd = 0;
    std::uint32_t numTiles = 0;
    std::uint32_t groupTiles = 1;
    std::uint32_t groups = 0; // not counting the all-tiles entry

    std::vector<TimelineItem> items;                    // by start cycle
    std::vector<std::shared_ptr<const void>> keepAlive; // what items point into

    // Per-tile figures (items.size() × tileCount, item-major) when asked for
    // and affordable; empty otherwise (tile rows then show their group).
    std::uint32_t tileFirst = 0;
    std::uint32_t tileCount = 0;
    std::vector<TileCycles> tiles;

    // The executed steps of the covered range, when few enough to hold.
    bool stepsComplete = false;
    std::vector<record::StepExecutionRecord> steps;
    std::shared_ptr<const FlameData> flame; // from `steps`; null when incomplete

    double fetchSeconds = 0;

    bool covers(double start, double end) const {
        return coveredStart <= start && end <= coveredEnd;
    }
    bool hasTiles(std::uint32_t first, std::uint32_t count) const {
        return !tiles.empty() && first >= tileFirst && first + count <= tileFirst + tileCount;
    }
    // The first item ending after `cycle`.
    std::size_t firstItemAfter(double cycle) const;
    // The executed step running at `cycle`, or null.
    const record::StepExecutionRecord* stepAt(double cycle) const;
};

} // namespace tessera::views::execution
