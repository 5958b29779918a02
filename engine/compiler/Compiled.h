#pragma once
// The compiled form of a graph and its programs: where every byte lives, what
// each step moves and runs, and what it costs. Produced by compile(), used by
// the runtime and turned into records for the report.
#include "engine/core/LargeArray.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/record/Records.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::compiler {

using StepId = record::StepId; // the record's: steps are numbered alike in both
using BlockId = std::uint32_t; // an index into CompiledGraph::blocks
inline constexpr BlockId kNoBlock = static_cast<BlockId>(-1); // "no block yet" in per-tile arrays

// A piece of tile data memory: one variable's elements on one tile, or one
// step's exchange buffer on one tile. 36 bytes: a graph has one per variable
// per tile. Its size and offsets are parts of one tile's memory, 32-bit like
// the tile's addresses (placement and exchange planning check its size).
struct DataBlock {
    TileId tile;
    VariableId var = VariableId::none(); // none for an exchange buffer
    StepId step = StepId::none();        // the step owning an exchange buffer
    StepId firstStep = StepId::none();   // live range, for not-always-live blocks
    StepId lastStep = StepId::none();
    std::uint32_t address = 0; // tile address, after layout
    std::uint32_t bytes = 0;
    std::uint32_t storeOffset = 0; // offset into the tile's host-side store
    bool alwaysLive = true;
    bool constant = false;
};
static_assert(sizeof(DataBlock) == 36);

// Elements [begin, end) of a variable held in `block` (on the block's tile),
// starting at element `localStart` of it. 24 bytes, one per variable per
// tile mostly.
struct PlacedInterval {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    BlockId block = 0;
    std::uint32_t localStart = 0;
};
static_assert(sizeof(PlacedInterval) == 24);

// Bytes into a block. 32-bit, like a block's size: a block is part of one
// tile's memory, whose addresses placement and layout check fit 32 bits.
struct Location {
    BlockId block = 0;
    std::uint32_t offset = 0;
};
static_assert(sizeof(Location) == 8);

// A byte offset or count inside one block, as a Location holds it: every
// block's size was checked to fit a tile's 32-bit addresses when it was
// made (withinTileAddresses), so anything inside it fits too.
constexpr std::uint32_t inBlock(std::uint64_t bytes) {
    return static_cast<std::uint32_t>(bytes);
}

// A tensor's elements as runs of consecutive bytes, each in one block (so
// 32-bit too).
struct Run {
    Location location;
    TileId tile;
    std::uint32_t elements = 0;
};
static_assert(sizeof(Run) == 16);

// 20 bytes: a matMul's block copies at 2048^3 make 645k of them.
struct Transfer {
    Location source;
    Location destination;
    std::uint32_t bytes = 0;
};
static_assert(sizeof(Transfer) == 20);

// Host side of a stream copy or print: a byte range of the host buffer.
struct HostTransfer {
    Location device;
    std::uint64_t hostOffset = 0;
    std::uint64_t bytes = 0;
};

// Where one field (or one vector-list entry) of a vertex points. A vertex's
// entries are in field order, a list's one after another, so the field is
// the codelet's and the graph's entry counts, not stored: three fields a
// vertex at 10^7 vertices. 32-bit offset and count: a block is one tile's
// memory (compile checks).
struct FieldEntryPlan {
    std::uint32_t offset = 0; // bytes into the block
    BlockId block = 0;
    std::uint32_t count = 0; // elements
    Location location() const { return {block, offset}; }
};
static_assert(sizeof(FieldEntryPlan) == 12);

// 12 bytes: a graph of 10^7 vertices writes one a vertex into fresh memory.
// The cycle model's per-vertex estimates are summed per step, not kept.
struct VertexPlan {
    VertexId vertex;
    TileId tile;
    std::uint32_t firstEntry = 0; // its entries: [firstEntry, next vertex's) of the step's
};
static_assert(sizeof(VertexPlan) == 12);

