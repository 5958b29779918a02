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
    // Per variable, indexed by its id.
    std::vector<StepId> first(n, StepId::none()), last(n, StepId::none());
    std::vector<bool> readFirst(n, false), multiProgram(n, false);
    std::vector<std::uint32_t> program(n, kNoIndex);
    for (const StepId s : record::idRange<StepId>(out.steps.size())) {
        const StepPlan& step = out.steps[s.value()];
        auto touch = [&](VariableId var, bool isRead) {
            const std::size_t v = var.value();
            if (first[v].isNone()) {
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
        for (std::size_t v = 0; v < n; ++v) {
            if (first[v].isNone() || last[v] < ls || first[v] > le) {
                continue;
            }
            if (first[v] < ls || last[v] > le) {
                first[v] = std::min(first[v], ls);
                last[v] = std::max(last[v], le);
            }
        }
    }
    std::vector<bool> alwaysLive(n);
    for (std::size_t v = 0; v < n; ++v) {
        const VariableData& d = vars[v];
        alwaysLive[v] = d.isConstant || d.hostAccess || !d.initialValue.empty() ||
                        first[v].isNone() || readFirst[v] || multiProgram[v];
    }
    for (DataBlock& b : out.blocks) {
        if (b.var.isNone()) {
            continue; // exchange buffers were given their one-step range by the planner
        }
        const std::size_t v = b.var.value();
        b.alwaysLive = alwaysLive[v];
        if (!b.alwaysLive) {
            b.firstStep = first[v];
            b.lastStep = last[v];
        }
    }
}

} // namespace tessera::compiler
