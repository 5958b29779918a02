#pragma once
// The engine's debug interface (Qt-free): run a program with breakpoints on
// program steps, compute sets or named blocks; pause, continue, step one
// superstep, step into a compute set (stop after its exchange, before its
// compute), run to the end; read any tensor and where it lives while paused;
// the current step, cycles so far and live memory; stop on an engine error
// at the step that caused it.
#include "engine/runtime/Engine.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::debug {

enum class BreakpointKind { Step, ComputeSet, Block };

struct Breakpoint {
    BreakpointKind kind = BreakpointKind::Step;
    std::uint32_t id = 0; // program step id, compute set id, or Block node id
    bool operator==(const Breakpoint&) const = default;
};

enum class StopReason {
    Breakpoint, // before a step a breakpoint matches
    Stepped,    // a step (or its exchange phase) finished
    Paused,     // pause() was called
    Finished,   // the program ran to its end
    Error,      // the step failed (its error in `message`); the run is over
    OutOfMemory // the step's live memory exceeds a tile's capacity
};
const char* stopReasonName(StopReason reason);

struct Stop {
    StopReason reason = StopReason::Stepped;
    compiler::StepId step = compiler::StepId::none(); // the step about to run (or that failed)
    std::string message;
};

class DebugSession {
public:
    // Starts a run of `program` on `engine`, paused before its first step.
    explicit DebugSession(Engine& engine, unsigned program = 0);
    ~DebugSession();
    DebugSession(const DebugSession&) = delete;
    DebugSession& operator=(const DebugSession&) = delete;

    void addBreakpoint(Breakpoint b);
    void removeBreakpoint(Breakpoint b);
    void clearBreakpoints();
    const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
    // A breakpoint by text: a step id ("12"), or the name of a step, compute
    // set or Block. Returns how many breakpoints it added (0: nothing matched).
    std::size_t breakAt(const std::string& stepOrName);

    Stop continueRun(); // until a breakpoint, pause(), an error or the end
    Stop stepOver();    // one whole superstep
    Stop stepInto();    // an Execute step: its exchange only; else as stepOver
    Stop runToEnd();    // ignores breakpoints
    void pause();       // from any thread; continueRun stops at the next step boundary

    bool finished() const;
    bool insideStep() const; // between a step's exchange and its compute
    compiler::StepId nextStep() const;
    const compiler::StepPlan* nextPlan() const;
    std::uint64_t cycles() const;
    std::uint64_t stepsExecuted() const { return executed_; }
    const Stop& lastStop() const { return last_; }

    // Bytes in use on each tile while the next step runs: everything resident
    // plus the not-always-live variables live at that step.
    std::vector<std::uint64_t> liveBytes() const;
    std::vector<double> read(const Tensor& t) const;
    // Whether read(t) now gives t's own values. A not-always-live variable
    // shares addresses with variables whose live ranges do not overlap its
    // own, so before its first write and after its last use its bytes may
    // hold another variable's data. True when every variable t views is
    // always live, or was written by an earlier step and is still to be used
    // by the next step (or the one being stepped into).
    bool isLive(const Tensor& t) const;
    bool isVariableLive(VariableId variable) const;
    // The tile holding each element of `t`, in element order.
    std::vector<TileId> owners(const Tensor& t) const;

private:
    bool matchesBreakpoint(compiler::StepId step) const;
    bool isAncestor(std::uint32_t node, std::uint32_t ancestor) const;
    Stop execute(bool phaseOnly);
    Stop checkMemory(compiler::StepId step);
    Stop finish(Stop stop);

    Engine& engine_;
    std::vector<Breakpoint> breakpoints_;
    std::atomic<bool> pauseRequested_{false};
    Stop last_;
    std::uint64_t executed_ = 0;
    bool failed_ = false;
    compiler::StepId memoryReported_ = compiler::StepId::none();
};

} // namespace tessera::debug
