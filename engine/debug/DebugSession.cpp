#include "engine/debug/DebugSession.h"

#include "engine/core/Error.h"

#include <algorithm>
#include <charconv>

namespace tessera::debug {

const char* stopReasonName(StopReason reason) {
    switch (reason) {
    case StopReason::Breakpoint:
        return "breakpoint";
    case StopReason::Stepped:
        return "stepped";
    case StopReason::Paused:
        return "paused";
    case StopReason::Finished:
        return "finished";
    case StopReason::Error:
        return "error";
    case StopReason::OutOfMemory:
        return "out of memory";
    }
    return "?";
}

DebugSession::DebugSession(Engine& engine, unsigned program)
    : engine_(engine) {
    engine_.beginRun(program);
    last_ = {engine_.nextStep().isNone() ? StopReason::Finished : StopReason::Stepped,
             engine_.nextStep(),
             {}};
    if (engine_.nextStep().isNone()) {
        engine_.endRun();
    }
}

DebugSession::~DebugSession() {
    if (engine_.runActive()) {
        engine_.endRun("stopped in the debugger");
    }
}

void DebugSession::addBreakpoint(Breakpoint b) {
    if (std::find(breakpoints_.begin(), breakpoints_.end(), b) == breakpoints_.end()) {
        breakpoints_.push_back(b);
    }
}

void DebugSession::removeBreakpoint(Breakpoint b) {
    std::erase(breakpoints_, b);
}

void DebugSession::clearBreakpoints() {
    breakpoints_.clear();
}

std::size_t DebugSession::breakAt(const std::string& text) {
    const compiler::CompiledGraph& c = engine_.compiled();
    std::uint32_t number = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec == std::errc() && end == text.data() + text.size()) {
        if (number >= c.steps.size()) {
            return 0;
        }
        addBreakpoint({BreakpointKind::Step, number});
        return 1;
    }
    std::size_t added = 0;
    for (const compiler::StepId s : record::idRange<compiler::StepId>(c.steps.size())) {
        if (c.step(s).name == text) {
            addBreakpoint({BreakpointKind::Step, s.value()});
            ++added;
        }
    }
    const auto& sets = c.graph->computeSets();
    for (std::uint32_t cs = 0; cs < sets.size(); ++cs) {
        if (sets[cs].name == text) {
            addBreakpoint({BreakpointKind::ComputeSet, cs});
            ++added;
        }
    }
    for (const record::ProgramNodeRecord& n : c.nodes) {
        if (n.kind == record::ProgramKind::Block && n.name == text) {
            addBreakpoint({BreakpointKind::Block, n.id.value()});
            ++added;
        }
    }
    return added;
}

bool DebugSession::isAncestor(std::uint32_t node, std::uint32_t ancestor) const {
    const auto& nodes = engine_.compiled().nodes;
    for (std::uint32_t n = node; n < nodes.size();
         n = nodes[n].parent.value()) { // none() is past the end
        if (n == ancestor) {
            return true;
        }
    }
    return false;
}

bool DebugSession::matchesBreakpoint(compiler::StepId step) const {
    const compiler::StepPlan& plan = engine_.compiled().step(step);
    for (const Breakpoint& b : breakpoints_) {
        switch (b.kind) {
        case BreakpointKind::Step:
            if (b.id == step.value()) {
                return true;
            }
            break;
        case BreakpointKind::ComputeSet:
            if (plan.computeSet.value() == b.id) {
                return true;
            }
            break;
        case BreakpointKind::Block:
            if (isAncestor(plan.node, b.id)) {
                return true;
            }
            break;
        }
    }
    return false;
}

std::vector<std::uint64_t> DebugSession::liveBytes() const {
    const compiler::CompiledGraph& c = engine_.compiled();
    std::vector<std::uint64_t> bytes;
    const compiler::StepId step = engine_.nextStep();
    for (const record::TileMemoryRecord& t : c.record.tileMemory) {
        const std::uint64_t live =
            step.isNone() ? 0
                          : c.record.programSteps[step.value()].notAlwaysLiveBytes[t.tile.value()];
        bytes.push_back(t.alwaysLiveBytes + live);
    }
    return bytes;
}

Stop DebugSession::checkMemory(compiler::StepId step) {
    if (!engine_.compiled().outOfMemory || memoryReported_ == step) {
        return {StopReason::Stepped, step, {}};
    }
    const std::uint64_t capacity = engine_.compiled().graph->getTarget().bytesPerTile;
    const std::vector<std::uint64_t> live = liveBytes();
    for (std::size_t t = 0; t < live.size(); ++t) {
        if (live[t] > capacity) {
            memoryReported_ = step; // continuing runs the step anyway
            return {StopReason::OutOfMemory, step,
                    "out of memory at step '" + engine_.compiled().step(step).name + "': tile " +
                        std::to_string(t) + " needs " + std::to_string(live[t]) + " bytes of " +
                        std::to_string(capacity)};
        }
    }
    return {StopReason::Stepped, step, {}};
}

