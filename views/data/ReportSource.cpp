#include "views/data/ReportSource.h"

#include "reports/ReportReader.h"

namespace tessera::views {

namespace {

// Enough for every step a pane shows at once and a few screens of LOD
// buckets; each is small against the report a user pans through.
constexpr std::size_t kStepCacheBytes = 8u << 20;
constexpr std::size_t kBucketCacheBytes = 8u << 20;

std::size_t bytesOf(const reports::StepTiles& t) {
    return sizeof t + 4 * (t.computeCycles.size() + t.exchangeCycles.size() + t.syncCycles.size() +
                           t.bytesIn.size() + t.bytesOut.size() + t.notAlwaysLiveBytes.size());
}

std::size_t bytesOf(const std::vector<reports::LodBucket>& buckets) {
    std::size_t bytes = sizeof buckets;
    for (const auto& b : buckets) {
        bytes += sizeof b + sizeof(reports::GroupStats) *
                                (b.compute.size() + b.exchange.size() + b.sync.size());
    }
    return bytes;
}

} // namespace

ReportSource::ReportSource(const std::filesystem::path& path)
    : ReportSource(std::make_unique<reports::ReportReader>(path)) {}

ReportSource::ReportSource(std::unique_ptr<reports::ReportReader> reader)
    : reader_(std::move(reader))
    , stepCache_(kStepCacheBytes)
    , bucketCache_(kBucketCacheBytes) {}

std::size_t ReportSource::cachedBytes() const {
    std::lock_guard lock(mutex_);
    return stepCache_.bytes() + bucketCache_.bytes();
}

ReportSource::~ReportSource() = default;

std::shared_ptr<const reports::StepTiles> ReportSource::stepTiles(record::StepId step) const {
    std::lock_guard lock(mutex_);
    if (auto cached = stepCache_.find(step)) {
        return cached;
    }
    auto tiles = std::make_shared<const reports::StepTiles>(reader_->stepTiles(step));
    stepCache_.insert(step, tiles, bytesOf(*tiles));
    return tiles;
}

std::vector<record::MemoryBlockRecord> ReportSource::memoryBlocks(record::TileId tile) const {
    std::lock_guard lock(mutex_);
    return reader_->memoryBlocks(tile);
}

std::vector<record::VariableId> ReportSource::liveVariables(record::StepId step) const {
    std::lock_guard lock(mutex_);
    return reader_->liveVariables(step);
}

std::vector<std::pair<record::TileId, std::uint64_t>>
ReportSource::variableTiles(record::VariableId variable) const {
    std::lock_guard lock(mutex_);
    return reader_->variableTiles(variable);
}

std::vector<reports::LodLevel> ReportSource::lodLevels(std::uint32_t run) const {
    std::lock_guard lock(mutex_);
    return reader_->lodLevels(run);
}

std::shared_ptr<const std::vector<reports::LodBucket>>
ReportSource::lodBuckets(std::uint32_t run, std::uint32_t level, std::uint64_t firstSeq,
                         std::uint64_t endSeq) const {
    std::lock_guard lock(mutex_);
    const BucketKey key{run, level, firstSeq, endSeq};
    if (auto cached = bucketCache_.find(key)) {
        return cached;
    }
    auto buckets = std::make_shared<const std::vector<reports::LodBucket>>(
        reader_->lodBuckets(run, level, firstSeq, endSeq));
    bucketCache_.insert(key, buckets, bytesOf(*buckets));
    return buckets;
}

std::vector<record::StepExecutionRecord>
ReportSource::executedSteps(std::uint32_t run, std::uint64_t firstSeq, std::uint64_t endSeq) const {
    std::lock_guard lock(mutex_);
    return reader_->executedSteps(run, firstSeq, endSeq);
}

std::vector<std::pair<record::StepId, std::uint64_t>> ReportSource::stepExecutions() const {
    std::lock_guard lock(mutex_);
    return reader_->stepExecutions();
}

} // namespace tessera::views
