#pragma once
// One report loaded: everything small enough to hold at once, read in one go
// (in the background in the GUI). The panes draw from it and the comparison
// core compares two of them: one structure from the loader to the pane.
// Per-step tile arrays, memory blocks and timeline buckets stay in the
// report, fetched on demand (views' ReportSource).
#include "reports/ReportTypes.h"
#include "reports/Summary.h"
#include "reports/TileOverlap.h"

#include <atomic>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::reports {

class ReportReader;

struct ReportData {
    std::filesystem::path path;
    ReportInfo info;
    TargetInfo target;
    Summary summary;
    std::vector<MemoryCategoryEntry> categories;
    std::vector<record::CodeletRecord> codelets;
    std::vector<VariableEntry> variables;
    std::vector<record::ComputeSetRecord> computeSets;
    std::vector<record::VertexCountRecord> vertexCounts;
    std::vector<TileMemoryEntry> tileMemory;
    std::vector<record::ProgramNodeRecord> programNodes;
    std::vector<ProgramStepEntry> programSteps;
    std::vector<RunEntry> runs;
    std::vector<StepVariableAccess> variableAccesses; // by step, then variable
    // (program step id, executions over every run), by step id: stored in the
    // report since schema 1.2, counted from the executed steps (here, on the
    // loading thread) for older reports. Not loaded when that read failed
    // (a damaged run): the Program pane then reads it and names the problem.
    std::vector<std::pair<StepId, std::uint64_t>> stepExecutions;
    bool stepExecutionsLoaded = false;
    // Per tile, the not-always-live bytes shared with other blocks or not (a
    // sweep of every tile's blocks, done once here); nullopt when unreadable.
    std::optional<std::vector<TileOverlap>> tileOverlap;
    // Per entry of `variables`: its (tile, bytes), tiles ascending (none for
    // an exchange buffer). Loaded only when asked (LoadOptions::placement):
    // the comparison core needs it, the panes do not.
    std::optional<std::vector<std::vector<std::pair<TileId, std::uint64_t>>>> placement;
    // What is damaged, one line each (ReportError texts): the structural
    // checks' findings and the parts that failed to read. A part that failed
    // is left empty; the rest of the report is there.
    std::vector<std::string> problems;

    // By id, or null (also for none()).
    const VariableEntry* variable(VariableId id) const;
    const ProgramStepEntry* step(StepId id) const;
    const record::ProgramNodeRecord* node(ProgramNodeId id) const;
    std::string computeSetName(ComputeSetId id) const;
    // Executions of a program step over every run (0 when none or unknown).
    std::uint64_t executionsOf(StepId step) const;
};

class LoadCancelled : public std::exception {
public:
    const char* what() const noexcept override { return "loading cancelled"; }
};

// progress(percent, stage) is called from the loading thread.
using LoadProgress = std::function<void(int percent, const std::string& stage)>;

struct LoadOptions {
    bool placement = false; // read ReportData::placement (a comparison's side)
};

// Throws ReportError for a file that does not open as a report and
// LoadCancelled when `cancel` becomes true. A report that opens but is
// damaged loads what can be read; ReportData::problems says what could not.
std::shared_ptr<const ReportData> loadReportData(const std::filesystem::path& path,
                                                 const LoadProgress& progress = {},
                                                 const std::atomic<bool>* cancel = nullptr,
                                                 LoadOptions options = {});
// The same from a reader already open (so a report is opened once for its
// data, the views' on-demand source and a comparison).
std::shared_ptr<const ReportData> loadReportData(const ReportReader& reader,
                                                 const LoadProgress& progress = {},
                                                 const std::atomic<bool>* cancel = nullptr,
                                                 LoadOptions options = {});

} // namespace tessera::reports
