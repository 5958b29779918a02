#pragma once
// Everything the panes draw from that is small enough to hold at once,
// loaded in one go (in the background). Per-step tile arrays, memory blocks
// and timeline buckets are fetched on demand through ReportSource.
#include "reports/ReportTypes.h"
#include "reports/Summary.h"
#include "reports/TileOverlap.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::reports {
class ReportReader;
}

namespace tessera::views {

struct ReportData {
    std::filesystem::path path;
    reports::ReportInfo info;
    reports::TargetInfo target;
    reports::Summary summary;
    std::vector<reports::MemoryCategoryEntry> categories;
    std::vector<reports::CodeletEntry> codelets;
    std::vector<reports::VariableEntry> variables;
    std::vector<record::ComputeSetRecord> computeSets;
    std::vector<reports::VertexCountEntry> vertexCounts;
    std::vector<reports::TileMemoryEntry> tileMemory;
    std::vector<record::ProgramNodeRecord> programNodes;
    std::vector<reports::ProgramStepEntry> programSteps;
    std::vector<reports::RunEntry> runs;
    std::vector<reports::StepVariableAccess> variableAccesses; // by step, then variable
    // (program step id, executions over every run), by step id: stored in the
    // report since schema 1.2, counted from the executed steps (here, on the
    // loading thread) for older reports. Not loaded when that read failed
    // (a damaged run): the Program pane then reads it and names the problem.
    std::vector<std::pair<std::uint32_t, std::uint64_t>> stepExecutions;
    bool stepExecutionsLoaded = false;
    // Per tile, the not-always-live bytes shared with other blocks or not (a
    // sweep of every tile's blocks, done once here); nullopt when unreadable.
    std::optional<std::vector<reports::TileOverlap>> tileOverlap;
    // What is damaged, one line each (reports::ReportError texts): the
    // structural checks' findings and the parts that failed to read. A part
    // that failed is left empty; the rest of the report is there.
    std::vector<std::string> problems;

    const reports::VariableEntry* variable(std::uint32_t id) const; // by id, or null
    const reports::ProgramStepEntry* step(std::uint32_t id) const;
    const record::ProgramNodeRecord* node(std::uint32_t id) const;
    std::string computeSetName(std::uint32_t id) const;
};

class LoadCancelled : public std::exception {
public:
    const char* what() const noexcept override { return "loading cancelled"; }
};

// progress(percent, stage) is called from the loading thread.
using LoadProgress = std::function<void(int percent, const std::string& stage)>;

// Throws reports::ReportError for a file that does not open as a report and
// LoadCancelled when `cancel` becomes true. A report that opens but is
// damaged loads what can be read; ReportData::problems says what could not.
std::shared_ptr<const ReportData> loadReportData(const std::filesystem::path& path,
                                                 const LoadProgress& progress = {},
                                                 const std::atomic<bool>* cancel = nullptr);
// The same from a reader already open (so a report is opened once for its data,
// its ReportSource and a comparison's snapshot).
std::shared_ptr<const ReportData> loadReportData(const reports::ReportReader& reader,
                                                 const LoadProgress& progress = {},
                                                 const std::atomic<bool>* cancel = nullptr);

} // namespace tessera::views
