#pragma once
// Builds timeline frames from a report: the synchronous half of the
// execution pane's data worker (TimelineFetcher runs it off the GUI thread).
// Thread-safe; keeps small caches of executed steps and per-step tile-group
// figures so panning over the same steps costs little.
#include "views/panes/execution/FlameSpans.h"
#include "views/panes/execution/TimelineFrame.h"

#include <atomic>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {
using reports::ReportData;
class ReportSource;
} // namespace tessera::views

namespace tessera::views::execution {

// Executed steps of a frame are held (for the flame view, hit tests and the
// steps table) up to this many; a wider range shows buckets only.
inline constexpr std::uint64_t kMaxFrameSteps = 65536;

// Thrown by a build or search that was cancelled.
class BuildCancelled : public std::exception {
public:
    const char* what() const noexcept override { return "cancelled"; }
};

class FrameBuilder {
public:
    FrameBuilder(std::shared_ptr<const ReportData> data, std::shared_ptr<ReportSource> source);

    // Makes every build and search in progress, and every later one, throw
    // BuildCancelled at its next step (a pane closing does not wait for them).
    void cancel() { cancelled_ = true; }

    const ReportData& data() const { return *data_; }
    const ProgramHierarchy& hierarchy() const { return hierarchy_; }

    // The run's coarse index (built once).
    std::shared_ptr<const StepIndex> index(std::uint32_t run);
    std::shared_ptr<const TimelineFrame> build(const TimelineRequest& request);

    // Executed steps [first, end) of a run through the chunk cache.
    std::vector<record::StepExecutionRecord> executedSteps(std::uint32_t run, std::uint64_t first,
                                                           std::uint64_t end);
    // The first execution of programStep at or after sequence `from`
    // (wrapping to the start of the run), if it runs at all.
    std::optional<record::StepExecutionRecord>
    findExecution(std::uint32_t run, record::StepId programStep, std::uint64_t from);

    // Every execution of the steps flagged in `steps` (by program step id) in
    // the run, in order: at most `limit` held, all counted. Scans the run's
    // executed steps (a worker's job); throws BuildCancelled when `stop` or
    // cancel() is set.
    struct Executions {
        std::vector<record::StepExecutionRecord> found;
        std::uint64_t total = 0;
    };
    Executions findExecutions(std::uint32_t run, const std::vector<bool>& steps, std::size_t limit,
                              const std::atomic<bool>& stop);

private:
    void checkCancelled() const;
    std::shared_ptr<const reports::LodBucket> stepStats(record::StepId programStep);
    std::shared_ptr<const reports::StepTiles> stepTiles(record::StepId programStep);
    void addBuckets(TimelineFrame& frame, std::uint64_t s0, std::uint64_t s1);
    void addSteps(TimelineFrame& frame);
    void addTiles(TimelineFrame& frame);

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<ReportSource> source_;
    ProgramHierarchy hierarchy_;
    std::atomic<std::uint32_t> groupTiles_ = 16;
    std::atomic<bool> cancelled_ = false;

    std::mutex mutex_; // guards the caches below
    std::map<std::uint32_t, std::shared_ptr<const StepIndex>> indexes_;
    std::map<std::pair<std::uint32_t, std::uint64_t>,
             std::shared_ptr<const std::vector<record::StepExecutionRecord>>>
        stepChunks_;
    std::map<record::StepId, std::shared_ptr<const reports::LodBucket>> stepStats_;
};

// Min, max and sum per group of `groupTiles` tiles, then over all tiles, of
// each tile's compute, exchange and sync (= total - compute - exchange) cycles.
reports::LodBucket tileGroupStats(const reports::StepTiles& tiles, std::uint32_t groupTiles);

} // namespace tessera::views::execution
