#include "reports/LodBuilder.h"

#include <algorithm>
#include <limits>

namespace tessera::reports {

std::uint32_t groupCount(std::uint32_t numTiles, std::uint32_t groupTiles) {
    return groupTiles == 0 ? 0 : (numTiles + groupTiles - 1) / groupTiles;
}

void groupStats(std::span<const std::uint64_t> compute, std::span<const std::uint64_t> exchange,
                std::uint64_t totalCycles, std::uint32_t groupTiles, LodBucket& out) {
    const auto numTiles = static_cast<std::uint32_t>(compute.size());
    const std::uint32_t groups = groupCount(numTiles, groupTiles);
    out.compute.assign(groups + 1, {});
    out.exchange.assign(groups + 1, {});
    out.sync.assign(groups + 1, {});
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    for (auto* v : {&out.compute, &out.exchange, &out.sync}) {
        for (GroupStats& s : *v) {
            s.min = kMax;
        }
    }
    auto fold = [](GroupStats& s, std::uint64_t value) {
        s.min = std::min(s.min, value);
        s.max = std::max(s.max, value);
        s.sum += value;
    };
    for (std::uint32_t t = 0; t < numTiles; ++t) {
        const std::uint64_t c = compute[t];
        const std::uint64_t e = exchange[t];
        // A tile is in sync for whatever part of the step it is not busy.
        const std::uint64_t busy = c + e;
        const std::uint64_t s = busy < totalCycles ? totalCycles - busy : 0;
        const std::uint32_t g = t / groupTiles;
        fold(out.compute[g], c);
        fold(out.exchange[g], e);
        fold(out.sync[g], s);
        fold(out.compute[groups], c);
        fold(out.exchange[groups], e);
        fold(out.sync[groups], s);
    }
    for (auto* v : {&out.compute, &out.exchange, &out.sync}) {
        for (GroupStats& s : *v) {
            if (s.min == kMax) {
                s.min = 0;
            }
        }
    }
}

struct LodBuilder::Level {
    explicit Level(std::uint32_t numTiles)
        : compute(numTiles, 0)
        , exchange(numTiles, 0) {}
    void reset() {
        std::fill(compute.begin(), compute.end(), 0);
        std::fill(exchange.begin(), exchange.end(), 0);
        firstSeq = steps = children = startCycle = cycles = 0;
        computePhase = exchangePhase = syncPhase = maxStep = 0;
    }

