#pragma once
// Plain structs the reader returns: everything a pane or the CLI needs from a
// report, with no SQL and no SQLite types. Ids are the report's own (equal to
// the engine's record ids, the same strong id types); an id's none() marks
// "none". Where the report holds exactly what the engine recorded (codelets,
// vertex counts, compute sets, memory blocks, program nodes, step executions,
// verification), the reader returns the record type itself
// (engine/record/Records.h), not a copy of it. The Entry types below hold a
// fact in another shape than its record, on purpose:
// - VariableEntry, ProgramStepEntry: the sums loaded with the report, in place
//   of the per-tile lists, which stay in the file and are read on demand
//   (StepTiles, memory blocks): a report of 10^6 steps opens without them;
// - TileMemoryEntry: categories indexed by the report's own category table,
//   not by this build's enum;
// - TargetInfo: regions with their offsets, as the file stores them;
// - RunEntry: a run's begin and end records in one row.
#include "engine/record/Records.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::reports {

using record::ComputeSetId;
using record::ProgramNodeId;
using record::StepId;
using record::TileId;
using record::VariableId;

struct ReportInfo {
    std::string path;
    std::string schemaVersion; // "major.minor"
    int schemaMajor = 0;
    int schemaMinor = 0;
    bool complete = false; // false: the capture stopped before finishing
    std::string incompleteReason;
    std::string createdAt; // ISO 8601, UTC
    std::string finishedAt;
    std::string tool;
    std::string toolVersion;
    std::string workload; // empty when the report was not captured from a workload
    std::vector<std::pair<std::string, std::string>> workloadParameters;
};

struct RegionInfo {
    std::string name;
    std::uint32_t offset = 0;
    std::uint32_t bytes = 0;
};

struct TargetInfo {
    std::string name;
    std::uint32_t numIpus = 0;
    std::uint32_t tilesPerIpu = 0;
    std::uint32_t numTiles = 0;
    std::uint64_t bytesPerTile = 0;
    std::uint64_t memoryBaseAddress = 0;
    double clockHz = 0;
    std::uint32_t workerContexts = 0;
    std::uint32_t exchangeBytesPerCycle = 0;
    std::vector<RegionInfo> regions;
    std::vector<std::pair<std::string, std::string>> parameters;
};

struct MemoryCategoryEntry {
    std::uint32_t id = 0; // equals record::MemoryCategory's value
    std::string key;      // stable identifier, e.g. "always_live"
    std::string name;     // for people, e.g. "always-live variables"
};

struct VariableEntry {
    VariableId id;
    std::string name;
    std::string type;
    std::vector<std::uint64_t> shape;
    std::uint64_t numElements = 0;
    bool isConstant = false;
    bool alwaysLive = false;
    bool hostAccess = false;
    bool isExchangeBuffer = false;
    StepId firstStep = StepId::none();
    StepId lastStep = StepId::none();
    std::uint64_t totalBytes = 0;
    std::uint32_t numTiles = 0; // tiles holding some of it
};

// Step-level figures of a compile-time program step; per-tile arrays are in
// StepTiles. Tile balance = computeCyclesSum / (tiles * computeCyclesMax).
struct ProgramStepEntry {
    StepId id;
    ProgramNodeId node;
    std::uint32_t programIndex = 0;
    record::ProgramKind kind = record::ProgramKind::Execute;
    std::string name;
    ComputeSetId computeSet = ComputeSetId::none();
    ProgramNodeId operation = ProgramNodeId::none();
    std::uint64_t syncCycles = 0;
    std::uint64_t exchangePhaseCycles = 0;
    std::uint64_t computePhaseCycles = 0;
    std::uint64_t totalCycles = 0;
    std::uint64_t flops = 0;
    std::uint64_t vertices = 0;
    bool crossesIpus = false;
    std::uint64_t computeCyclesMax = 0;
    std::uint64_t computeCyclesSum = 0;
    std::uint64_t exchangeCyclesMax = 0;
    std::uint64_t exchangeCyclesSum = 0;
    std::uint64_t bytesInSum = 0;
    std::uint64_t bytesOutSum = 0;
    std::uint64_t notAlwaysLiveBytesMax = 0;
    std::uint64_t liveVariableCount = 0;
    // Sum over tiles of not-always-live bytes (stored since 1.2, summed from
    // the tile arrays at load for older reports).
    std::uint64_t notAlwaysLiveBytesSum = 0;
};

// How a program step uses a variable (column step_variable_access.access).
enum class VariableAccess : std::uint8_t { Read = 1, Write = 2, ReadWrite = 3 };

// A variable a program step reads or writes (the dataflow graph's edges).
struct StepVariableAccess {
    StepId step;
    VariableId variable;
    VariableAccess access = VariableAccess::Read;
    bool reads() const { return access != VariableAccess::Write; }
    bool writes() const { return access != VariableAccess::Read; }
    bool operator==(const StepVariableAccess&) const = default;
};

// One program step on every tile (numTiles entries each).
struct StepTiles {
    StepId step;
    std::uint64_t totalCycles = 0;
    std::vector<std::uint32_t> computeCycles;
    std::vector<std::uint32_t> exchangeCycles;
    std::vector<std::uint32_t> syncCycles; // totalCycles - compute - exchange
    std::vector<std::uint32_t> bytesIn;
    std::vector<std::uint32_t> bytesOut;
    std::vector<std::uint32_t> notAlwaysLiveBytes;
};

struct TileMemoryEntry {
    TileId tile;
    std::vector<std::uint64_t> bytesByCategory; // indexed by MemoryCategoryEntry::id
    std::vector<std::uint64_t> bytesByRegion;   // indexed by TargetInfo::regions
    std::uint64_t totalIncludingGaps = 0;
    std::uint64_t totalExcludingGaps = 0;
    std::uint64_t gapBytes = 0;
    std::uint64_t alwaysLiveBytes = 0;
    std::uint64_t notAlwaysLivePeakBytes = 0;
    std::uint64_t notAlwaysLiveSumBytes = 0;
    std::uint64_t overflowBytes = 0;
};

struct RunEntry {
    std::uint32_t id = 0;
    std::uint32_t programIndex = 0;
    std::uint64_t startCycle = 0;
    std::uint64_t steps = 0;
    std::uint64_t cycles = 0;
    std::uint64_t computeCycles = 0; // sums of the executed steps' phases
    std::uint64_t exchangeCycles = 0;
    std::uint64_t syncCycles = 0;
    bool completed = false;
    std::string error;
};

// Per tile group: over the tiles of the group, the min, max and sum of each
// tile's cycles summed over the bucket's steps.
struct GroupStats {
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    std::uint64_t sum = 0;
    bool operator==(const GroupStats&) const = default;
};

struct LodLevel {
    std::uint32_t level = 0; // 0: single executed steps (computed, not stored)
    std::uint64_t bucketSteps = 1;
    std::uint64_t buckets = 0;
    std::uint32_t groupTiles = 0;
    std::uint32_t groups = 0; // tile groups, not counting the all-tiles entry
};

struct LodBucket {
    std::uint32_t level = 0;
    std::uint64_t index = 0;
    std::uint64_t firstSeq = 0;
    std::uint64_t steps = 0;
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    std::uint64_t computePhaseCycles = 0;
    std::uint64_t exchangePhaseCycles = 0;
    std::uint64_t syncPhaseCycles = 0;
    std::uint64_t maxStepCycles = 0;
    // groups + 1 entries: one per tile group, then all tiles.
    std::vector<GroupStats> compute;
    std::vector<GroupStats> exchange;
    std::vector<GroupStats> sync;
};

} // namespace tessera::reports
