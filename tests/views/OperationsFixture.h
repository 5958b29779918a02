#pragma once
// A small program built by hand for the Operations tests, with its figures
// worked out below by hand (the tests compare against these literals):
//
//   Sequence (0)
//     Block "fwd", the application's (1)
//       Block "fwd/layer1/matmul", library matMul (2) -> Execute cs 0, step 0
//       Block "fwd/layer1/add", library add (4)       -> Execute cs 1, step 1
//     Block "bwd/matmul", library matMul (6)          -> Execute cs 2, step 2
//     Copy (8)                                        -> step 3, no operation
//
//   step  total cycles  runs  cycles  FLOPs/run  peak bytes  received/run
//   0     130           3     390     1000       512         64
//   1      45           3     135      200       256          0
//   2     240           1     240     2000      1024        128
//   3      55           2     110        0       100        400
//
// Codelets: 0 MatMulPartial 300 B, 1 AddVertex 100 B, 2 ReduceAdd 50 B.
// Vertices: cs 0 has MatMulPartial on tiles 0 and 1 (2 each); cs 1 AddVertex
// on tiles 0 and 1 (1 each); cs 2 MatMulPartial on tiles 0 (2) and 1 (1) and
// ReduceAdd on tile 1 (1).
// Code size (each codelet once per tile that runs it):
//   fwd/layer1/matmul 2 x 300 = 600; fwd/layer1/add 2 x 100 = 200;
//   fwd (steps 0, 1) 2 x (300 + 100) = 800; bwd/matmul 300 + 300 + 50 = 650;
//   all operations (steps 0-2): tile 0 300 + 100, tile 1 300 + 100 + 50 = 850.
#include "tests/record/RecordFixtures.h"
#include "views/data/ReportData.h"
#include "views/models/ProgramStats.h"

#include <memory>

namespace tessera::testing {

inline std::shared_ptr<const views::ReportData> operationsReport() {
    using record::kNone;
    using record::OperationLayer;
    using record::ProgramKind;
    auto data = std::make_shared<views::ReportData>();
    auto node = [&](std::uint32_t id, std::uint32_t parent, ProgramKind kind, const char* name,
                    std::uint32_t cs, std::uint32_t step, OperationLayer layer = {},
                    const char* function = "") {
        record::ProgramNodeRecord n{record::ProgramNodeId{id},
                                    record::ProgramNodeId{parent},
                                    0,
                                    kind,
                                    name,
                                    record::ComputeSetId{cs},
                                    0,
                                    record::StepId{step}};
        n.layer = layer;
        n.libraryFunction = function;
        data->programNodes.push_back(n);
    };
    node(0, kNone, ProgramKind::Sequence, "", kNone, kNone);
    node(1, 0, ProgramKind::Block, "fwd", kNone, kNone, OperationLayer::Application);
    node(2, 1, ProgramKind::Block, "fwd/layer1/matmul", kNone, kNone, OperationLayer::Library,
         "matMul");
    node(3, 2, ProgramKind::Execute, "", 0, 0);
    node(4, 1, ProgramKind::Block, "fwd/layer1/add", kNone, kNone, OperationLayer::Library, "add");
    node(5, 4, ProgramKind::Execute, "", 1, 1);
    node(6, 0, ProgramKind::Block, "bwd/matmul", kNone, kNone, OperationLayer::Library, "matMul");
    node(7, 6, ProgramKind::Execute, "", 2, 2);
    node(8, 0, ProgramKind::Copy, "", kNone, 3);

    auto step = [&](std::uint32_t id, std::uint32_t nodeId, ProgramKind kind, const char* name,
                    std::uint32_t cs, std::uint32_t op, std::uint64_t sync, std::uint64_t exchange,
                    std::uint64_t compute, std::uint64_t flops, std::uint64_t vertices,
                    std::uint64_t peak, std::uint64_t received) {
        reports::ProgramStepEntry s;
        s.id = record::StepId{static_cast<std::uint32_t>(id)};
        s.node = record::ProgramNodeId{static_cast<std::uint32_t>(nodeId)};
        s.kind = kind;
        s.name = name;
        s.computeSet = record::ComputeSetId{static_cast<std::uint32_t>(cs)};
        s.operation = record::ProgramNodeId{static_cast<std::uint32_t>(op)};
        s.syncCycles = sync;
        s.exchangePhaseCycles = exchange;
        s.computePhaseCycles = compute;
        s.totalCycles = sync + exchange + compute;
        s.flops = flops;
        s.vertices = vertices;
        s.notAlwaysLiveBytesMax = peak;
        s.bytesInSum = received;
        data->programSteps.push_back(s);
    };
    step(0, 3, ProgramKind::Execute, "fwd/layer1/matmul/products", 0, 2, 10, 20, 100, 1000, 4, 512,
         64);
    step(1, 5, ProgramKind::Execute, "fwd/layer1/add/add", 1, 4, 5, 0, 40, 200, 2, 256, 0);
    step(2, 7, ProgramKind::Execute, "bwd/matmul/products", 2, 6, 10, 30, 200, 2000, 4, 1024, 128);
    step(3, 8, ProgramKind::Copy, "copy", kNone, kNone, 5, 50, 0, 0, 0, 100, 400);

    data->codelets = {testing::codelet(0, "MatMulPartial", 300),
                      testing::codelet(1, "AddVertex", 100), testing::codelet(2, "ReduceAdd", 50)};
    data->computeSets = {{record::ComputeSetId{0u}, "fwd/layer1/matmul/products", 4},
                         {record::ComputeSetId{1u}, "fwd/layer1/add/add", 2},
                         {record::ComputeSetId{2u}, "bwd/matmul/products", 4}};
    data->vertexCounts = {testing::vertexCount(0, 0, 0, 2, 0), testing::vertexCount(0, 1, 0, 2, 0),
                          testing::vertexCount(1, 0, 1, 1, 0), testing::vertexCount(1, 1, 1, 1, 0),
                          testing::vertexCount(2, 0, 0, 2, 0), testing::vertexCount(2, 1, 0, 1, 0),
                          testing::vertexCount(2, 1, 2, 1, 0)};
    data->target.numTiles = 2;
    data->target.clockHz = 1.33e9;
    return data;
}

inline std::shared_ptr<const views::ProgramStats> operationsStats(const views::ReportData& data) {
    return std::make_shared<const views::ProgramStats>(
        views::computeProgramStats(data, {3, 3, 1, 2}));
}

} // namespace tessera::testing
