#pragma once
// Aggregates of the program tree that the Program pane's models share: how
// often each compile-time step ran (from the executed steps of every run),
// and per tree node the figures of every step beneath it. Plain C++ (no Qt),
// computed once per report.
#include "views/data/ReportData.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::views {

class ReportSource;

// Executions of each program step over all runs, indexed like
// data.programSteps: those loaded with the data (stored in the report), or,
// when they could not be loaded, asked of the source (which throws the
// report's problem).
std::vector<std::uint64_t> countStepExecutions(const ReportData& data, const ReportSource& source);

struct NodeStats {
    std::uint64_t executions = 0;    // times the node was entered (see ProgramStats.cpp)
    bool executionsExact = true;     // false: inherited from the parent (data-dependent loop)
    std::uint64_t cycles = 0;        // sum over executions of every step beneath
    std::uint64_t computeCycles = 0; // compute / exchange / sync phases of `cycles`
    std::uint64_t exchangeCycles = 0;
    std::uint64_t syncCycles = 0;
    std::uint64_t selfCycles = 0;        // steps whose innermost operation is this node
    std::uint64_t flops = 0;             // sum over executions
    std::uint64_t vertices = 0;          // sum over the distinct steps beneath (compile time)
    std::uint64_t bytesExchanged = 0;    // bytes received (bytesIn, all tiles), sum over executions
    std::uint64_t peakNotAlwaysLive = 0; // max over steps beneath of the fullest tile's bytes
    std::uint32_t steps = 0;             // distinct program steps beneath
    std::uint64_t stepExecutions = 0;    // sum of their executions
};

struct ProgramStats {
    // Indexed like data.programSteps.
    std::vector<std::uint64_t> stepExecutions;
    // Indexed like data.programNodes.
    std::vector<NodeStats> nodes;
    std::vector<int> parent;                // node position, -1 for a root
    std::vector<std::vector<int>> children; // node positions in program order
    std::vector<int> roots;                 // node positions, in program order
    std::vector<int> operations;            // Block node positions, in program order
    std::unordered_map<record::ProgramNodeId, int> nodeIndex; // node id -> position
    std::unordered_map<record::StepId, int> stepIndex;        // step id -> position
    std::uint64_t totalCycles = 0;                            // sum over every executed step

    int nodePosition(record::ProgramNodeId id) const; // -1 when none or unknown
    int stepPosition(record::StepId id) const;
};

// The label of a node for people: its name, or for an unnamed step node the
// step's name (an Execute's compute set).
std::string nodeLabel(const ReportData& data, const ProgramStats& stats, int nodePosition);

ProgramStats computeProgramStats(const ReportData& data, std::vector<std::uint64_t> stepExecutions);

} // namespace tessera::views
