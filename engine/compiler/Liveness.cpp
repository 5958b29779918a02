// Live ranges over program steps. A variable is not-always-live when every
// use lies inside one program and the first use writes it; its range runs
// from first to last use, widened to whole loop bodies when it is also used
// outside the loop. Everything else (constants, host-visible, initialised,
// read before written, unused) is always live.
#include "engine/compiler/Passes.h"

#include <algorithm>

namespace tessera::compiler {

void analyseLiveness(CompiledGraph& out) {
    const auto& vars = out.graph->variables();
    const std::size_t n = vars.size();
    std::vector<StepId> first(n, kNoId), last(n, kNoId);
    std::vector<bool> readFirst(n, false), multiProgram(n, false);
    std::vector<std::uint32_t> program(n, kNoId);
    for (StepId s = 0; s < out.steps.size(); ++s) {
        const StepPlan& step = out.steps[s];
        auto touch = [&](VariableId v, bool isRead) {
            if (first[v] == kNoId) {
                first[v] = s;
                readFirst[v] = isRead;
                program[v] = step.programIndex;
            } else if (first[v] == s && isRead) {
                readFirst[v] = true; // read and written by one step: the read comes first
            }
            last[v] = s;
            if (program[v] != step.programIndex) {
                multiProgram[v] = true;
            }
        };
        for (VariableId v : step.reads) {
            touch(v, true);
        }
        for (VariableId v : step.writes) {
            touch(v, false);
        }
    }
    for (const auto& [ls, le] : out.loops) { // inner loops come first
        for (VariableId v = 0; v < n; ++v) {
            if (first[v] == kNoId || last[v] < ls || first[v] > le) {
                continue;
            }
            if (first[v] < ls || last[v] > le) {
                first[v] = std::min(first[v], ls);
                last[v] = std::max(last[v], le);
            }
        }
    }
    std::vector<bool> alwaysLive(n);
    for (VariableId v = 0; v < n; ++v) {
        const VariableData& d = vars[v];
        alwaysLive[v] = d.isConstant || d.hostAccess || !d.initialValue.empty() ||
                        first[v] == kNoId || readFirst[v] || multiProgram[v];
    }
    for (DataBlock& b : out.blocks) {
        if (b.var == kNoId) {
            continue; // exchange buffers were given their one-step range by the planner
        }
        b.alwaysLive = alwaysLive[b.var];
        if (!b.alwaysLive) {
            b.firstStep = first[b.var];
            b.lastStep = last[b.var];
        }
    }
}

} // namespace tessera::compiler
