// libpva's execution side: runs, executed steps and their per-IPU figures
// (blocks are in Blocks.cpp).
#include "ReportData.h"

#include <algorithm>

namespace pva {

namespace detail {

ExecutionStep ReportData::executionStep(const tessera::record::StepExecutionRecord& e) {
    ExecutionStep s;
    s.d_ = shared_from_this();
    s.run_ = e.run;
    s.seq_ = e.sequence;
    s.programStep_ = e.programStep.value();
    s.from_ = e.startCycle;
    s.cycles_ = e.cycles;
    return s;
}

std::vector<ExecutionStep> ReportData::executedSteps(std::uint32_t run) {
    std::vector<ExecutionStep> out;
    for (const auto& r : reader.runs()) {
        if (r.id == run) {
            for (const auto& e : reader.executedSteps(run, 0, r.steps)) {
                out.push_back(executionStep(e));
            }
        }
    }
    return out;
}

Run ReportData::run(const tessera::reports::RunEntry& e) {
    Run r;
    r.d_ = shared_from_this();
    r.id_ = e.id;
    r.programIndex_ = e.programIndex;
    r.from_ = e.startCycle;
    r.cycles_ = e.cycles;
    r.completed_ = e.completed;
    return r;
}

std::vector<IpuStep> ReportData::ipus(const ExecutionStep& step) {
    const auto& t = reader.target();
    const auto& tiles = stepTiles(step.programStep_);
    std::vector<IpuStep> out;
    for (std::uint32_t ipu = 0; ipu < t.numIpus; ++ipu) {
        IpuStep s;
        s.ipu_ = ipu;
        s.cycles_ = step.cycles_;
        std::uint64_t max = 0;
        std::uint64_t sum = 0;
        for (std::uint32_t i = 0; i < t.tilesPerIpu; ++i) {
            const std::uint32_t tile = ipu * t.tilesPerIpu + i;
            const std::uint64_t busy =
                std::uint64_t(tiles.computeCycles[tile]) + tiles.exchangeCycles[tile];
            max = std::max(max, busy);
            sum += busy;
            s.activeTiles_ += busy > 0 ? 1 : 0;
            s.dataIn_ += tiles.bytesIn[tile];
            s.dataOut_ += tiles.bytesOut[tile];
        }
        if (max > 0) {
            s.tileBalance_ = double(sum) / (double(max) * t.tilesPerIpu);
            s.activeTileBalance_ = double(sum) / (double(max) * s.activeTiles_);
        }
        out.push_back(s);
    }
    return out;
}

} // namespace detail

std::shared_ptr<Program> ExecutionStep::program() const {
    return detail::guarded([&] { return d_->stepProgram(programStep_); });
}
std::vector<std::uint64_t> ExecutionStep::cyclesByTile() const {
    return detail::guarded([&] {
        const auto& tiles = d_->stepTiles(programStep_);
        std::vector<std::uint64_t> out(tiles.computeCycles.size());
        for (std::size_t t = 0; t < out.size(); ++t) {
            out[t] = std::uint64_t(tiles.computeCycles[t]) + tiles.exchangeCycles[t];
        }
        return out;
    });
}
std::vector<ComputeSet> ExecutionStep::computeSets() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        std::vector<ComputeSet> out;
        if (programStep_ < d_->steps.size() && !d_->steps[programStep_].computeSet.isNone()) {
            for (const auto& e : d_->computeSetEntries()) {
                if (e.id == d_->steps[programStep_].computeSet) {
                    out.push_back(d_->computeSet(e));
                }
            }
        }
        return out;
    });
}
std::vector<IpuStep> ExecutionStep::ipus() const {
    return detail::guarded([&] { return d_->ipus(*this); });
}

std::shared_ptr<Program> Run::program() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        return programIndex_ < d_->roots.size() ? d_->roots[programIndex_] : nullptr;
    });
}
std::vector<ExecutionStep> Run::steps() const {
    return detail::guarded([&] { return d_->executedSteps(id_); });
}

std::vector<Run> Execution::runs() const {
    return detail::guarded([&] {
        std::vector<Run> out;
        for (const auto& r : d_->reader.runs()) {
            out.push_back(d_->run(r));
        }
        return out;
    });
}
std::vector<ExecutionStep> Execution::steps() const {
    return detail::guarded([&] {
        std::vector<ExecutionStep> out;
        for (const auto& r : d_->reader.runs()) {
            auto steps = d_->executedSteps(r.id);
            out.insert(out.end(), steps.begin(), steps.end());
        }
        return out;
    });
}
std::uint64_t Execution::totalCycles() const {
    return detail::guarded([&] {
        std::uint64_t n = 0;
        for (const auto& r : d_->reader.runs()) {
            n += r.cycles;
        }
        return n;
    });
}
std::vector<Block> Execution::blocks(unsigned tile) const {
    return detail::guarded([&] { return d_->blocks(tile); });
}

} // namespace pva
