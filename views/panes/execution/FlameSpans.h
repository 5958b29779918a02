#pragma once
// The flame view's data: for each depth of the program tree, the spans of
// time its nodes were running, merged over consecutive executed steps.
// Pure (no Qt), built on the fetch thread from a frame's executed steps.
#include "reports/ReportTypes.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tessera::views::execution {

struct FlameSpan {
    std::uint64_t startCycle = 0;
    std::uint64_t endCycle = 0;
    record::ProgramNodeId node = record::ProgramNodeId::none();
    record::StepId programStep = record::StepId::none(); // set when the span is a step (a leaf)
    std::uint64_t executions = 0;                        // executed steps merged into it
};

struct FlameData {
    std::vector<std::vector<FlameSpan>> rows; // rows[depth], by start cycle
};

// Ancestors of every program step, root first, ending with the step's node.
class ProgramHierarchy {
public:
    ProgramHierarchy() = default;
    ProgramHierarchy(const std::vector<record::ProgramNodeRecord>& nodes,
                     const std::vector<reports::ProgramStepEntry>& steps);

    // Root .. leaf node ids of a program step (empty for an unknown step).
    const std::vector<record::ProgramNodeId>& chain(record::StepId programStep) const;
    // The deepest chain among the steps of one program (engine program index).
    std::size_t depth(std::uint32_t programIndex) const;

private:
    std::unordered_map<record::StepId, std::vector<record::ProgramNodeId>> chains_;
    std::unordered_map<std::uint32_t, std::size_t> depths_;
};

// Spans of consecutive executed steps (in sequence order) merged per depth:
// a node's span grows while the next executed step still runs under it.
FlameData buildFlame(const std::vector<record::StepExecutionRecord>& steps,
                     const ProgramHierarchy& hierarchy);

} // namespace tessera::views::execution
