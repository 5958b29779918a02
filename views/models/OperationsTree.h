#pragma once
// The Operations pane's data without Qt: the report's operations (Block
// nodes) of one software layer, grouped as a tree by their debug names'
// "/"-separated paths, with figures per operation and totals per group.
// A group's figures count each program step beneath it once, so nested
// operations (a library call inside an application block) are not counted
// twice. The first operation named exactly as a path ("fwd") heads the
// operations under that path ("fwd/matmul"); its row then totals them with
// its own steps. Code size is defined in docs/views.md (Operations).
#include "views/models/ProgramStats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::views {

// Which operations to show: every Block, or only those one layer opened.
enum class LayerFilter { All, Library, Application };

struct OperationFigures {
    std::uint64_t codeBytes = 0; // see codeBytesOf
    std::uint64_t cycles = 0;    // over all executions
    std::uint64_t computeCycles = 0;
    std::uint64_t exchangeCycles = 0;
    std::uint64_t syncCycles = 0;
    std::uint64_t flops = 0;         // over all executions
    std::uint64_t peakMemory = 0;    // max over steps of the fullest tile's not-always-live bytes
    std::uint64_t vertices = 0;      // compile time, summed over the distinct steps
    std::uint64_t bytesReceived = 0; // all tiles, over all executions
    std::uint32_t steps = 0;         // distinct program steps
};

struct OperationRow {
    std::string label;         // a group's path component; an operation's name (see docs/views.md)
    std::string debugName;     // the full debug name (a group's: its path prefix)
    int node = -1;             // Block node position in data.programNodes; -1 for a group
    int parent = -1;           // row index; -1 at the top
    std::vector<int> children; // row indices: groups first, then operations, in program order
    std::vector<int> steps;    // step positions beneath, ascending
    int operations = 0;        // operations in this row's subtree (1 for an operation)
    OperationFigures figures;
};

struct OperationsTree {
    std::vector<OperationRow> rows;
    std::vector<int> roots;   // row indices at the top
    bool layersKnown = false; // false: a report from before layers were recorded
    int operationCount = 0;   // operations shown
    OperationFigures total;   // over every step of the operations shown, each once
};

OperationsTree buildOperationsTree(const ReportData& data, const ProgramStats& stats,
                                   LayerFilter layer);

// Whether an operation's node belongs to the layer filter.
bool inLayer(const record::ProgramNodeRecord& node, LayerFilter layer);

// Figures of a set of step positions (each counted once).
OperationFigures figuresOf(const ReportData& data, const ProgramStats& stats,
                           const std::vector<int>& steps);

// Vertex code bytes: for every tile, the code of each distinct codelet that
// has a vertex on that tile in one of the steps' compute sets, summed over
// tiles (a codelet's code is loaded once per tile that runs it).
std::uint64_t codeBytesOf(const ReportData& data, const ProgramStats& stats,
                          const std::vector<int>& steps);

// Per codelet used by the steps' compute sets: its code bytes on all tiles
// (as codeBytesOf), the tiles running it and its vertex count (compile time,
// each compute set once). Sorted by code bytes, largest first.
struct CodeletUse {
    record::CodeletId codelet;
    std::string name;
    std::uint64_t codeBytesPerTile = 0;
    std::uint32_t tiles = 0;
    std::uint64_t vertices = 0;
    std::uint64_t codeBytes() const { return codeBytesPerTile * tiles; }
};
std::vector<CodeletUse> codeletsOf(const ReportData& data, const ProgramStats& stats,
                                   const std::vector<int>& steps);

// The layer's name for people: "PopLibs", "Application", "unknown".
std::string layerName(record::OperationLayer layer);

} // namespace tessera::views
