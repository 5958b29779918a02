#pragma once
// The engine's prepared state, made by EnginePrepare.cpp and shared by the
// files that run steps (Engine.cpp: one step at a time; EngineGroups.cpp:
// steps tile by tile).
// Internal to engine/runtime.
#include "engine/runtime/Engine.h"
#include "engine/runtime/SharedReplicas.h"
#include "engine/runtime/StepGroups.h"
#include "engine/runtime/TileCopies.h"
#include "engine/runtime/TileStores.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tessera {

namespace runtime {

// One step's copies of an exchange phase, a list per destination tile.
struct TileCopyLists {
    std::vector<std::vector<CopyOp>> byTile;
    std::vector<std::uint32_t> tiles; // the destination tile of each list
    bool streamed = false;            // too large to stay in the cache: runtime::streamRuns
};

struct Instance {
    void* object;
    const CodeletInfo* codelet;
    VertexId vertex;
};

// Work of one step grouped by the tile whose memory it writes, so groups can
// run in parallel without two threads writing one tile.
struct PreparedStep {
    TileCopyLists gather;
    std::vector<std::vector<Instance>> compute;
    std::vector<std::uint32_t> computeTiles; // the tile of each compute list
    TileCopyLists scatter;
    // Gathered bytes vertices read at the source (InPlaceReads.h).
    std::uint64_t bytesReadInPlace = 0;
    // A Copy step with replicas made once (SharedReplicas.h): `gather` leaves
    // them out, this list (for the debugger's advance, made then) makes every one.
    std::optional<TileCopyLists> everyReplica;
    std::uint64_t replicaBytesNotCopied = 0;
    // Vertices run inside another's compute() call (JoinedVertices.h).
    std::uint64_t verticesJoined = 0;
};

// A step's copies as lists per destination tile; `copy`: per transfer,
// whether it is made (none: all are). `byTile`: scratch, one list a tile.
TileCopyLists copyLists(const compiler::CompiledGraph& compiled, const TileStores& memory,
                        const LargeVector<compiler::Transfer>& transfers,
                        const std::vector<std::uint8_t>* copy,
                        std::vector<std::vector<CopyOp>>& byTile);

// Runs a vertex; what its compute() throws, or its returning false, becomes
// an error naming the vertex and the step.
void runCompute(const Graph& graph, const Instance& inst, compiler::StepId step,
                const compiler::StepPlan& plan);

} // namespace runtime

// Consecutive steps run unit by unit (runtime/StepGroups.h): for each unit
// (a tile, or tiles that read each other's bytes) with work in any of them,
// each step's copies and then its vertices on the unit's tiles, in step
// order. Only the work there is: no larger than the steps' own lists.
struct Engine::GroupWork {
    struct Item {
        std::uint32_t tile;
        std::uint32_t step; // index into steps
        const std::vector<runtime::CopyOp>* copies = nullptr;
        const std::vector<runtime::Instance>* vertices = nullptr;
    };
    std::vector<compiler::StepId> steps;
    std::vector<Item> items;             // by unit, then step, then tile
    std::vector<std::size_t> unitStarts; // each unit's first item, then items.size()
};

struct Engine::Prepared {
    Prepared(runtime::HostLayout layout, runtime::WarmPages* warm)
        : memory(std::move(layout), warm) {}
    TileStores memory; // the tiles' stores; unmapped after the instances are destroyed
    std::vector<runtime::PreparedStep> steps;
    std::vector<runtime::Instance> owned;
    runtime::SharedReplicas replicas; // before groups, which read it
    std::unique_ptr<runtime::StepGroups> groups;
    // Per program, per instruction: the group starting there, made on first use.
    std::vector<std::vector<std::unique_ptr<GroupWork>>> groupWork;
    ~Prepared() {
        for (const runtime::Instance& i : owned) {
            i.codelet->destroy(i.object);
        }
    }
};

} // namespace tessera