Stop DebugSession::finish(Stop stop) {
    last_ = stop;
    return stop;
}

Stop DebugSession::execute(bool phaseOnly) {
    const compiler::StepId step = engine_.nextStep();
    try {
        engine_.advance(phaseOnly);
        if (!engine_.insideStep()) {
            ++executed_;
        }
    } catch (const std::exception& e) {
        failed_ = true;
        if (engine_.runActive()) {
            engine_.endRun(e.what());
        }
        return finish({StopReason::Error, step, e.what()});
    }
    if (engine_.nextStep().isNone() && !engine_.insideStep()) {
        engine_.endRun();
        return finish({StopReason::Finished, compiler::StepId::none(), {}});
    }
    return {StopReason::Stepped, engine_.insideStep() ? step : engine_.nextStep(), {}};
}

Stop DebugSession::stepOver() {
    if (finished()) {
        return last_;
    }
    if (!engine_.insideStep()) {
        if (Stop m = checkMemory(engine_.nextStep()); m.reason == StopReason::OutOfMemory) {
            return finish(m);
        }
    }
    Stop s = execute(false);
    return finish(s);
}

Stop DebugSession::stepInto() {
    if (finished()) {
        return last_;
    }
    const bool execute1 =
        !engine_.insideStep() &&
        engine_.compiled().step(engine_.nextStep()).kind == record::ProgramKind::Execute;
    if (!engine_.insideStep()) {
        if (Stop m = checkMemory(engine_.nextStep()); m.reason == StopReason::OutOfMemory) {
            return finish(m);
        }
    }
    return finish(execute(execute1));
}

Stop DebugSession::continueRun() {
    if (finished()) {
        return last_;
    }
    pauseRequested_ = false;
    // Resuming from a stop before this very step runs it rather than stopping again.
    bool first =
        (last_.reason == StopReason::Breakpoint || last_.reason == StopReason::OutOfMemory) &&
        last_.step == engine_.nextStep();
    for (;;) {
        if (pauseRequested_.exchange(false)) {
            return finish({StopReason::Paused, engine_.nextStep(), {}});
        }
        const compiler::StepId next = engine_.nextStep();
        if (!first && !engine_.insideStep() && !next.isNone()) {
            if (matchesBreakpoint(next)) {
                return finish({StopReason::Breakpoint, next, {}});
            }
            if (Stop m = checkMemory(next); m.reason == StopReason::OutOfMemory) {
                return finish(m);
            }
        }
        first = false;
        const Stop s = execute(false);
        if (s.reason != StopReason::Stepped) {
            return finish(s);
        }
    }
}

Stop DebugSession::runToEnd() {
    while (!finished()) {
        const Stop s = execute(false);
        if (s.reason != StopReason::Stepped) {
            return finish(s);
        }
    }
    return last_;
}

void DebugSession::pause() {
    pauseRequested_ = true;
}

bool DebugSession::finished() const {
    return failed_ || !engine_.runActive();
}

bool DebugSession::insideStep() const {
    return engine_.insideStep();
}

compiler::StepId DebugSession::nextStep() const {
    return engine_.nextStep();
}

const compiler::StepPlan* DebugSession::nextPlan() const {
    const compiler::StepId s = engine_.nextStep();
    return s.isNone() ? nullptr : &engine_.compiled().step(s);
}

std::uint64_t DebugSession::cycles() const {
    return engine_.cyclesSoFar();
}

std::vector<double> DebugSession::read(const Tensor& t) const {
    return engine_.readValues(t);
}

bool DebugSession::isVariableLive(VariableId variable) const {
    const auto& vars = engine_.compiled().record.variables;
    if (record::index(variable) >= vars.size() || vars[variable.value()].id != variable) {
        throw Error("no variable with id " + std::to_string(variable.value()));
    }
    const record::VariableRecord& v = vars[variable.value()];
    if (v.alwaysLive || v.firstStep.isNone()) {
        return true;
    }
    const compiler::StepId next = engine_.nextStep();
    // Once the run is over, only the last user of each shared address is left.
    return !next.isNone() && v.firstStep < next && next <= v.lastStep;
}

bool DebugSession::isLive(const Tensor& t) const {
    for (const VariableRegion& r : t.regions()) {
        if (!isVariableLive(r.var)) {
            return false;
        }
    }
    return true;
}

std::vector<TileId> DebugSession::owners(const Tensor& t) const {
    std::vector<TileId> out;
    out.reserve(t.numElements());
    for (const compiler::Run& r : engine_.compiled().runsOf(t)) {
        out.insert(out.end(), r.elements, r.tile);
    }
    return out;
}

} // namespace tessera::debug
