// poplar/CycleCount.hpp on the engine's CycleStamp program: the counts are
// the cycle model's.
#include "Impl.h"

#include <poplar/CycleCount.hpp>

namespace poplar {

using detail::Access;
using detail::translate;

namespace {

Tensor stampTensor(Graph& graph, unsigned tile, const DebugContext& dc, const char* what) {
    const std::string name = dc.getPathName().empty() ? what : dc.getPathName() + "/" + what;
    Tensor t = graph.addVariable(UNSIGNED_INT, {2}, DebugContext(name));
    graph.setTileMapping(t, tile);
    return t;
}

// A stamp step whose sync is the given type's (what the counter waits for).
std::shared_ptr<tessera::program::Node> stampNode(tessera::program::CycleStamp stamp,
                                                  SyncType type) {
    stamp.node()->syncScope = detail::syncScope(type);
    return stamp.node();
}

} // namespace

Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& dc) {
    Tensor start = stampTensor(graph, tile, dc, "cycleCount/start");
    Tensor count = stampTensor(graph, tile, dc, "cycleCount");
    translate([&] {
        // prog becomes: stamp, (what prog was), count since the stamp.
        auto node = Access::program(prog).node();
        tessera::program::Sequence body;
        body.node()->children = std::move(node->children);
        node->children.clear();
        node->children.push_back(
            stampNode(tessera::program::CycleStamp(Access::tensor(start)), syncType));
        node->children.push_back(body.node());
        node->children.push_back(stampNode(
            tessera::program::CycleStamp(Access::tensor(count), Access::tensor(start)), syncType));
        return 0;
    });
    return count;
}

Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, const DebugContext& dc) {
    return cycleCount(graph, prog, tile, SyncType::INTERNAL, dc);
}

Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& dc) {
    Tensor t = stampTensor(graph, tile, dc, "cycleStamp");
    translate([&] {
        Access::program(prog).node()->children.push_back(
            stampNode(tessera::program::CycleStamp(Access::tensor(t)), syncType));
        return 0;
    });
    return t;
}

Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, const DebugContext& dc) {
    return cycleStamp(graph, prog, tile, SyncType::INTERNAL, dc);
}

std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles, SyncType syncType,
                               const DebugContext& dc) {
    // One stamp per tile, one after the other (each its own step).
    std::vector<Tensor> out;
    for (unsigned tile : tiles) {
        out.push_back(stampTensor(graph, tile, dc, "cycleStamp"));
    }
    translate([&] {
        for (const Tensor& t : out) {
            Access::program(prog).node()->children.push_back(
                stampNode(tessera::program::CycleStamp(Access::tensor(t)), syncType));
        }
        return 0;
    });
    return out;
}

} // namespace poplar
