#pragma once
// Builds the level-of-detail buckets of one run while its steps arrive, so a
// capture never holds all its executed steps: level k holds buckets of
// fanout^k consecutive steps; each level keeps per-tile sums of the bucket in
// progress, and a finished bucket feeds the level above. Memory: two arrays
// of numTiles per level.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace tessera::reports {

// Cycles of one step on every tile. The spans are borrowed until the finest
// bucket holding the step completes (the next `fanout` add() calls or
// finish()): the builder counts the steps of a bucket by their arrays and
// adds each distinct step's arrays once, times its count (a bucket of 64
// steps of a loop body of 4 costs 4 array additions, not 64).
struct StepCosts {
    std::span<const std::uint32_t> compute;
    std::span<const std::uint32_t> exchange;
    std::uint64_t computePhaseCycles = 0;
    std::uint64_t exchangePhaseCycles = 0;
    std::uint64_t syncPhaseCycles = 0;
};

// Group statistics over per-tile totals: for each group of groupTiles tiles,
// then all tiles. sync[t] = totalCycles - compute[t] - exchange[t] (at least 0).
void groupStats(std::span<const std::uint64_t> compute, std::span<const std::uint64_t> exchange,
                std::uint64_t totalCycles, std::uint32_t groupTiles, LodBucket& out);
std::uint32_t groupCount(std::uint32_t numTiles, std::uint32_t groupTiles);

class LodBuilder {
public:
    using Emit = std::function<void(const LodBucket&)>;
    LodBuilder(std::uint32_t numTiles, std::uint32_t groupTiles, std::uint32_t fanout, Emit emit);
    ~LodBuilder();

    void add(std::uint64_t sequence, std::uint64_t startCycle, std::uint64_t cycles,
             const StepCosts& costs);
    // Emits the partial buckets and returns the levels kept: 1..K, where
    // level K is the first with a single bucket. Empty when no step came.
    std::vector<LodLevel> finish();

private:
    struct Level;
    struct Pending {
        StepCosts costs;
        std::uint64_t count = 0;
    };
    void complete(std::size_t level);
    void addPending(); // folds the pending steps' arrays into level 1's sums
    Level& levelAt(std::size_t level);

    std::uint32_t numTiles_;
    std::uint32_t groupTiles_;
    std::uint32_t fanout_;
    Emit emit_;
    std::vector<std::unique_ptr<Level>> levels_; // levels_[0] is level 1
    std::vector<Pending> pending_;               // distinct steps of level 1's bucket
};

} // namespace tessera::reports
