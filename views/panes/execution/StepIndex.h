#pragma once
// A coarse index of one run: cycle ranges of consecutive executed steps
// (from a level-of-detail level small enough to hold whole), so a visible
// range of cycles maps to the executed steps it covers without reading them.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tessera::views::execution {

struct IndexBucket {
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    std::uint64_t firstSeq = 0;
    std::uint64_t steps = 0;
};

class StepIndex {
public:
    StepIndex() = default;
    // levels as ReportSource::lodLevels returns them (level 0 first);
    // buckets of one of them covering the whole run, in order.
    StepIndex(std::uint32_t run, std::vector<reports::LodLevel> levels,
              std::vector<IndexBucket> buckets);

    std::uint32_t run() const { return run_; }
    const std::vector<reports::LodLevel>& levels() const { return levels_; }
    const reports::LodLevel* level(std::uint32_t level) const;
    std::uint64_t steps() const; // executed steps in the run
    std::uint64_t firstCycle() const;
    std::uint64_t endCycle() const;

    // Executed steps [first, end) whose cycles cover [c0, c1), rounded out to
    // index buckets.
    std::pair<std::uint64_t, std::uint64_t> seqRange(double c0, double c1) const;
    // About how many executed steps run in [c0, c1) (interpolated inside the
    // index buckets at the ends).
    double estimateSteps(double c0, double c1) const;
    // The level to draw [c0, c1) with across widthPx pixels.
    std::uint32_t chooseLevel(double c0, double c1, double widthPx) const;

private:
    std::size_t bucketAt(double cycle) const; // index of the bucket holding cycle (clamped)

    std::uint32_t run_ = 0;
    std::vector<reports::LodLevel> levels_;
    std::vector<IndexBucket> buckets_;
};

} // namespace tessera::views::execution
