#pragma once
// The dataflow graph the Program pane draws: program steps (compute sets and
// copies) and tensors (not-always-live variables), with edges from a step to
// the tensors it produces and from a tensor to the steps that consume it.
//
// APPROXIMATION: reports do not record which tensors a compute set reads and
// writes. What they do record is each variable's live range (first and last
// program step), so the graph takes the step where a variable becomes live as
// its producer and the step where it is last live as its consumer. Steps that
// read a tensor in between are not linked; always-live variables and
// constants (weights, inputs) have no live range and are left out. Exchange
// buffers (live during one step) are drawn as inputs of that step.
// Plain C++ (no Qt).
#include "views/data/ReportData.h"
#include "views/models/ProgramStats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::views {

struct DataflowNode {
    enum class Kind { Step, Tensor };
    Kind kind = Kind::Step;
    std::uint32_t id = 0; // program step id or variable id
    std::string name;     // compute set / copy name, or variable name
    std::string stepKind; // "Execute", "Copy", ... (steps only)
    std::uint32_t computeSet = reports::kNone;
    bool exchangeBuffer = false;
    // Metrics for colouring. Steps: cycles and bytes received over all
    // executions, peak not-always-live bytes of the fullest tile. Tensors:
    // memory = bytes over all tiles.
    double cycles = 0;
    double bytesExchanged = 0;
    double memory = 0;
};

struct DataflowGraph {
    std::vector<DataflowNode> nodes;
    std::vector<std::pair<int, int>> edges; // node indices, producer -> consumer
    std::size_t stepsInScope = 0;           // before truncation
    std::size_t stepsShown = 0;
    int stepNode(std::uint32_t stepId) const; // node index, or -1
};

struct DataflowOptions {
    std::vector<std::uint32_t> steps; // the scope: step ids in program order
    bool exchangeBuffers = true;
    std::size_t maxSteps = 400; // larger scopes show their first maxSteps steps
};

// Steps of the scope in program order: every step (scopeNode < 0) or those
// beneath one program node (position in data.programNodes).
std::vector<std::uint32_t> stepsInScope(const ReportData& data, const ProgramStats& stats,
                                        int scopeNode);

DataflowGraph buildDataflowGraph(const ReportData& data, const ProgramStats& stats,
                                 const DataflowOptions& options);

} // namespace tessera::views
