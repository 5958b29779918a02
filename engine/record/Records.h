#pragma once
// Plain records the engine hands to a Recorder: everything a report needs.
// No behaviour here, so reports/ can depend on these without the engine.
#include "engine/record/BlockOwner.h"
#include "engine/record/Ids.h"
#include "engine/record/MemoryCategory.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::record {

inline constexpr std::uint32_t kNone = 0xffffffffu;

struct TargetRecord {
    std::string name;
    std::uint32_t numIPUs = 1;
    std::uint32_t tilesPerIPU = 0;
    std::uint32_t bytesPerTile = 0;
    std::uint32_t memoryBaseAddress = 0;
    double clockHz = 0;
    std::uint32_t numWorkerContexts = 0;
    std::uint32_t exchangeBytesPerCycle = 0;
    std::vector<std::pair<std::string, std::uint32_t>> regions;  // name, bytes, in address order
    std::vector<std::pair<std::string, std::string>> parameters; // every parameter, as text
    std::uint32_t numTiles() const { return numIPUs * tilesPerIPU; }
};

struct CodeletRecord {
    CodeletId id;
    std::string name;
    std::uint64_t codeBytes = 0;
    std::string cycleFormula;
};

struct VariableRecord {
    VariableId id;
    std::string name;
    std::string type;
    std::vector<std::uint64_t> shape;
    std::uint64_t numElements = 0;
    bool isConstant = false;
    bool alwaysLive = false;
    bool hostAccess = false;
    bool isExchangeBuffer = false;     // a compiler temporary for one step's exchange
    StepId firstStep = StepId::none(); // live range over program steps (not-always-live)
    StepId lastStep = StepId::none();
    // Tile, bytes: a variable's (or a step's buffer's) one block on a tile,
    // in the tile's 32-bit memory.
    std::vector<std::pair<TileId, std::uint32_t>> bytesByTile;
};

// How many vertices of one codelet a compute set has on one tile.
// One a (compute set, tile, codelet): 20 bytes. The count is of vertices
// (32-bit ids) and the state lies in the tile's 32-bit memory; sum either
// over tiles in 64 bits.
struct VertexCountRecord {
    ComputeSetId computeSet;
    TileId tile;
    CodeletId codelet;
    std::uint32_t count = 0;
    std::uint32_t stateBytes = 0;
};
static_assert(sizeof(VertexCountRecord) == 20);

struct ComputeSetRecord {
    ComputeSetId id;
    std::string name;
    std::uint64_t vertexCount = 0;
};

enum class ProgramKind : std::uint8_t {
    Sequence,
    Execute,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Copy,
    StreamToDevice,
    StreamToHost,
    PrintTensor,
    Block,
    Sync,
    Predicate, // evaluation of an If / RepeatWhile / Switch / Abort condition
    Switch,
    Abort,
    CycleStamp,
};
inline constexpr std::size_t kProgramKindCount = 16;
static_assert(static_cast<std::size_t>(ProgramKind::CycleStamp) + 1 == kProgramKindCount,
              "kProgramKindCount counts every ProgramKind");
// The name a report stores for a kind ("Execute", "StreamCopyToDevice", ...)
// and back: the one mapping between the enum and the database's names.
const char* programKindName(ProgramKind k);
std::optional<ProgramKind> programKindFromName(std::string_view name);

// Which software layer opened a Block (an operation): the application (its
// own named blocks, a framework's layers) or a library function (PopLibs,
// Tessera's ops). Unknown: a report written before layers were recorded.
enum class OperationLayer : std::uint8_t { Unknown, Application, Library };
const char* operationLayerName(OperationLayer l); // "unknown", "application", "library"

struct ProgramNodeRecord {
    ProgramNodeId id;
    ProgramNodeId parent = ProgramNodeId::none();
    std::uint32_t programIndex = 0; // which engine program (run(i)) it belongs to
    ProgramKind kind = ProgramKind::Sequence;
    std::string name;
    ComputeSetId computeSet = ComputeSetId::none();
    std::uint64_t repeatCount = 0;
    StepId step = StepId::none(); // when this node is a step
    // Block nodes only: the layer, and for a library block its function.
    OperationLayer layer = OperationLayer::Unknown;
    std::string libraryFunction = {};
};

