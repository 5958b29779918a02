#pragma once
// The dataflow graph the Program pane draws: program steps (compute sets and
// copies) and tensors, with an edge from a step to each tensor it writes and
// from a tensor to each step that reads it, as the report records them
// (step_variable_access). Plain C++ (no Qt).
//
// Tensors are VERSIONED, so the graph is a DAG in program order: each write of
// a variable by a step in scope makes a new tensor node (its value after that
// step), and a read links the latest version written earlier in the scope.
// A variable read before any step in scope writes it gets one "input" node
// (inputs, weights, constants and values from before the scope). Exchange
// buffers (one step's received data) are drawn as inputs of their step.
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
    record::ProgramKind stepKind = record::ProgramKind::Execute; // steps only
    record::ComputeSetId computeSet = record::ComputeSetId::none();
    bool exchangeBuffer = false;
    // Tensors: the step whose write made this version; none() for an input.
    record::StepId producer = record::StepId::none();
    std::uint32_t readers = 0; // tensors: steps in scope that read this version
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
    bool accessesRecorded = true;             // false for reports older than schema 1.1: no tensors
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
