#pragma once
// What every pva handle shares: the open report (reports/' reader, no SQL
// here) and what has been read from it so far. Each part is read on first use.
#include "reports/ReportReader.h"

#include <pva/pva.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pva::detail {

using tessera::record::kNone;

// The Sync the SDK's engine runs to flush the block buffers
// (app/sdk/src/BlockFlush.h).
inline constexpr const char* kBlockFlushName = "BlockFlush";

// The lightweight-profiling options the capture used (engine options stored
// with the report as capture parameters).
struct BlockOptions {
    std::string blocksFilter;                // profiler.blocks.filter
    std::string programsFilter;              // profiler.programs.filter
    bool instrumentExternalExchange = false; // debug.instrumentExternalExchange
    std::uint64_t bufferSize = 1000;         // profiler.blocks.bufferSize, bytes
};

struct ReportData : std::enable_shared_from_this<ReportData> {
    explicit ReportData(const std::string& path);

    tessera::reports::ReportReader reader;
    std::string path;

    // Program tree: one pva program per node, three per stream copy.
    void loadPrograms();
    bool programsLoaded = false;
    std::vector<std::shared_ptr<Program>> programs;                        // all, in node order
    std::vector<std::shared_ptr<Program>> roots;                           // by program index
    std::map<std::uint32_t, std::vector<std::shared_ptr<Program>>> byNode; // node -> programs
    std::vector<tessera::record::ProgramNodeRecord> nodes;
    std::vector<tessera::reports::ProgramStepEntry> steps;
    std::shared_ptr<Program> stepProgram(std::uint32_t step);

    const std::vector<tessera::reports::VariableEntry>& variables();
    std::optional<std::vector<tessera::reports::VariableEntry>> variableCache;
    const std::vector<tessera::record::ComputeSetRecord>& computeSetEntries();
    std::optional<std::vector<tessera::record::ComputeSetRecord>> computeSetCache;
    const tessera::reports::StepTiles& stepTiles(std::uint32_t step);
    std::map<std::uint32_t, tessera::reports::StepTiles> stepTilesCache;
    std::vector<ExecutionStep> executedSteps(std::uint32_t run);

    BlockOptions blockOptions() const;

    // Handle factories (the handles' fields are private; ReportData is a friend).
    Report report();
    Compilation compilation();
    Execution execution();
    Target target();
    Graph graph();
    std::vector<Tile> tiles();
    ComputeSet computeSet(const tessera::record::ComputeSetRecord& e);
    Variable variable(const tessera::reports::VariableEntry& e);
    ProgramStep programStep(std::uint32_t id);
    NotAlwaysLiveMemory notAlwaysLive(std::uint32_t step, std::optional<std::uint32_t> tile);
    ExecutionStep executionStep(const tessera::record::StepExecutionRecord& e);
    Run run(const tessera::reports::RunEntry& e);
    std::vector<IpuStep> ipus(const ExecutionStep& step);
    std::vector<Block> blocks(std::uint32_t tile);
    static Block makeBlock(unsigned tile, std::shared_ptr<Program> program, std::uint64_t from,
                           std::uint64_t to, int kind);
};

// Runs f, turning the reader's errors into pva::error.
template <typename F>
auto guarded(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const pva::error&) {
        throw;
    } catch (const std::exception& e) {
        throw pva::error(std::string("pva: ") + e.what());
    }
}

} // namespace pva::detail