// One compile-time program step (a leaf that runs: Execute, Copy, ...), with
// its cost on every tile. Every execution of the step costs the same.
struct ProgramStepRecord {
    StepId id;
    ProgramNodeId node;
    std::uint32_t programIndex = 0;
    ProgramKind kind = ProgramKind::Execute;
    std::string name;
    ComputeSetId computeSet = ComputeSetId::none();
    ProgramNodeId operation = ProgramNodeId::none(); // innermost enclosing Block node, if any
    std::uint64_t syncCycles = 0;
    std::uint64_t exchangePhaseCycles = 0;
    std::uint64_t computePhaseCycles = 0;
    std::uint64_t totalCycles = 0; // sync + exchange phase + compute phase
    std::uint64_t flops = 0;
    std::uint64_t vertices = 0;
    bool crossesIpus = false;
    // Per tile (numTiles entries): cycles busy computing and exchanging; the
    // rest of totalCycles a tile spends in sync (waiting and synchronising).
    std::vector<std::uint32_t> computeCycles;
    std::vector<std::uint32_t> exchangeCycles;
    std::vector<std::uint32_t> bytesIn;  // received from other tiles or the host
    std::vector<std::uint32_t> bytesOut; // sent to other tiles or the host
    // Liveness: not-always-live bytes per tile while this step runs.
    std::vector<std::uint32_t> notAlwaysLiveBytes;
    std::vector<VariableId> liveVariables; // live at this step, ascending
    // Variables the step reads and writes (ids, ascending; a variable read and
    // written is in both). Exchange buffers are left out.
    std::vector<VariableId> reads;
    std::vector<VariableId> writes;
};

// A tile's addresses are 32-bit: the layout refuses a tile whose memory
// would pass this address, and the reader a block that ends past it.
inline constexpr std::uint64_t kLastTileAddress = 0xffffffff;

// 20 bytes: a graph has one a vertex. Its address and its end are at most
// kLastTileAddress. The owner is kept as a report keeps it, a number the
// category interprets (ownerKindOf): no block holds an owner of another kind.
struct MemoryBlockRecord {
    TileId tile;
    MemoryCategory category = MemoryCategory::AlwaysLiveVariable;
    std::uint32_t address = 0;
    std::uint32_t bytes = 0;
    std::uint64_t end() const { return std::uint64_t{address} + bytes; }
    BlockOwner owner() const { return BlockOwner::fromStored(category, owner_); }
    std::uint32_t storedOwner() const { return owner_; }
    // Throws std::logic_error naming both kinds when the owner is not of the
    // category's kind (set the category first).
    void setOwner(BlockOwner owner);
    bool operator==(const MemoryBlockRecord&) const = default;

private:
    std::uint32_t owner_ = BlockOwner().stored();
};
static_assert(sizeof(MemoryBlockRecord) == 20);

// One a tile. Its figures are parts of the tile's laid-out memory, so they
// are 32-bit like its addresses (sum them over tiles in 64 bits), except
// the pool's unshared sum, which only says what sharing saved.
struct TileMemoryRecord {
    TileId tile;
    std::array<std::uint32_t, kMemoryCategoryCount> bytesByCategory{};
    std::uint32_t totalIncludingGaps = 0;
    std::uint32_t totalExcludingGaps = 0;
    std::uint32_t gapBytes = 0;
    std::uint32_t alwaysLiveBytes = 0;        // everything resident all the time
    std::uint32_t notAlwaysLivePeakBytes = 0; // the shared pool's size
    std::uint32_t overflowBytes = 0;          // beyond bytesPerTile
    std::uint64_t notAlwaysLiveSumBytes = 0;  // what the pool would take without sharing
    std::vector<std::uint32_t> bytesByRegion; // including gaps, per target region
};

struct CompiledRecord {
    TargetRecord target;
    std::vector<CodeletRecord> codelets;
    std::vector<VariableRecord> variables;
    std::vector<ComputeSetRecord> computeSets;
    std::vector<VertexCountRecord> vertexCounts;
    std::vector<ProgramNodeRecord> programNodes;
    std::vector<ProgramStepRecord> programSteps;
    std::vector<TileMemoryRecord> tileMemory;
    std::vector<MemoryBlockRecord> memoryBlocks;
    bool outOfMemory = false;
    std::uint64_t totalMemoryBytes = 0; // all tiles, including gaps
};

struct RunBeginRecord {
    std::uint32_t run = 0;
    std::uint32_t programIndex = 0;
    std::uint64_t startCycle = 0;
};

struct StepExecutionRecord {
    std::uint32_t run = 0;
    std::uint64_t sequence = 0; // position in the run
    StepId programStep;
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
};

struct RunEndRecord {
    std::uint32_t run = 0;
    std::uint64_t steps = 0;
    std::uint64_t cycles = 0;
    std::uint64_t computeCycles = 0;  // sum over steps of the compute phase
    std::uint64_t exchangeCycles = 0; // sum over steps of the exchange phase
    std::uint64_t syncCycles = 0;     // sum over steps of the sync
    bool completed = true;
    std::string error; // why the run stopped early, if it did
};

struct VerificationRecord {
    std::string workload;
    bool passed = false;
    double maxAbsError = 0;
    std::string detail;
};

} // namespace tessera::record
