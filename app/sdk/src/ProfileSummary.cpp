#include "ProfileSummary.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ostream>
#include <string>

namespace poplar::detail {

using namespace tessera::record;

void SummaryRecorder::onCompiled(const CompiledRecord& c) {
    compiled = c;
    stepExecutions.assign(c.programSteps.size(), 0);
    stepCycles.assign(c.programSteps.size(), 0);
    if (next_) {
        next_->onCompiled(c);
    }
}
void SummaryRecorder::onRunBegin(const RunBeginRecord& r) {
    runs.push_back(r);
    if (next_) {
        next_->onRunBegin(r);
    }
}
void SummaryRecorder::onStep(const StepExecutionRecord& s) {
    if (s.programStep.value() < stepExecutions.size()) {
        ++stepExecutions[s.programStep.value()];
        stepCycles[s.programStep.value()] += s.cycles;
    }
    if (next_) {
        next_->onStep(s);
    }
}
void SummaryRecorder::onRunEnd(const RunEndRecord& r) {
    runEnds.push_back(r);
    if (next_) {
        next_->onRunEnd(r);
    }
}
void SummaryRecorder::resetExecution() {
    runs.clear();
    runEnds.clear();
    std::fill(stepExecutions.begin(), stepExecutions.end(), 0);
    std::fill(stepCycles.begin(), stepCycles.end(), 0);
}

void SummaryRecorder::onVerification(const VerificationRecord& v) {
    if (next_) {
        next_->onVerification(v);
    }
}

namespace {

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) {
        s.insert(std::size_t(i), ",");
    }
    return s;
}

std::string line(const std::string& label, const std::string& value, int indent = 2) {
    std::string out(std::size_t(indent), ' ');
    out += label + ":";
    if (out.size() < 38) {
        out += std::string(38 - out.size(), ' ');
    } else {
        out += ' ';
    }
    return out + value + "\n";
}

std::string bytes(std::uint64_t b) {
    return grouped(b) + " B";
}

} // namespace

void printSummary(std::ostream& os, const SummaryRecorder& r, bool showExecutionSteps) {
    const CompiledRecord& c = r.compiled;
    const TargetRecord& t = c.target;
    char text[64];

    os << "Target:\n";
    os << line("Type", t.name);
    os << line("Number of IPUs", grouped(t.numIPUs));
    os << line("Tiles per IPU", grouped(t.tilesPerIPU));
    os << line("Total number of tiles", grouped(t.numTiles()));
    os << line("Memory per tile", bytes(t.bytesPerTile));
    std::snprintf(text, sizeof text, "%.3f GHz", t.clockHz / 1e9);
    os << line("Clock frequency", text);
    os << line("Worker contexts per tile", grouped(t.numWorkerContexts));
    os << "\n";

    std::uint64_t vertices = 0;
    for (const ComputeSetRecord& cs : c.computeSets) {
        vertices += cs.vertexCount;
    }
    std::uint64_t variables = 0;
    for (const VariableRecord& v : c.variables) {
        variables += v.isExchangeBuffer ? 0 : 1;
    }
    os << "Graph:\n";
    os << line("Number of variables", grouped(variables));
    os << line("Number of compute sets", grouped(c.computeSets.size()));
    os << line("Number of vertices", grouped(vertices));
    os << line("Number of codelets", grouped(c.codelets.size()));
    os << line("Number of program steps", grouped(c.programSteps.size()));
    os << "\n";

    std::uint64_t withGaps = 0, withoutGaps = 0, alwaysLive = 0, notAlwaysLive = 0;
    std::array<std::uint64_t, kMemoryCategoryCount> byCategory{};
    const TileMemoryRecord* busiest = nullptr;
    std::uint32_t overflowing = 0;
    for (const TileMemoryRecord& tile : c.tileMemory) {
        withGaps += tile.totalIncludingGaps;
        withoutGaps += tile.totalExcludingGaps;
        alwaysLive += tile.alwaysLiveBytes;
        notAlwaysLive += tile.notAlwaysLivePeakBytes;
        for (std::size_t k = 0; k < kMemoryCategoryCount; ++k) {
            byCategory[k] += tile.bytesByCategory[k];
        }
        if (!busiest || tile.totalIncludingGaps > busiest->totalIncludingGaps) {
            busiest = &tile;
        }
        overflowing += tile.overflowBytes > 0 ? 1 : 0;
    }
    os << "Memory Usage:\n";
    os << "  Total for all IPUs:\n";
    os << line("Including Gaps", bytes(withGaps), 4);
    os << line("Excluding Gaps", bytes(withoutGaps), 4);
    os << line("Always-live", bytes(alwaysLive), 4);
    os << line("Not-always-live (peak)", bytes(notAlwaysLive), 4);
    os << "  By memory category:\n";
    for (std::size_t k = 0; k < kMemoryCategoryCount; ++k) {
        os << line(memoryCategoryName(static_cast<MemoryCategory>(k)), bytes(byCategory[k]), 4);
    }
    if (busiest) {
        std::snprintf(text, sizeof text, " (%.1f%% of the tile)",
                      t.bytesPerTile
                          ? 100.0 * double(busiest->totalIncludingGaps) / double(t.bytesPerTile)
                          : 0.0);
        os << line("Tile with the most memory", "tile " + std::to_string(busiest->tile.value()) +
                                                    ", " + bytes(busiest->totalIncludingGaps) +
                                                    text);
    }
    os << line("Tiles over capacity",
               grouped(overflowing) + (c.outOfMemory ? " (out of memory)" : ""));
    os << "\n";

    std::uint64_t cycles = 0, compute = 0, exchange = 0, sync = 0, steps = 0;
    for (const RunEndRecord& e : r.runEnds) {
        cycles += e.cycles;
        compute += e.computeCycles;
        exchange += e.exchangeCycles;
        sync += e.syncCycles;
        steps += e.steps;
    }
    os << "Execution:\n";
    os << line("Programs run", grouped(r.runEnds.size()));
    os << line("Steps executed", grouped(steps));
    std::snprintf(text, sizeof text, " (%.3f us)",
                  t.clockHz > 0 ? 1e6 * double(cycles) / t.clockHz : 0.0);
    os << line("Total cycles", grouped(cycles) + text);
    os << line("Compute cycles", grouped(compute));
    os << line("Exchange cycles", grouped(exchange));
    os << line("Sync cycles", grouped(sync));
    for (std::size_t i = 0; i < r.runEnds.size(); ++i) {
        const std::uint32_t program = i < r.runs.size() ? r.runs[i].programIndex : 0;
        os << line("Run " + std::to_string(i) + " (program " + std::to_string(program) + ")",
                   grouped(r.runEnds[i].cycles) + " cycles", 4);
    }
    if (showExecutionSteps) {
        os << "  Steps (cycles over all executions):\n";
        for (const ProgramStepRecord& s : c.programSteps) {
            const std::uint64_t n =
                s.id.value() < r.stepExecutions.size() ? r.stepExecutions[s.id.value()] : 0;
            const std::uint64_t cy =
                s.id.value() < r.stepCycles.size() ? r.stepCycles[s.id.value()] : 0;
            os << "    " << s.id.value() << " " << programKindName(s.kind)
               << (s.name.empty() ? std::string() : " '" + s.name + "'") << ": " << grouped(n)
               << " x " << grouped(s.totalCycles) << " = " << grouped(cy) << " cycles\n";
        }
    }
}

} // namespace poplar::detail
