#include "views/panes/execution/FrameBuilder.h"

#include "views/data/ReportData.h"
#include "views/data/ReportSource.h"

#include <algorithm>
#include <chrono>
#include <unordered_set>

namespace tessera::views::execution {

namespace {

constexpr std::uint64_t kStepChunk = 4096;    // executed steps per cached chunk
constexpr std::size_t kStepChunkLimit = 64;   // about 10 MB of executed steps
constexpr std::size_t kStepStatsLimit = 2048; // program steps' tile-group figures
constexpr std::uint64_t kBucketChunk = 128;   // buckets per fetch, aligned, so pans hit the cache
constexpr std::uint64_t kMaxIndexBuckets = 2048;
constexpr std::size_t kMaxTileSteps = 1024; // distinct program steps summed per tile

void accumulate(reports::GroupStats& s, std::uint64_t v, bool first) {
    s.min = first ? v : std::min(s.min, v);
    s.max = first ? v : std::max(s.max, v);
    s.sum += v;
}

} // namespace

reports::LodBucket tileGroupStats(const reports::StepTiles& tiles, std::uint32_t groupTiles) {
    reports::LodBucket b;
    const auto n = static_cast<std::uint32_t>(tiles.computeCycles.size());
    groupTiles = std::max<std::uint32_t>(groupTiles, 1);
    const std::uint32_t groups = (n + groupTiles - 1) / groupTiles;
    b.compute.resize(groups + 1);
    b.exchange.resize(groups + 1);
    b.sync.resize(groups + 1);
    for (std::uint32_t t = 0; t < n; ++t) {
        const std::uint64_t c = tiles.computeCycles[t];
        const std::uint64_t e = t < tiles.exchangeCycles.size() ? tiles.exchangeCycles[t] : 0;
        const std::uint64_t s = tiles.totalCycles > c + e ? tiles.totalCycles - c - e : 0;
        const std::uint32_t g = t / groupTiles;
        const bool firstInGroup = t % groupTiles == 0;
        accumulate(b.compute[g], c, firstInGroup);
        accumulate(b.exchange[g], e, firstInGroup);
        accumulate(b.sync[g], s, firstInGroup);
        accumulate(b.compute[groups], c, t == 0);
        accumulate(b.exchange[groups], e, t == 0);
        accumulate(b.sync[groups], s, t == 0);
    }
    return b;
}

FrameBuilder::FrameBuilder(std::shared_ptr<const ReportData> data,
                           std::shared_ptr<ReportSource> source)
    : data_(std::move(data))
    , source_(std::move(source))
    , hierarchy_(data_->programNodes, data_->programSteps) {}

void FrameBuilder::checkCancelled() const {
    if (cancelled_) {
        throw BuildCancelled();
    }
}

std::shared_ptr<const StepIndex> FrameBuilder::index(std::uint32_t run) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = indexes_.find(run); it != indexes_.end()) {
            return it->second;
        }
    }
    std::vector<reports::LodLevel> levels = source_->lodLevels(run);
    std::vector<IndexBucket> buckets;
    const std::uint64_t steps = levels.empty() ? 0 : levels.front().buckets;
    if (!levels.empty()) {
        groupTiles_ = std::max<std::uint32_t>(levels.front().groupTiles, 1);
    }
    // The reader checks the levels (bucket_steps > 0, buckets that tile the
    // run); a level that still makes no progress is not walked.
    if (steps > 0) {
        // The finest stored level small enough to hold whole; the coarsest
        // level is a single bucket, so one always qualifies.
        const reports::LodLevel* chosen = levels.size() > 1 ? &levels.back() : nullptr;
        for (std::size_t i = 1; i < levels.size(); ++i) {
            if (levels[i].buckets <= kMaxIndexBuckets) {
                chosen = &levels[i];
                break;
            }
        }
        if (chosen) {
            // In the same aligned chunks frames read, so the source's cache serves both.
            const std::uint64_t chunkSteps =
                std::max<std::uint64_t>(chosen->bucketSteps, 1) * kBucketChunk;
            for (std::uint64_t c = 0; c * chunkSteps < steps; ++c) {
                checkCancelled();
                for (const auto& b : *source_->lodBuckets(run, chosen->level, c * chunkSteps,
                                                          (c + 1) * chunkSteps)) {
                    buckets.push_back({b.startCycle, b.cycles, b.firstSeq, b.steps});
                }
            }
        } else {
            for (const auto& e : source_->executedSteps(run, 0, steps)) {
                buckets.push_back({e.startCycle, e.cycles, e.sequence, 1});
            }
        }
    }
    auto idx = std::make_shared<const StepIndex>(run, std::move(levels), std::move(buckets));
    std::lock_guard lock(mutex_);
    return indexes_.emplace(run, idx).first->second;
}

