#include "views/panes/execution/StepIndex.h"

#include "views/panes/execution/TimeMapping.h"

#include <algorithm>

namespace tessera::views::execution {

StepIndex::StepIndex(std::uint32_t run, std::vector<reports::LodLevel> levels,
                     std::vector<IndexBucket> buckets)
    : run_(run)
    , levels_(std::move(levels))
    , buckets_(std::move(buckets)) {}

const reports::LodLevel* StepIndex::level(std::uint32_t level) const {
    for (const auto& l : levels_) {
        if (l.level == level) {
            return &l;
        }
    }
    return nullptr;
}

std::uint64_t StepIndex::steps() const {
    return buckets_.empty() ? 0 : buckets_.back().firstSeq + buckets_.back().steps;
}

std::uint64_t StepIndex::firstCycle() const {
    return buckets_.empty() ? 0 : buckets_.front().startCycle;
}

std::uint64_t StepIndex::endCycle() const {
    return buckets_.empty() ? 0 : buckets_.back().startCycle + buckets_.back().cycles;
}

std::size_t StepIndex::bucketAt(double cycle) const {
    // The last bucket starting at or before `cycle`.
    auto it = std::upper_bound(
        buckets_.begin(), buckets_.end(), cycle,
        [](double c, const IndexBucket& b) { return c < static_cast<double>(b.startCycle); });
    return it == buckets_.begin() ? 0 : static_cast<std::size_t>(it - buckets_.begin()) - 1;
}

std::pair<std::uint64_t, std::uint64_t> StepIndex::seqRange(double c0, double c1) const {
    if (buckets_.empty() || c1 <= c0) {
        return {0, 0};
    }
    const IndexBucket& first = buckets_[bucketAt(c0)];
    // The bucket holding the last cycle before c1.
    const IndexBucket& last = buckets_[bucketAt(std::max(c0, c1 - 1e-6))];
    return {first.firstSeq, last.firstSeq + last.steps};
}

double StepIndex::estimateSteps(double c0, double c1) const {
    if (buckets_.empty() || c1 <= c0) {
        return 0;
    }
    double steps = 0;
    for (std::size_t i = bucketAt(c0); i < buckets_.size(); ++i) {
        const IndexBucket& b = buckets_[i];
        const double bs = static_cast<double>(b.startCycle);
        if (bs >= c1) {
            break;
        }
        const double be = bs + static_cast<double>(std::max<std::uint64_t>(b.cycles, 1));
        const double overlap = std::max(0.0, std::min(be, c1) - std::max(bs, c0));
        steps += static_cast<double>(b.steps) * overlap / (be - bs);
    }
    return steps;
}

std::uint32_t StepIndex::chooseLevel(double c0, double c1, double widthPx) const {
    return chooseLodLevel(levels_, estimateSteps(c0, c1), widthPx);
}

} // namespace tessera::views::execution