    std::vector<std::uint64_t> compute; // per tile, summed over the bucket in progress
    std::vector<std::uint64_t> exchange;
    std::uint64_t firstSeq = 0;
    std::uint64_t steps = 0;
    std::uint64_t children = 0; // buckets of the level below folded in
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    std::uint64_t computePhase = 0;
    std::uint64_t exchangePhase = 0;
    std::uint64_t syncPhase = 0;
    std::uint64_t maxStep = 0;
    std::uint64_t emitted = 0;
};

LodBuilder::LodBuilder(std::uint32_t numTiles, std::uint32_t groupTiles, std::uint32_t fanout,
                       Emit emit)
    : numTiles_(numTiles)
    , groupTiles_(std::max<std::uint32_t>(groupTiles, 1))
    , fanout_(std::max<std::uint32_t>(fanout, 2))
    , emit_(std::move(emit)) {}

LodBuilder::~LodBuilder() = default;

LodBuilder::Level& LodBuilder::levelAt(std::size_t level) {
    while (levels_.size() <= level) {
        levels_.push_back(std::make_unique<Level>(numTiles_));
    }
    return *levels_[level];
}

void LodBuilder::add(std::uint64_t sequence, std::uint64_t startCycle, std::uint64_t cycles,
                     const StepCosts& costs) {
    Level& l = levelAt(0);
    if (l.steps == 0) {
        l.firstSeq = sequence;
        l.startCycle = startCycle;
    }
    ++l.steps;
    l.cycles += cycles;
    l.computePhase += costs.computePhaseCycles;
    l.exchangePhase += costs.exchangePhaseCycles;
    l.syncPhase += costs.syncPhaseCycles;
    l.maxStep = std::max(l.maxStep, cycles);
    // The same program step has the same arrays: count it (a bucket holds
    // at most fanout steps, typically a few distinct ones).
    const auto same = [&](const Pending& p) {
        return p.costs.compute.data() == costs.compute.data() &&
               p.costs.compute.size() == costs.compute.size() &&
               p.costs.exchange.data() == costs.exchange.data() &&
               p.costs.exchange.size() == costs.exchange.size();
    };
    if (const auto it = std::find_if(pending_.begin(), pending_.end(), same);
        it != pending_.end()) {
        ++it->count;
    } else {
        pending_.push_back({costs, 1});
    }
    if (l.steps == fanout_) {
        complete(0);
    }
}

void LodBuilder::addPending() {
    Level& l = *levels_[0];
    for (const Pending& p : pending_) {
        // Empty spans mean "zero on every tile" (e.g. a sync-only step).
        const std::size_t nc = std::min<std::size_t>(p.costs.compute.size(), numTiles_);
        for (std::size_t t = 0; t < nc; ++t) {
            l.compute[t] += p.count * p.costs.compute[t];
        }
        const std::size_t ne = std::min<std::size_t>(p.costs.exchange.size(), numTiles_);
        for (std::size_t t = 0; t < ne; ++t) {
            l.exchange[t] += p.count * p.costs.exchange[t];
        }
    }
    pending_.clear();
}

// Emits level's bucket in progress and folds it into the level above.
void LodBuilder::complete(std::size_t level) {
    if (level == 0) {
        addPending();
    }
    Level& l = *levels_[level];
    LodBucket b;
    b.level = static_cast<std::uint32_t>(level + 1);
    b.index = l.emitted++;
    b.firstSeq = l.firstSeq;
    b.steps = l.steps;
    b.startCycle = l.startCycle;
    b.cycles = l.cycles;
    b.computePhaseCycles = l.computePhase;
    b.exchangePhaseCycles = l.exchangePhase;
    b.syncPhaseCycles = l.syncPhase;
    b.maxStepCycles = l.maxStep;
    groupStats(l.compute, l.exchange, l.cycles, groupTiles_, b);
    emit_(b);

    Level& up = levelAt(level + 1); // Levels are heap objects: `l` stays valid.
    if (up.children == 0) {
        up.firstSeq = l.firstSeq;
        up.startCycle = l.startCycle;
    }
    ++up.children;
    up.steps += l.steps;
    up.cycles += l.cycles;
    up.computePhase += l.computePhase;
    up.exchangePhase += l.exchangePhase;
    up.syncPhase += l.syncPhase;
    up.maxStep = std::max(up.maxStep, l.maxStep);
    for (std::uint32_t t = 0; t < numTiles_; ++t) {
        up.compute[t] += l.compute[t];
        up.exchange[t] += l.exchange[t];
    }
    l.reset();
    if (up.children == fanout_) {
        complete(level + 1);
    }
}

std::vector<LodLevel> LodBuilder::finish() {
    std::vector<LodLevel> kept;
    std::uint64_t bucketSteps = 1;
    for (std::size_t level = 0; level < levels_.size(); ++level) {
        bucketSteps *= fanout_;
        if (levels_[level]->steps > 0) {
            complete(level);
        }
        const Level& l = *levels_[level];
        if (l.emitted == 0) {
            break;
        }
        kept.push_back({static_cast<std::uint32_t>(level + 1), bucketSteps, l.emitted, groupTiles_,
                        groupCount(numTiles_, groupTiles_)});
        // One bucket covers the whole run: coarser levels would repeat it.
        if (l.emitted == 1) {
            break;
        }
    }
    levels_.clear();
    return kept;
}

} // namespace tessera::reports