std::vector<record::StepExecutionRecord>
FrameBuilder::executedSteps(std::uint32_t run, std::uint64_t first, std::uint64_t end) {
    std::vector<record::StepExecutionRecord> out;
    if (end <= first) {
        return out;
    }
    out.reserve(end - first);
    for (std::uint64_t c = first / kStepChunk; c * kStepChunk < end; ++c) {
        checkCancelled();
        std::shared_ptr<const std::vector<record::StepExecutionRecord>> chunk;
        {
            std::lock_guard lock(mutex_);
            if (auto it = stepChunks_.find({run, c}); it != stepChunks_.end()) {
                chunk = it->second;
            }
        }
        if (!chunk) {
            chunk = std::make_shared<const std::vector<record::StepExecutionRecord>>(
                source_->executedSteps(run, c * kStepChunk, (c + 1) * kStepChunk));
            std::lock_guard lock(mutex_);
            if (stepChunks_.size() >= kStepChunkLimit) {
                stepChunks_.clear();
            }
            stepChunks_[{run, c}] = chunk;
        }
        for (const auto& e : *chunk) {
            if (e.sequence >= first && e.sequence < end) {
                out.push_back(e);
            }
        }
    }
    return out;
}

std::optional<record::StepExecutionRecord>
FrameBuilder::findExecution(std::uint32_t run, record::StepId programStep, std::uint64_t from) {
    const std::uint64_t steps = index(run)->steps();
    constexpr std::uint64_t kScan = 65536;
    // From `from` to the end, then from the start up to `from`.
    for (const auto& [a, b] :
         {std::pair{from, steps}, std::pair{std::uint64_t{0}, std::min(from, steps)}}) {
        for (std::uint64_t s = a; s < b; s += kScan) {
            checkCancelled();
            for (const auto& e : source_->executedSteps(run, s, std::min(b, s + kScan))) {
                if (e.programStep == programStep) {
                    return e;
                }
            }
        }
    }
    return std::nullopt;
}

FrameBuilder::Executions FrameBuilder::findExecutions(std::uint32_t run,
                                                      const std::vector<bool>& steps,
                                                      std::size_t limit,
                                                      const std::atomic<bool>& stop) {
    Executions result;
    if (std::find(steps.begin(), steps.end(), true) == steps.end()) {
        return result; // no step matches: nothing to scan
    }
    const std::uint64_t count = index(run)->steps();
    constexpr std::uint64_t kScan = 65536;
    for (std::uint64_t s = 0; s < count; s += kScan) {
        checkCancelled();
        if (stop) {
            throw BuildCancelled();
        }
        // Straight from the source: a scan would only flush the chunk cache.
        for (const auto& e : source_->executedSteps(run, s, std::min(count, s + kScan))) {
            if (e.programStep.value() < steps.size() && steps[e.programStep.value()]) {
                ++result.total;
                if (result.found.size() < limit) {
                    result.found.push_back(e);
                }
            }
        }
    }
    return result;
}

std::shared_ptr<const reports::StepTiles> FrameBuilder::stepTiles(record::StepId programStep) {
    return source_->stepTiles(programStep);
}

std::shared_ptr<const reports::LodBucket> FrameBuilder::stepStats(record::StepId programStep) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = stepStats_.find(programStep); it != stepStats_.end()) {
            return it->second;
        }
    }
    auto stats = std::make_shared<const reports::LodBucket>(
        tileGroupStats(*stepTiles(programStep), groupTiles_));
    std::lock_guard lock(mutex_);
    if (stepStats_.size() >= kStepStatsLimit) {
        stepStats_.clear();
    }
    return stepStats_.emplace(programStep, stats).first->second;
}

void FrameBuilder::addSteps(TimelineFrame& frame) {
    std::unordered_set<const void*> kept;
    for (const record::StepExecutionRecord& e : frame.steps) {
        auto stats = stepStats(e.programStep);
        TimelineItem item;
        item.startCycle = e.startCycle;
        item.cycles = e.cycles;
        item.firstSeq = e.sequence;
        item.steps = 1;
        item.programStep = e.programStep;
        if (const reports::ProgramStepEntry* s = data_->step(e.programStep)) {
            item.computePhase = s->computePhaseCycles;
            item.exchangePhase = s->exchangePhaseCycles;
            item.syncPhase = s->syncCycles;
        }
        item.stats = stats.get();
        frame.items.push_back(item);
        if (kept.insert(stats.get()).second) {
            frame.keepAlive.push_back(stats);
        }
    }
}

