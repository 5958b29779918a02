#include "views/data/ReportSource.h"

#include "reports/ReportReader.h"

namespace tessera::views {

namespace {
constexpr std::size_t kStepCacheLimit = 512;
constexpr std::size_t kBucketCacheLimit = 256;
} // namespace

ReportSource::ReportSource(const std::filesystem::path& path)
    : reader_(std::make_unique<reports::ReportReader>(path)) {}

ReportSource::~ReportSource() = default;

std::shared_ptr<const reports::StepTiles> ReportSource::stepTiles(std::uint32_t step) const {
    std::lock_guard lock(mutex_);
    auto it = stepCache_.find(step);
    if (it != stepCache_.end()) {
        return it->second;
    }
    if (stepCache_.size() >= kStepCacheLimit) {
        stepCache_.clear(); // simple and bounded; panes re-ask only for what they show
    }
    auto tiles = std::make_shared<const reports::StepTiles>(reader_->stepTiles(step));
    stepCache_.emplace(step, tiles);
    return tiles;
}

std::vector<reports::MemoryBlockEntry> ReportSource::memoryBlocks(std::uint32_t tile) const {
    std::lock_guard lock(mutex_);
    return reader_->memoryBlocks(tile);
}

std::vector<std::uint32_t> ReportSource::liveVariables(std::uint32_t step) const {
    std::lock_guard lock(mutex_);
    return reader_->liveVariables(step);
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> ReportSource::variableTiles(std::uint32_t variable) const {
    std::lock_guard lock(mutex_);
    return reader_->variableTiles(variable);
}

std::vector<reports::LodLevel> ReportSource::lodLevels(std::uint32_t run) const {
    std::lock_guard lock(mutex_);
    return reader_->lodLevels(run);
}

std::shared_ptr<const std::vector<reports::LodBucket>> ReportSource::lodBuckets(std::uint32_t run, std::uint32_t level,
                                                                               std::uint64_t firstSeq,
                                                                               std::uint64_t endSeq) const {
    std::lock_guard lock(mutex_);
    const BucketKey key{run, level, firstSeq, endSeq};
    auto it = bucketCache_.find(key);
    if (it != bucketCache_.end()) {
        return it->second;
    }
    if (bucketCache_.size() >= kBucketCacheLimit) {
        bucketCache_.clear();
    }
    auto buckets =
        std::make_shared<const std::vector<reports::LodBucket>>(reader_->lodBuckets(run, level, firstSeq, endSeq));
    bucketCache_.emplace(key, buckets);
    return buckets;
}

std::vector<reports::ExecutedStep> ReportSource::executedSteps(std::uint32_t run, std::uint64_t firstSeq,
                                                               std::uint64_t endSeq) const {
    std::lock_guard lock(mutex_);
    return reader_->executedSteps(run, firstSeq, endSeq);
}

} // namespace tessera::views
