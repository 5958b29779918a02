#pragma once
// A report written by hand for Execution pane tests: every name, cost and
// executed step is chosen here, so tests can state what to expect literally.
//
// Target: `ipus` IPUs of 4 tiles. Program 0:
//   node 0 Sequence (root)
//     node 1 Block "encoder"         (the operation of steps 0 and 1)
//       node 2 Execute step 0 "conv"  compute set 0 "conv/partials"
//       node 3 Execute step 1 "act"   compute set 1 "relu/apply"
//     node 4 Copy    step 2 "copyOut"
//     node 5 Execute step 3 (no name) compute set 2 "softmax/exp"
// Run 0 from cycle 1000 executes the steps in kOrder (sequences 0 to 11).
#include "engine/record/Records.h"
#include "reports/ReportWriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QString>

#include <array>
#include <cstdint>
#include <vector>

namespace tessera::testing {

inline constexpr std::array<std::uint32_t, 12> kOrder = {0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 3};
inline constexpr std::array<std::uint64_t, 4> kStepCycles = {100000, 50000, 30000, 60000};
inline constexpr std::uint64_t kRunStart = 1000;
inline constexpr std::uint32_t kTilesPerIpu = 4;

inline QString handBuiltExecutionReport(std::uint32_t ipus) {
    const QString path =
        QDir(TESSERA_TEST_OUTPUT_DIR)
            .filePath(QCoreApplication::applicationName() + QString("-hand-%1ipu.tsr").arg(ipus));
    QFile::remove(path);
    using record::ProgramKind;
    record::CompiledRecord c;
    c.target.name = "hand";
    c.target.numIPUs = ipus;
    c.target.tilesPerIPU = kTilesPerIpu;
    c.target.bytesPerTile = 1024;
    c.target.clockHz = 1e9;
    c.target.numWorkerContexts = 6;
    c.target.exchangeBytesPerCycle = 4;
    c.computeSets = {{record::ComputeSetId{0u}, "conv/partials", 8},
                     {record::ComputeSetId{1u}, "relu/apply", 8},
                     {record::ComputeSetId{2u}, "softmax/exp", 8}};
    const std::uint32_t none = record::kNone;
    c.programNodes = {
        {record::ProgramNodeId{0u}, record::ProgramNodeId::none(), 0, ProgramKind::Sequence, "",
         record::ComputeSetId::none(), 0, record::StepId::none()},
        {record::ProgramNodeId{1u}, record::ProgramNodeId{0u}, 0, ProgramKind::Block, "encoder",
         record::ComputeSetId::none(), 0, record::StepId::none()},
        {record::ProgramNodeId{2u}, record::ProgramNodeId{1u}, 0, ProgramKind::Execute, "conv",
         record::ComputeSetId{0u}, 0, record::StepId{0u}},
        {record::ProgramNodeId{3u}, record::ProgramNodeId{1u}, 0, ProgramKind::Execute, "act",
         record::ComputeSetId{1u}, 0, record::StepId{1u}},
        {record::ProgramNodeId{4u}, record::ProgramNodeId{0u}, 0, ProgramKind::Copy, "copyOut",
         record::ComputeSetId::none(), 0, record::StepId{2u}},
        {record::ProgramNodeId{5u}, record::ProgramNodeId{0u}, 0, ProgramKind::Execute, "",
         record::ComputeSetId{2u}, 0, record::StepId{3u}},
    };
    const std::uint32_t tiles = ipus * kTilesPerIpu;
    auto step = [&](std::uint32_t id, ProgramKind kind, const char* name, std::uint32_t cs,
                    std::uint32_t op, std::uint64_t sync, std::uint64_t exchange) {
        record::ProgramStepRecord s;
        s.id = record::StepId{static_cast<std::uint32_t>(id)};
        s.node = record::ProgramNodeId{static_cast<std::uint32_t>(id + 2)};
        s.kind = kind;
        s.name = name;
        s.computeSet = record::ComputeSetId{static_cast<std::uint32_t>(cs)};
        s.operation = record::ProgramNodeId{static_cast<std::uint32_t>(op)};
        s.totalCycles = kStepCycles[id];
        s.syncCycles = sync;
        s.exchangePhaseCycles = exchange;
        s.computePhaseCycles = s.totalCycles - sync - exchange;
        for (std::uint32_t t = 0; t < tiles; ++t) {
            // IPU 0's tiles compute the whole phase, the others half of it.
            const auto compute = static_cast<std::uint32_t>(
                t < kTilesPerIpu ? s.computePhaseCycles : s.computePhaseCycles / 2);
            s.computeCycles.push_back(compute);
            s.exchangeCycles.push_back(static_cast<std::uint32_t>(exchange));
            s.bytesIn.push_back(0);
            s.bytesOut.push_back(0);
            s.notAlwaysLiveBytes.push_back(0);
        }
        return s;
    };
    c.programSteps = {step(0, ProgramKind::Execute, "conv", 0, 1, 10000, 20000),
                      step(1, ProgramKind::Execute, "act", 1, 1, 5000, 5000),
                      step(2, ProgramKind::Copy, "copyOut", none, none, 5000, 25000),
                      step(3, ProgramKind::Execute, "", 2, none, 10000, 0)};
    reports::WriterOptions options;
    options.workload = "hand-built";
    options.toolVersion = "test";
    reports::ReportWriter writer(path.toStdString(), options);
    writer.onCompiled(c);
    writer.onRunBegin({0, 0, kRunStart});
    record::RunEndRecord end;
    std::uint64_t cycle = kRunStart;
    for (std::uint64_t seq = 0; seq < kOrder.size(); ++seq) {
        const std::uint32_t id = kOrder[seq];
        writer.onStep({0, seq, record::StepId{id}, cycle, kStepCycles[id]});
        cycle += kStepCycles[id];
        const auto& s = c.programSteps[id];
        end.computeCycles += s.computePhaseCycles;
        end.exchangeCycles += s.exchangePhaseCycles;
        end.syncCycles += s.syncCycles;
    }
    end.steps = kOrder.size();
    end.cycles = cycle - kRunStart;
    writer.onRunEnd(end);
    writer.finish();
    return path;
}

// The cycle an executed step of kOrder starts at.
inline std::uint64_t handStartCycle(std::uint64_t sequence) {
    std::uint64_t cycle = kRunStart;
    for (std::uint64_t s = 0; s < sequence; ++s) {
        cycle += kStepCycles[kOrder[s]];
    }
    return cycle;
}

} // namespace tessera::testing