void FrameBuilder::addBuckets(TimelineFrame& frame, std::uint64_t s0, std::uint64_t s1) {
    const reports::LodLevel* level = frame.index->level(frame.level);
    if (!level) {
        return;
    }
    const std::uint64_t chunkSteps = std::max<std::uint64_t>(level->bucketSteps, 1) * kBucketChunk;
    for (std::uint64_t c = s0 / chunkSteps; c * chunkSteps < s1; ++c) {
        checkCancelled();
        auto chunk = source_->lodBuckets(frame.request.run, frame.level, c * chunkSteps,
                                         (c + 1) * chunkSteps);
        frame.keepAlive.push_back(chunk);
        for (const reports::LodBucket& b : *chunk) {
            const double bs = static_cast<double>(b.startCycle);
            if (bs + static_cast<double>(b.cycles) <= frame.coveredStart ||
                bs >= frame.coveredEnd) {
                continue;
            }
            TimelineItem item;
            item.startCycle = b.startCycle;
            item.cycles = b.cycles;
            item.firstSeq = b.firstSeq;
            item.steps = b.steps;
            item.computePhase = b.computePhaseCycles;
            item.exchangePhase = b.exchangePhaseCycles;
            item.syncPhase = b.syncPhaseCycles;
            item.stats = &b;
            frame.items.push_back(item);
        }
    }
}

void FrameBuilder::addTiles(TimelineFrame& frame) {
    const TimelineRequest& r = frame.request;
    const std::uint32_t first = std::min(r.tileFirst, frame.numTiles);
    const std::uint32_t count = std::min(r.tileCount, frame.numTiles - first);
    if (!r.tileRows || count == 0 || !frame.stepsComplete) {
        return;
    }
    std::unordered_set<record::StepId> distinct;
    for (const auto& e : frame.steps) {
        distinct.insert(e.programStep);
        if (distinct.size() > kMaxTileSteps) {
            return; // too many different steps to sum per tile: rows show their group
        }
    }
    std::map<record::StepId, std::shared_ptr<const reports::StepTiles>> tiles;
    for (const record::StepId s : distinct) {
        tiles[s] = stepTiles(s);
    }
    frame.tileFirst = first;
    frame.tileCount = count;
    frame.tiles.assign(frame.items.size() * count, {});
    std::size_t si = 0;
    for (std::size_t i = 0; i < frame.items.size(); ++i) {
        const TimelineItem& item = frame.items[i];
        while (si < frame.steps.size() && frame.steps[si].sequence < item.firstSeq) {
            ++si;
        }
        for (; si < frame.steps.size() && frame.steps[si].sequence < item.firstSeq + item.steps;
             ++si) {
            const reports::StepTiles& st = *tiles[frame.steps[si].programStep];
            TileCycles* out = &frame.tiles[i * count];
            for (std::uint32_t t = 0; t < count && first + t < st.computeCycles.size(); ++t) {
                const std::uint64_t c = st.computeCycles[first + t];
                const std::uint64_t e = st.exchangeCycles[first + t];
                out[t].compute += c;
                out[t].exchange += e;
                out[t].sync += st.totalCycles > c + e ? st.totalCycles - c - e : 0;
            }
        }
    }
}

std::shared_ptr<const TimelineFrame> FrameBuilder::build(const TimelineRequest& request) {
    checkCancelled();
    const auto t0 = std::chrono::steady_clock::now();
    auto frame = std::make_shared<TimelineFrame>();
    frame->request = request;
    frame->index = index(request.run);
    frame->numTiles = data_->target.numTiles;
    frame->groupTiles = groupTiles_;
    frame->groups = (frame->numTiles + groupTiles_ - 1) / groupTiles_;
    const StepIndex& idx = *frame->index;
    const double runBegin = static_cast<double>(idx.firstCycle());
    const double runEnd = static_cast<double>(idx.endCycle());
    // One visible width of margin each side, so a pan shows data at once.
    const double span = std::max(request.end - request.start, 1.0);
    // (Never narrower than the request, even if it reaches past the run.)
    frame->coveredStart = std::min(request.start, std::max(runBegin, request.start - span));
    frame->coveredEnd = std::max(request.end, std::min(runEnd, request.end + span));
    if (idx.steps() == 0) {
        return frame;
    }
    frame->level = idx.chooseLevel(request.start, request.end, request.widthPx);
    const auto [s0, s1] = idx.seqRange(frame->coveredStart, frame->coveredEnd);
    if (s1 - s0 <= kMaxFrameSteps) {
        for (auto& e : executedSteps(request.run, s0, s1)) {
            const double es = static_cast<double>(e.startCycle);
            if (es + static_cast<double>(e.cycles) > frame->coveredStart &&
                es < frame->coveredEnd) {
                frame->steps.push_back(e);
            }
        }
        frame->stepsComplete = true;
        frame->flame = std::make_shared<const FlameData>(buildFlame(frame->steps, hierarchy_));
    } else if (frame->level == 0) {
        frame->level = 1; // cannot happen with a sane index; never draw level 0 without its steps
    }
    if (frame->level == 0) {
        addSteps(*frame);
    } else {
        addBuckets(*frame, s0, s1);
    }
    addTiles(*frame);
    frame->fetchSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return frame;
}

} // namespace tessera::views::execution
