#pragma once
// On-demand queries of one open report, safe to call from any thread (one
// connection behind a mutex) with small caches for what panes ask for again
// and again while the user pans and zooms.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "reports/ReportTypes.h"

namespace tessera::reports {
class ReportReader;
}

namespace tessera::views {

class ReportSource {
public:
    explicit ReportSource(const std::filesystem::path& path); // throws reports::ReportError
    ~ReportSource();

    std::shared_ptr<const reports::StepTiles> stepTiles(std::uint32_t step) const;
    std::vector<reports::MemoryBlockEntry> memoryBlocks(std::uint32_t tile) const;
    std::vector<std::uint32_t> liveVariables(std::uint32_t step) const;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> variableTiles(std::uint32_t variable) const;
    std::vector<reports::LodLevel> lodLevels(std::uint32_t run) const;
    std::shared_ptr<const std::vector<reports::LodBucket>> lodBuckets(std::uint32_t run, std::uint32_t level,
                                                                      std::uint64_t firstSeq,
                                                                      std::uint64_t endSeq) const;
    std::vector<reports::ExecutedStep> executedSteps(std::uint32_t run, std::uint64_t firstSeq,
                                                     std::uint64_t endSeq) const;

private:
    mutable std::mutex mutex_;
    std::unique_ptr<reports::ReportReader> reader_;
    mutable std::map<std::uint32_t, std::shared_ptr<const reports::StepTiles>> stepCache_;
    using BucketKey = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t>;
    mutable std::map<BucketKey, std::shared_ptr<const std::vector<reports::LodBucket>>> bucketCache_;
};

} // namespace tessera::views
