#pragma once
// On-demand queries of one open report, safe to call from any thread (one
// connection behind a mutex) with small caches for what panes ask for again
// and again while the user pans and zooms. The caches are bounded in bytes,
// so the memory a view holds does not grow with the report.
#include "reports/ReportTypes.h"
#include "views/data/ByteBoundedCache.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace tessera::reports {
class ReportReader;
}

namespace tessera::views {

class ReportSource {
public:
    explicit ReportSource(const std::filesystem::path& path); // throws reports::ReportError
    // Takes over a reader already open (a report is opened once per load).
    explicit ReportSource(std::unique_ptr<reports::ReportReader> reader);
    ~ReportSource();

    std::shared_ptr<const reports::StepTiles> stepTiles(record::StepId step) const;
    std::vector<record::MemoryBlockRecord> memoryBlocks(record::TileId tile) const;
    std::vector<record::VariableId> liveVariables(record::StepId step) const;
    std::vector<std::pair<record::TileId, std::uint64_t>>
    variableTiles(record::VariableId variable) const;
    std::vector<reports::LodLevel> lodLevels(std::uint32_t run) const;
    std::shared_ptr<const std::vector<reports::LodBucket>> lodBuckets(std::uint32_t run,
                                                                      std::uint32_t level,
                                                                      std::uint64_t firstSeq,
                                                                      std::uint64_t endSeq) const;
    // (program step id, executions over every run), by step id.
    std::vector<std::pair<record::StepId, std::uint64_t>> stepExecutions() const;
    std::vector<record::StepExecutionRecord>
    executedSteps(std::uint32_t run, std::uint64_t firstSeq, std::uint64_t endSeq) const;

    // What the caches hold now (for tests and benchmarks).
    std::size_t cachedBytes() const;

private:
    mutable std::mutex mutex_;
    std::unique_ptr<reports::ReportReader> reader_;
    mutable ByteBoundedCache<record::StepId, reports::StepTiles> stepCache_;
    using BucketKey = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t>;
    mutable ByteBoundedCache<BucketKey, std::vector<reports::LodBucket>> bucketCache_;
};

} // namespace tessera::views