struct StepPlan {
    record::ProgramKind kind = record::ProgramKind::Execute;
    std::uint32_t node = 0;
    std::uint32_t programIndex = 0;
    std::string name;
    ComputeSetId computeSet = ComputeSetId::none();
    std::uint32_t operation = kNoIndex;
    LargeVector<Transfer> gather;        // before compute (or the whole copy)
    LargeVector<Transfer> scatter;       // after compute
    LargeVector<VertexPlan> vertices;    // sorted by tile
    LargeVector<FieldEntryPlan> entries; // of every vertex, in vertex and field order
    // A vertex's field entries (stored flat: graphs reach 10^7 vertices).
    std::span<const FieldEntryPlan> entriesOf(std::size_t vertexIndex) const {
        const std::uint64_t end = vertexIndex + 1 < vertices.size()
                                      ? vertices[vertexIndex + 1].firstEntry
                                      : entries.size();
        const std::uint64_t first = vertices[vertexIndex].firstEntry;
        return {entries.data() + first, static_cast<std::size_t>(end - first)};
    }
    std::vector<HostTransfer> host; // stream copies, prints, predicates
    std::string stream;
    Tensor source;                         // Copy, stream to host, PrintTensor, Predicate
    Tensor destination;                    // Copy, stream to device
    std::vector<VariableId> reads, writes; // for liveness
    // Cost, filled by the cycle model.
    std::uint64_t syncCycles = 0, exchangePhaseCycles = 0, computePhaseCycles = 0;
    // Per tile, until buildRecord moves them into the step's record.
    std::vector<std::uint32_t> computeCycles, exchangeCycles, bytesIn, bytesOut;
    std::uint64_t flops = 0;
    bool crossesIpus = false;
    std::string abortMessage; // Abort: thrown when the predicate (if any) is non-zero
    bool cycleStamp = false;  // CycleStamp: destination (and start stamp in source)
    std::optional<program::SyncScope> syncScope; // Sync, CycleStamp: what it waits for
    std::uint64_t totalCycles() const {
        return syncCycles + exchangePhaseCycles + computePhaseCycles;
    }
};

enum class Op : std::uint8_t { Step, LoopInit, LoopNext, JumpIfNot, Jump, JumpIfEqual };

// The control program as a flat list a small interpreter walks (so a
// debugger can stop between any two steps).
struct Instruction {
    Op op = Op::Step;
    StepId step = StepId::none(); // Step; JumpIfNot reads the flag its Predicate step set
    std::uint64_t count = 0;      // LoopInit
    std::uint32_t target = 0;     // jump target
    bool expect = true;           // JumpIfNot: continue when flag == expect
    std::int64_t value = 0;       // JumpIfEqual: jump when the step's predicate value equals it
};

struct CompiledGraph;
// Records give each step's exchange buffers a pseudo-variable id after the real ones.
VariableId exchangeBufferId(const CompiledGraph& compiled, StepId step);

struct CompiledGraph {
    const Graph* graph = nullptr;
    LargeVector<DataBlock> blocks;
    std::vector<std::vector<PlacedInterval>> placements; // per variable
    std::vector<StepPlan> steps;
    std::vector<std::vector<Instruction>> programs; // per engine program
    std::vector<record::ProgramNodeRecord> nodes;
    std::vector<std::pair<StepId, StepId>> loops;        // step ranges of loop bodies, inner first
    std::vector<std::pair<StepId, StepId>> programSteps; // step range [first, end) per program
    std::vector<const CodeletInfo*>
        codelets;                          // codelets the graph uses; index = codelet id in records
    std::vector<std::uint64_t> storeBytes; // host-side store size per tile
    record::CompiledRecord record;         // what the report gets
    bool outOfMemory = false;

    // A step by id (steps are numbered by their position in `steps`).
    const StepPlan& step(StepId id) const { return steps[id.value()]; }
    StepPlan& step(StepId id) { return steps[id.value()]; }

    Location locate(VariableId var, std::size_t element) const;
    LargeVector<Run> runsOf(const Tensor& t) const; // in the tensor's element order
    // Appends the runs of regions (of one element type) to `runs`. `hints`,
    // when given, holds per variable the placed interval where the last call
    // ended: a caller walking variables in element order skips the search.
    void appendRuns(std::span<const VariableRegion> regions, LargeVector<Run>& runs,
                    std::vector<std::uint32_t>* hints = nullptr) const;
    void appendRuns(RegionsView regions, LargeVector<Run>& runs,
                    std::vector<std::uint32_t>* hints = nullptr) const; // a vertex field's
};

// Validates and compiles; throws ValidationError naming tensor, vertex and
// tile. Over-capacity tiles do not throw here: the result is marked
// outOfMemory so the caller can record it before refusing to run.
CompiledGraph compile(const Graph& graph, const std::vector<program::Program>& programs);

} // namespace tessera::compiler
