#pragma once
// A hand-built report for the Memory pane's models, reader query and pane
// tests: four tiles whose every figure is chosen here, so tests compare with
// literal values. Tile 3 is over capacity; tile 1 has no not-always-live
// blocks; tile 0's and tile 2's not-always-live blocks share addresses.
#include "engine/record/Records.h"
#include "reports/ReportWriter.h"
#include "tests/record/RecordFixtures.h"

#include <algorithm>
#include <array>
#include <filesystem>

namespace tessera::testing {

inline constexpr std::uint32_t kHandBase = 0x1000;       // memory base address
inline constexpr std::uint32_t kHandBytesPerTile = 1000; // regions: 600 + 400

inline record::CompiledRecord handBuiltMemoryRecord() {
    using record::MemoryCategory;
    record::CompiledRecord c;
    c.target.name = "hand-built";
    c.target.numIPUs = 1;
    c.target.tilesPerIPU = 4;
    c.target.bytesPerTile = kHandBytesPerTile;
    c.target.memoryBaseAddress = kHandBase;
    c.target.clockHz = 1.33e9;
    c.target.numWorkerContexts = 6;
    c.target.exchangeBytesPerCycle = 4;
    c.target.regions = {{"non-interleaved", 600}, {"interleaved", 400}};
    c.codelets = {codelet(0, "AddVertex", 50, "10"), codelet(1, "ReduceVertex", 30, "20")};
    c.computeSets = {{record::ComputeSetId{0u}, "cs/add", 11},
                     {record::ComputeSetId{1u}, "cs/reduce", 4}};
    c.vertexCounts = {vertexCount(0, 0, 0, 4, 64), vertexCount(0, 1, 0, 2, 32),
                      vertexCount(0, 3, 0, 5, 80), vertexCount(1, 0, 1, 1, 24),
                      vertexCount(1, 2, 1, 3, 72)};
    record::ProgramNodeRecord root;
    root.id = record::ProgramNodeId{0u};
    root.name = "main";
    record::ProgramNodeRecord add;
    add.id = record::ProgramNodeId{1u};
    add.parent = record::ProgramNodeId{0u};
    add.kind = record::ProgramKind::Execute;
    add.name = "add";
    add.computeSet = record::ComputeSetId{0u};
    add.step = record::StepId{0u};
    record::ProgramNodeRecord copy;
    copy.id = record::ProgramNodeId{2u};
    copy.parent = record::ProgramNodeId{0u};
    copy.kind = record::ProgramKind::Copy;
    copy.name = "copy";
    copy.step = record::StepId{1u};
    c.programNodes = {root, add, copy};
    record::ProgramStepRecord s0;
    s0.id = record::StepId{0u};
    s0.node = record::ProgramNodeId{1u};
    s0.kind = record::ProgramKind::Execute;
    s0.name = "add";
    s0.computeSet = record::ComputeSetId{0u};
    s0.computeCycles = {10, 20, 30, 40};
    s0.exchangeCycles = {0, 0, 0, 0};
    s0.bytesIn = {10, 0, 30, 0};
    s0.bytesOut = {0, 20, 0, 5};
    s0.notAlwaysLiveBytes = {0, 0, 0, 0};
    s0.computePhaseCycles = 40;
    s0.totalCycles = 40;
    record::ProgramStepRecord s1 = s0;
    s1.id = record::StepId{1u};
    s1.node = record::ProgramNodeId{2u};
    s1.kind = record::ProgramKind::Copy;
    s1.name = "copy";
    s1.computeSet = record::ComputeSetId::none();
    s1.computeCycles = {0, 0, 0, 0};
    s1.exchangeCycles = {25, 50, 38, 38};
    s1.bytesIn = {100, 200, 0, 0};
    s1.bytesOut = {0, 0, 150, 150};
    s1.computePhaseCycles = 0;
    s1.exchangePhaseCycles = 50;
    s1.totalCycles = 50;
    c.programSteps = {s0, s1};

    // Per tile: the categories' bytes (in MemoryCategory order), gaps,
    // regions and overflow, consistent with each other.
    auto tile = [](std::uint32_t t, std::array<std::uint32_t, record::kMemoryCategoryCount> cat,
                   std::uint32_t gaps, std::uint64_t nalSum) {
        record::TileMemoryRecord m;
        m.tile = record::TileId{static_cast<std::uint32_t>(t)};
        m.bytesByCategory = cat;
        for (auto b : cat) {
            m.totalExcludingGaps += b;
        }
        m.gapBytes = gaps;
        m.totalIncludingGaps = m.totalExcludingGaps + gaps;
        m.notAlwaysLivePeakBytes = cat[1];
        m.notAlwaysLiveSumBytes = nalSum;
        m.alwaysLiveBytes = m.totalExcludingGaps - cat[1];
        m.overflowBytes =
            m.totalIncludingGaps > kHandBytesPerTile ? m.totalIncludingGaps - kHandBytesPerTile : 0;
        m.bytesByRegion = {std::min<std::uint32_t>(m.totalIncludingGaps, 600),
                           m.totalIncludingGaps > 600
                               ? std::min<std::uint32_t>(m.totalIncludingGaps - 600, 400)
                               : 0};
        return m;
    };
    // always-live, not-always-live, constants, vertex state, descriptors,
    // vertex code, internal exchange, host exchange, control code, stack
    c.tileMemory = {tile(0, {100, 200, 30, 20, 10, 50, 16, 8, 64, 40}, 12, 280),
                    tile(1, {300, 0, 0, 8, 4, 50, 16, 0, 64, 40}, 6, 0),
                    tile(2, {0, 50, 0, 12, 0, 30, 0, 0, 64, 40}, 4, 150),
                    tile(3, {700, 64, 100, 40, 20, 80, 32, 8, 64, 40}, 52, 64)};
    auto block = [](std::uint32_t t, MemoryCategory cat, std::uint32_t offset,
                    std::uint32_t bytes) {
        record::MemoryBlockRecord b;
        b.tile = record::TileId{t};
        b.category = cat;
        b.address = kHandBase + offset;
        b.bytes = bytes;
        return b;
    };
    const auto nal = MemoryCategory::NotAlwaysLiveVariable;
    c.memoryBlocks = {
        block(0, MemoryCategory::AlwaysLiveVariable, 0, 100),
        // A constant inside the pool's addresses: only not-always-live blocks count.
        block(0, MemoryCategory::Constant, 300, 30),
        block(0, nal, 300, 120), // [300, 420)
        block(0, nal, 300, 80),  // [300, 380): shares 80 bytes with the first
        block(0, nal, 420, 80),  // [420, 500): alone
        block(1, MemoryCategory::AlwaysLiveVariable, 0, 300),
        block(2, nal, 200, 50), // three blocks on the same 50 bytes
        block(2, nal, 200, 50),
        block(2, nal, 200, 50),
        block(3, nal, 900, 64),
    };
    c.outOfMemory = true;
    for (const auto& m : c.tileMemory) {
        c.totalMemoryBytes += m.totalIncludingGaps;
    }
    return c;
}

inline void writeHandBuiltMemoryReport(const std::filesystem::path& path) {
    reports::WriterOptions options;
    options.toolVersion = "test";
    reports::ReportWriter writer(path, options);
    writer.onCompiled(handBuiltMemoryRecord());
    writer.finish();
}

} // namespace tessera::testing
