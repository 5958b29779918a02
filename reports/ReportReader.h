#pragma once
// Opens a report read-only and answers the queries the panes and the CLI need
// with plain structs (ReportTypes.h). Every failure is a ReportError with one
// line naming the file: missing, not a database, not a report, a newer major
// schema version, truncated or corrupt. Every value a query returns has been
// checked: of its column's type and in range (counts in [0, 2^48], ids and
// tile numbers within what the report holds), or the query throws a
// ReportError naming the table and column.
//
// One reader owns one SQLite connection: use it from one thread at a time
// (open another reader for another thread).
#include "reports/ReportTypes.h"
#include "reports/Summary.h"
#include "reports/TileOverlap.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tessera::reports {

struct OpenOptions {
    // Runs PRAGMA quick_check at open: reads the whole file, so off by
    // default; the header checks and per-query errors catch truncation.
    bool quickCheck = false;
};

class ReportReader {
public:
    explicit ReportReader(const std::filesystem::path& path, OpenOptions options = {});
    ~ReportReader();
    ReportReader(ReportReader&&) noexcept;
    ReportReader& operator=(ReportReader&&) noexcept;

    const ReportInfo& info() const;
    const TargetInfo& target() const;
    // What the structural checks at open found damaged, one ReportError line
    // each (empty for a sound report): a program tree that is not a tree, a
    // program step with a missing node, per-step tile arrays of the wrong size
    // or type, a run whose step count, executed steps or level-of-detail
    // levels disagree. The queries that read a damaged part throw its line;
    // the rest of the report reads as usual.
    std::vector<std::string> problems() const;
    Summary summary() const;

    // Graph and memory.
    std::vector<MemoryCategoryEntry> memoryCategories() const;
    std::vector<record::CodeletRecord> codelets() const;
    std::vector<VariableEntry> variables() const;
    std::vector<std::pair<record::TileId, std::uint64_t>>
    variableTiles(record::VariableId variable) const;
    std::vector<record::ComputeSetRecord> computeSets() const;
    // All vertex counts, or those of one compute set.
    std::vector<record::VertexCountRecord>
    vertexCounts(record::ComputeSetId computeSet = record::ComputeSetId::none()) const;
    std::vector<TileMemoryEntry> tileMemory() const;
    std::vector<record::MemoryBlockRecord> memoryBlocks(record::TileId tile) const;
    // Every tile's not-always-live overlap (TileOverlap), by tile, leaving out
    // tiles without such blocks: one scan of memory_blocks, so a pane need
    // not read every tile's blocks.
    std::vector<TileOverlap> notAlwaysLiveOverlap() const;

    // Program and liveness.
    // Block nodes carry their layer (schema 1.2; Unknown in older reports).
    std::vector<record::ProgramNodeRecord> programNodes() const;
    std::vector<ProgramStepEntry> programSteps() const;
    StepTiles stepTiles(record::StepId step) const;
    std::vector<record::VariableId> liveVariables(record::StepId step) const;
    // Every (step, variable) read or write, by step then variable. Empty for
    // reports older than schema 1.1, which did not record them.
    std::vector<StepVariableAccess> variableAccesses() const;

    // Execution.
    std::vector<RunEntry> runs() const;
    // Executed steps of a run with firstSeq <= sequence < endSeq.
    std::vector<record::StepExecutionRecord>
    executedSteps(std::uint32_t run, std::uint64_t firstSeq, std::uint64_t endSeq) const;
    // How often each program step ran, over every run: (step id, executions)
    // for the steps that ran, by step id. One GROUP BY query; throws the
    // ReportError of a damaged run or of an executed step naming no step.
    std::vector<std::pair<record::StepId, std::uint64_t>> stepExecutions() const;
    // Stored levels (1..K) after a synthesized level 0 of single steps.
    std::vector<LodLevel> lodLevels(std::uint32_t run) const;
    // Buckets of a level overlapping [firstSeq, endSeq). Level 0 is computed
    // from the executed steps and the program steps' tile arrays.
    std::vector<LodBucket> lodBuckets(std::uint32_t run, std::uint32_t level,
                                      std::uint64_t firstSeq, std::uint64_t endSeq) const;
    std::vector<record::VerificationRecord> verifications() const;

    struct Impl;

private:
    void readOperationLayers(std::vector<record::ProgramNodeRecord>& nodes) const;
    std::unique_ptr<Impl> d_;
};

} // namespace tessera::reports
