#pragma once
// Layered ("Sugiyama") layout of a directed graph on plain structs, with no
// Qt, so it can be unit-tested: layers from a topological order (Boost.Graph),
// dummy nodes on edges that span several layers, crossing reduction by
// barycentric ordering sweeps plus adjacent swaps, then coordinates that keep
// each node near its neighbours. Layers run top to bottom; deterministic.
#include <cstddef>
#include <utility>
#include <vector>

namespace tessera::views::graph {

struct Size {
    double width = 0;
    double height = 0;
};

struct Point {
    double x = 0;
    double y = 0;
};

using Edge = std::pair<int, int>; // from, to (node indices)

struct LayoutOptions {
    double layerGap = 56;    // vertical space between layers
    double nodeGap = 24;     // horizontal space between neighbours in a layer
    double dummyWidth = 12;  // width reserved for an edge passing through a layer
    int orderingSweeps = 16; // barycentric sweeps (down, up, down, ...)
    int placementPasses = 8; // coordinate relaxation passes
};

struct Layout {
    std::vector<int> layer;      // per node
    std::vector<Point> position; // per node: centre
    std::vector<std::vector<int>>
        order; // per layer, left to right; indices >= node count are dummies
    std::vector<std::vector<Point>> edgePoints; // per input edge: source bottom, bends, target top
    std::size_t initialCrossings = 0;           // of the initial (input) order
    std::size_t crossings = 0;                  // after crossing reduction
    bool hadCycle = false;                      // some edges were reversed to break cycles
    double width = 0;                           // bounding box (x from 0, y from 0)
    double height = 0;
};

// Longest-path layering over a topological order; sources are then pulled
// down next to their first successor. Every edge goes to a strictly higher
// layer (edges closing a cycle are reversed first; self-loops are ignored).
std::vector<int> assignLayers(std::size_t nodeCount, const std::vector<Edge>& edges,
                              bool* hadCycle = nullptr);

// Crossings between consecutive layers of `order` for edges joining nodes of
// adjacent layers (`layerOf` gives each node's layer).
std::size_t countCrossings(const std::vector<std::vector<int>>& order,
                           const std::vector<Edge>& properEdges, const std::vector<int>& layerOf);

// Reorders the layers to reduce crossings; never returns an order with more
// crossings than the one given.
std::vector<std::vector<int>> reduceCrossings(std::vector<std::vector<int>> order,
                                              const std::vector<Edge>& properEdges,
                                              const std::vector<int>& layerOf, int sweeps);

Layout layoutGraph(const std::vector<Size>& sizes, const std::vector<Edge>& edges,
                   const LayoutOptions& options = {});

} // namespace tessera::views::graph
