// Cycle and memory figures of tiny programs against values worked out by
// hand from the documented model (CycleModel.cpp's header, the built-in
// codelets' formulas, MemoryLayout.cpp's constants and order). Expected
// numbers are written as explicit arithmetic, never computed by the engine.
//
// Target "tiles:4" (mk2-like) parameters used throughout, asserted below:
//   6 worker contexts; exchange 4 B/cycle + 30 cycles latency; on-tile copy
//   8 B/cycle; sync 150 (IPU), 1500 (global), 3000 (host); inter-IPU latency
//   500; worker stack 256, supervisor 128; memory base 0x4c000; data aligned
//   to 8. The host link (per IPU) is set to 8 B/cycle and the IPU-Links (per
//   IPU) to 32 B/cycle, so the figures do not follow the presets' link speeds.
#include "EngineTestSupport.h"
#include "SmallTarget.h"
#include "engine/codelets/Vertex.h"
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

using namespace tessera;
namespace prog = tessera::program;
using record::MemoryCategory;
using test::kBase;
using test::smallTarget;
using test::withRecorder;

namespace {

constexpr std::uint64_t kSync = 150;
constexpr std::uint64_t kLatency = 30;

} // namespace

class TestEngineCycles : public QObject {
    Q_OBJECT

private slots:
    void targetParameters();

    void singleVertex_data();
    void singleVertex();
    void listScheduling_data();
    void listScheduling();
    void exchangeForRemoteOperands_data();
    void exchangeForRemoteOperands();
    void remoteInOutMovesBothWays();
    void broadcastIsSentOnce();
    void sentRangesAreUnitedPerSourceBlock_data();
    void sentRangesAreUnitedPerSourceBlock();
    void onTileCopiesUseTheLocalRate();
    void copySteps();
    void hostSteps();
    void predicateStep();
    void syncPerStep();
    void multiIpu();
    void syncScopes_data();
    void syncScopes();
    void perfEstimateOverrides();
};

void TestEngineCycles::targetParameters() {
    const Target t = smallTarget();
    QCOMPARE(t.numWorkerContexts, 6u);
    QCOMPARE(t.exchangeBytesPerCycle, 4u);
    QCOMPARE(t.exchangeLatencyCycles, 30u);
    QCOMPARE(t.onTileCopyBytesPerCycle, 8u);
    QCOMPARE(t.hostBytesPerCycle, 8u);
    QCOMPARE(t.ipuSyncCycles, 150u);
    QCOMPARE(t.globalSyncCycles, 1500u);
    QCOMPARE(t.hostSyncCycles, 3000u);
    QCOMPARE(t.ipuLinkBytesPerCycle, 32u);
    QCOMPARE(t.interIpuLatencyCycles, 500u);
    QCOMPARE(t.workerStackBytes, 256u);
    QCOMPARE(t.supervisorStackBytes, 128u);
    QCOMPARE(t.memoryBaseAddress, kBase);
    QCOMPARE(t.minAlignment, 8u);
}

void TestEngineCycles::singleVertex_data() {
    QTest::addColumn<bool>("isHalf");
    QTest::addColumn<int>("n");
    QTest::addColumn<qulonglong>("threadCycles");
    // Add: 14 + ceil(n * 0.5) for float, 14 + ceil(n * 0.25) for half.
    QTest::newRow("float n=1") << false << 1 << qulonglong(14 + 1);
    QTest::newRow("float n=10") << false << 10 << qulonglong(14 + 5);
    QTest::newRow("float n=101") << false << 101 << qulonglong(14 + 51);
    QTest::newRow("half n=4") << true << 4 << qulonglong(14 + 1);
    QTest::newRow("half n=10") << true << 10 << qulonglong(14 + 3);
    QTest::newRow("half n=101") << true << 101 << qulonglong(14 + 26);
}

void TestEngineCycles::singleVertex() {
    QFETCH(bool, isHalf);
    QFETCH(int, n);
    QFETCH(qulonglong, threadCycles);
    Graph g(smallTarget());
    const Type type = isHalf ? Type::Half : Type::Float;
    const auto un = static_cast<std::size_t>(n);
    Tensor a = g.addVariable(type, {un}, "a");
    Tensor b = g.addVariable(type, {un}, "b");
    Tensor out = g.addVariable(type, {un}, "out");
    for (const Tensor& t : {a, b, out}) {
        g.setTileMapping(t, TileId{2u});
    }
    const ComputeSet cs = g.addComputeSet("add");
    g.setTileMapping(g.addVertex(cs, isHalf ? "Add<half>" : "Add<float>",
                                 {{"in1", a}, {"in2", b}, {"out", out}}),
                     TileId{2u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    engine.run();
    const std::uint64_t tileCycles = 6 * threadCycles;
    const auto& step = rec.compiled.programSteps.at(0);
    QCOMPARE(step.computeCycles, (std::vector<std::uint32_t>{0, 0, std::uint32_t(tileCycles), 0}));
    QCOMPARE(step.exchangeCycles, (std::vector<std::uint32_t>{0, 0, 0, 0}));
    QCOMPARE(step.computePhaseCycles, tileCycles);
    QCOMPARE(step.exchangePhaseCycles, std::uint64_t{0});
    QCOMPARE(step.syncCycles, kSync);
    QCOMPARE(step.totalCycles, kSync + tileCycles);
    QCOMPARE(step.flops, std::uint64_t(n));
    QCOMPARE(step.vertices, std::uint64_t{1});
    QCOMPARE(rec.steps.size(), std::size_t{1});
    QCOMPARE(rec.steps[0].cycles, kSync + tileCycles);
    QCOMPARE(rec.runEnds.at(0).cycles, kSync + tileCycles);
    QCOMPARE(rec.runEnds[0].computeCycles, tileCycles);
    QCOMPARE(rec.runEnds[0].syncCycles, kSync);
    QCOMPARE(rec.runEnds[0].exchangeCycles, std::uint64_t{0});
    QCOMPARE(engine.cyclesSoFar(), kSync + tileCycles);
}

void TestEngineCycles::listScheduling_data() {
    QTest::addColumn<QList<int>>("sizes");
    QTest::addColumn<qulonglong>("makespan");
    // Add<float> thread cycles 14 + ceil(n / 2); each vertex, in order, goes
    // to the worker that frees up first.
    // 7 x 19 on 6 workers: the seventh waits for the first to finish.
    QTest::newRow("7 equal") << QList<int>{10, 10, 10, 10, 10, 10, 10} << qulonglong(19 + 19);
    // 24,15,16,17,18,19 start at once; the 7th (20) follows the 15: 35.
    QTest::newRow("7 mixed") << QList<int>{20, 2, 4, 6, 8, 10, 12} << qulonglong(15 + 20);
    // Six fit side by side: the longest decides.
    QTest::newRow("6 mixed") << QList<int>{2, 4, 6, 8, 10, 12} << qulonglong(20);
    // 13 x 15: one worker runs three.
    QTest::newRow("13 equal") << QList<int>(13, 2) << qulonglong(3 * 15);
    // 34 then seven 15s: the extra two follow 15s (30), the 34 decides.
    QTest::newRow("long first") << QList<int>{40, 2, 2, 2, 2, 2, 2, 2} << qulonglong(34);
    QTest::newRow("one") << QList<int>{8} << qulonglong(18);
}

void TestEngineCycles::listScheduling() {
    QFETCH(QList<int>, sizes);
    QFETCH(qulonglong, makespan);
    Graph g(smallTarget());
    std::size_t total = 0;
    for (int s : sizes) {
        total += static_cast<std::size_t>(s);
    }
    Tensor a = g.addVariable(Type::Float, {total}, "a");
    Tensor out = g.addVariable(Type::Float, {total}, "out");
    Tensor small = g.addVariable(Type::Float, {4}, "small");
    g.setTileMapping(a, TileId{1u});
    g.setTileMapping(out, TileId{1u});
    g.setTileMapping(small, TileId{3u});
    const ComputeSet cs = g.addComputeSet("many");
    std::size_t at = 0;
    for (int s : sizes) {
        const Tensor in = a.slice(at, at + static_cast<std::size_t>(s));
        const Tensor o = out.slice(at, at + static_cast<std::size_t>(s));
        g.setTileMapping(g.addVertex(cs, "Add<float>", {{"in1", in}, {"in2", in}, {"out", o}}),
                         TileId{1u});
        at += static_cast<std::size_t>(s);
    }
    // A second tile with one Exp of 4 elements: 12 + 4 x 3 = 24 thread cycles.
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", small}, {"out", small}}), TileId{3u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& step = rec.compiled.programSteps.at(0);
    QCOMPARE(step.computeCycles[1], std::uint32_t(6 * makespan));
    QCOMPARE(step.computeCycles[3], std::uint32_t(6 * 24));
    QCOMPARE(step.computePhaseCycles, std::max<std::uint64_t>(6 * makespan, 6 * 24));
    QCOMPARE(step.totalCycles, kSync + std::max<std::uint64_t>(6 * makespan, 6 * 24));
}

void TestEngineCycles::exchangeForRemoteOperands_data() {
    QTest::addColumn<bool>("isHalf");
    QTest::addColumn<qulonglong>("bytes");        // one operand's bytes
    QTest::addColumn<qulonglong>("threadCycles"); // the Add vertex
    QTest::newRow("float n=10") << false << qulonglong(40) << qulonglong(14 + 5);
    QTest::newRow("half n=10") << true << qulonglong(20) << qulonglong(14 + 3);
    QTest::newRow("half n=5 (odd bytes)") << true << qulonglong(10) << qulonglong(14 + 2);
}

void TestEngineCycles::exchangeForRemoteOperands() {
    QFETCH(bool, isHalf);
    QFETCH(qulonglong, bytes);
    QFETCH(qulonglong, threadCycles);
    const Type type = isHalf ? Type::Half : Type::Float;
    const std::size_t n = bytes / (isHalf ? 2 : 4);
    Graph g(smallTarget());
    Tensor in1 = g.addVariable(type, {n}, "in1");
    Tensor in2 = g.addVariable(type, {n}, "in2");
    Tensor out = g.addVariable(type, {n}, "out");
    g.setTileMapping(in1, TileId{0u});
    g.setTileMapping(in2, TileId{3u});
    g.setTileMapping(out, TileId{2u});
    const ComputeSet cs = g.addComputeSet("remote");
    // The vertex on tile 1: both inputs come in, the output goes out.
    g.setTileMapping(g.addVertex(cs, isHalf ? "Add<half>" : "Add<float>",
                                 {{"in1", in1}, {"in2", in2}, {"out", out}}),
                     TileId{1u});
    g.createHostRead("out", out);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& step = rec.compiled.programSteps.at(0);
    const std::uint64_t b = bytes;
    auto cycles = [](std::uint64_t received, std::uint64_t sent) { // latency + ceil(max / 4)
        return kLatency + (std::max(received, sent) + 3) / 4;
    };
    QCOMPARE(step.bytesIn,
             (std::vector<std::uint32_t>{0, std::uint32_t(2 * b), std::uint32_t(b), 0}));
    QCOMPARE(step.bytesOut,
             (std::vector<std::uint32_t>{std::uint32_t(b), std::uint32_t(b), 0, std::uint32_t(b)}));
    QCOMPARE(step.exchangeCycles[0], std::uint32_t(cycles(0, b)));
    QCOMPARE(step.exchangeCycles[1], std::uint32_t(cycles(2 * b, b)));
    QCOMPARE(step.exchangeCycles[2], std::uint32_t(cycles(b, 0)));
    QCOMPARE(step.exchangeCycles[3], std::uint32_t(cycles(0, b)));
    if (bytes == 40) { // spelt out once: 30 + 80 / 4
        QCOMPARE(step.exchangeCycles[1], 50u);
    }
    if (bytes == 10) { // 30 + ceil(20 / 4) on tile 1; 30 + ceil(10 / 4) elsewhere
        QCOMPARE(step.exchangeCycles[1], 35u);
        QCOMPARE(step.exchangeCycles[0], 33u);
    }
    QCOMPARE(step.exchangePhaseCycles, cycles(2 * b, b));
    QCOMPARE(step.computeCycles[1], std::uint32_t(6 * threadCycles));
    // Step = sync + slowest exchange + slowest compute.
    QCOMPARE(step.totalCycles, kSync + cycles(2 * b, b) + 6 * threadCycles);
    engine.run();
    QCOMPARE(rec.runEnds.at(0).exchangeCycles, cycles(2 * b, b));
}

void TestEngineCycles::remoteInOutMovesBothWays() {
    Graph g(smallTarget());
    Tensor data = g.addVariable(Type::Float, {6}, "data");
    Tensor deltas = g.addVariable(Type::Float, {6}, "deltas");
    g.setTileMapping(data, TileId{0u});
    g.setTileMapping(deltas, TileId{2u});
    const ComputeSet cs = g.addComputeSet("sgd");
    g.setTileMapping(g.addVertex(cs, "ScaledAdd<float>", {{"data", data}, {"deltas", deltas}}),
                     TileId{2u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& step = rec.compiled.programSteps.at(0);
    // data (24 bytes) comes in to tile 2 and goes back to tile 0.
    QCOMPARE(step.bytesIn, (std::vector<std::uint32_t>{24, 0, 24, 0}));
    QCOMPARE(step.bytesOut, (std::vector<std::uint32_t>{24, 0, 24, 0}));
    QCOMPARE(step.exchangeCycles[0], std::uint32_t(30 + 24 / 4));
    QCOMPARE(step.exchangeCycles[2], std::uint32_t(30 + 24 / 4));
    // ScaledAdd: 14 + ceil(6 / 2) = 17 thread cycles.
    QCOMPARE(step.computeCycles[2], std::uint32_t(6 * 17));
    QCOMPARE(step.totalCycles, std::uint64_t(150 + 36 + 102));
}

// Tile 0's 100 floats read by vertices on tiles 1, 2 and 3 in one step: the
// exchange is time-scheduled, so tile 0 sends the 400 bytes once and each
// receiver takes them in; half of them also go to tile 1 a second time (the
// same bytes: still sent once).
void TestEngineCycles::broadcastIsSentOnce() {
    Graph g(smallTarget());
    Tensor x = g.addVariable(Type::Float, {100}, "x");
    g.setTileMapping(x, TileId{0u});
    const ComputeSet cs = g.addComputeSet("broadcast");
    for (std::uint32_t t = 1; t < 4; ++t) {
        Tensor out = g.addVariable(Type::Float, {100}, "out" + std::to_string(t));
        g.setTileMapping(out, record::idAt<TileId>(t));
        g.setTileMapping(g.addVertex(cs, "Neg<float>", {{"in", x}, {"out", out}}),
                         record::idAt<TileId>(t));
    }
    Tensor half = g.addVariable(Type::Float, {50}, "half");
    g.setTileMapping(half, TileId{1u});
    g.setTileMapping(g.addVertex(cs, "Neg<float>", {{"in", x.slice(25, 75)}, {"out", half}}),
                     TileId{1u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& step = rec.compiled.programSteps.at(0);
    QCOMPARE(step.bytesOut, (std::vector<std::uint32_t>{400, 0, 0, 0}));
    QCOMPARE(step.bytesIn, (std::vector<std::uint32_t>{0, 600, 400, 400}));
    QCOMPARE(step.exchangeCycles[0], std::uint32_t(kLatency + 400 / 4));
    QCOMPARE(step.exchangeCycles[1], std::uint32_t(kLatency + 600 / 4));
    QCOMPARE(step.exchangeCycles[2], std::uint32_t(kLatency + 400 / 4));
    QCOMPARE(step.exchangePhaseCycles, kLatency + 600 / 4);
}

// x (tile 0) and y (tile 2) read in pieces out of order by tiles 1 and 3:
// each sender's bytes out are the union of its ranges, per variable, x's two
// apart ([0, 10) and [30, 40): 80 bytes), y's overlapping ([0, 15) and
// [10, 20): 80 bytes). With unused variables besides (more blocks than
// ranges), the union orders the ranges another way; the figures are the same.
void TestEngineCycles::sentRangesAreUnitedPerSourceBlock_data() {
    QTest::addColumn<int>("unusedVariables");
    QTest::newRow("few blocks") << 0;
    QTest::newRow("many blocks") << 64;
}

void TestEngineCycles::sentRangesAreUnitedPerSourceBlock() {
    QFETCH(int, unusedVariables);
    Graph g(smallTarget());
    for (int i = 0; i < unusedVariables; ++i) {
        g.setTileMapping(g.addVariable(Type::Float, {1}, "unused" + std::to_string(i)), TileId{0u});
    }
    Tensor x = g.addVariable(Type::Float, {40}, "x");
    Tensor y = g.addVariable(Type::Float, {20}, "y");
    g.setTileMapping(x, TileId{0u});
    g.setTileMapping(y, TileId{2u});
    const ComputeSet cs = g.addComputeSet("pieces");
    auto negate = [&](const Tensor& in, std::uint32_t t) {
        const TileId tile{t};
        Tensor out = g.addVariable(Type::Float, {in.numElements()}, "out");
        g.setTileMapping(out, tile);
        g.setTileMapping(g.addVertex(cs, "Neg<float>", {{"in", in}, {"out", out}}), tile);
    };
    negate(y.slice(10, 20), 1);
    negate(x.slice(30, 40), 1);
    negate(x.slice(0, 10), 3);
    negate(y.slice(0, 15), 3);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& step = rec.compiled.programSteps.at(0);
    QCOMPARE(step.bytesOut, (std::vector<std::uint32_t>{80, 0, 80, 0}));
    QCOMPARE(step.bytesIn, (std::vector<std::uint32_t>{0, 80, 0, 100}));
}

void TestEngineCycles::onTileCopiesUseTheLocalRate() {
    Graph g(smallTarget());
    Tensor x = g.addVariable(Type::Float, {2, 3}, "x");
    Tensor y = g.addVariable(Type::Float, {6}, "y");
    g.setTileMapping(x, TileId{0u});
    g.setTileMapping(y, TileId{0u});
    const ComputeSet cs = g.addComputeSet("exp");
    // The transpose of x is six 4-byte pieces on tile 0: gathered on the tile.
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", x.transpose().flatten()}, {"out", y}}),
                     TileId{0u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& step = rec.compiled.programSteps.at(0);
    QCOMPARE(step.exchangeCycles[0], std::uint32_t(30 + 24 / 8));
    QCOMPARE(step.bytesIn[0], 0u); // nothing crosses tiles
    QCOMPARE(step.bytesOut[0], 0u);
    // Exp: 12 + 6 x 3 = 30 thread cycles.
    QCOMPARE(step.computeCycles[0], std::uint32_t(6 * 30));
    QCOMPARE(step.totalCycles, std::uint64_t(150 + 33 + 180));
}

void TestEngineCycles::copySteps() {
    Graph g(smallTarget());
    Tensor src = g.addVariable(Type::Float, {12}, "src");
    Tensor far = g.addVariable(Type::Float, {12}, "far");
    Tensor near = g.addVariable(Type::Float, {12}, "near");
    Tensor split = g.addVariable(Type::Float, {12}, "split");
    g.setTileMapping(src, TileId{0u});
    g.setTileMapping(far, TileId{1u});
    g.setTileMapping(near, TileId{0u});
    g.setTileMapping(split.slice(0, 4), TileId{0u});
    g.setTileMapping(split.slice(4, 12), TileId{3u});
    record::InMemoryRecorder rec;
    Engine engine(
        g, prog::Sequence({prog::Copy(src, far), prog::Copy(src, near), prog::Copy(src, split)}),
        withRecorder(&rec));
    const auto& steps = rec.compiled.programSteps;
    // Tile to tile: 48 bytes at 4 B/cycle on both ends.
    QCOMPARE(steps[0].exchangeCycles, (std::vector<std::uint32_t>{30 + 12, 30 + 12, 0, 0}));
    QCOMPARE(steps[0].totalCycles, std::uint64_t(150 + 42));
    QCOMPARE(steps[0].computePhaseCycles, std::uint64_t{0});
    // On one tile: 48 bytes at 8 B/cycle.
    QCOMPARE(steps[1].exchangeCycles, (std::vector<std::uint32_t>{30 + 6, 0, 0, 0}));
    QCOMPARE(steps[1].totalCycles, std::uint64_t(150 + 36));
    QCOMPARE(steps[1].bytesOut[0], 0u);
    // Split: tile 0 sends 32 bytes and copies 16 locally; tile 3 receives 32.
    QCOMPARE(steps[2].exchangeCycles,
             (std::vector<std::uint32_t>{30 + 32 / 4 + 16 / 8, 0, 0, 30 + 32 / 4}));
    QCOMPARE(steps[2].totalCycles, std::uint64_t(150 + 40));
    engine.run();
    QCOMPARE(rec.runEnds.at(0).cycles, std::uint64_t(192 + 186 + 190));
}

void TestEngineCycles::hostSteps() {
    Graph g(smallTarget());
    Tensor x = g.addVariable(Type::Float, {10}, "x");
    g.setTileMapping(x.slice(0, 3), TileId{1u});
    g.setTileMapping(x.slice(3, 10), TileId{2u});
    const DataStream in = g.addHostToDeviceFIFO("in", Type::Float, 10);
    const DataStream out = g.addDeviceToHostFIFO("out", Type::Float, 10);
    record::InMemoryRecorder rec;
    std::ostringstream printed;
    EngineOptions o = withRecorder(&rec);
    o.printStream = &printed;
    Engine engine(
        g, prog::Sequence({prog::Copy(in, x), prog::Copy(x, out), prog::PrintTensor("x", x)}), o);
    const auto& steps = rec.compiled.programSteps;
    // 12 bytes on tile 1, 28 on tile 2: the IPU's host link carries 40 bytes
    // at 8 B/cycle, and both tiles wait for it after the latency; host sync.
    for (std::size_t s = 0; s < 3; ++s) {
        QCOMPARE(steps[s].exchangeCycles, (std::vector<std::uint32_t>{0, 30 + 5, 30 + 5, 0}));
        QCOMPARE(steps[s].syncCycles, std::uint64_t{3000});
        QCOMPARE(steps[s].totalCycles, std::uint64_t(3000 + 35));
    }
    QCOMPARE(steps[0].bytesIn, (std::vector<std::uint32_t>{0, 12, 28, 0}));
    QCOMPARE(steps[0].bytesOut, (std::vector<std::uint32_t>{0, 0, 0, 0}));
    QCOMPARE(steps[1].bytesOut, (std::vector<std::uint32_t>{0, 12, 28, 0}));
    QCOMPARE(steps[1].bytesIn, (std::vector<std::uint32_t>{0, 0, 0, 0}));
}

void TestEngineCycles::predicateStep() {
    Graph g(smallTarget());
    Tensor flag = g.addVariable(Type::Bool, {}, "flag");
    g.setTileMapping(flag, TileId{1u});
    const ComputeSet empty = g.addComputeSet("nothing");
    record::InMemoryRecorder rec;
    Engine engine(g, prog::If(flag, prog::Execute(empty)), withRecorder(&rec));
    const auto& steps = rec.compiled.programSteps;
    QCOMPARE(steps.size(), std::size_t{2});
    QCOMPARE(steps[0].kind, record::ProgramKind::Predicate);
    // One byte read from tile 1: 30 + ceil(1 / 8); an ordinary sync.
    QCOMPARE(steps[0].exchangeCycles[1], 31u);
    QCOMPARE(steps[0].totalCycles, std::uint64_t(150 + 31));
    QCOMPARE(steps[1].totalCycles, std::uint64_t{150});
    engine.run(); // flag is 0: only the predicate runs
    QCOMPARE(rec.runEnds.at(0).cycles, std::uint64_t{181});
    engine.writeValues(flag, std::vector<double>{1});
    engine.run();
    QCOMPARE(rec.runEnds.at(1).cycles, std::uint64_t(181 + 150));
}

void TestEngineCycles::syncPerStep() {
    Graph g(smallTarget());
    const ComputeSet a = g.addComputeSet("a");
    const ComputeSet b = g.addComputeSet("b");
    record::InMemoryRecorder rec;
    Engine engine(g,
                  prog::Sequence({prog::Execute(a), prog::Sync(), prog::Execute(b),
                                  prog::Repeat(3, prog::Execute(a, "again"))}),
                  withRecorder(&rec));
    QCOMPARE(rec.compiled.programSteps.size(), std::size_t{4});
    for (const auto& s : rec.compiled.programSteps) {
        QCOMPARE(s.totalCycles, kSync);
        QCOMPARE(s.syncCycles, kSync);
    }
    engine.run();
    QCOMPARE(rec.steps.size(), std::size_t{6});
    for (std::size_t i = 0; i < 6; ++i) {
        QCOMPARE(rec.steps[i].startCycle, i * kSync);
        QCOMPARE(rec.steps[i].cycles, kSync);
    }
    QCOMPARE(rec.runEnds.at(0).cycles, 6 * kSync);
    QCOMPARE(rec.runEnds[0].syncCycles, 6 * kSync);
    QCOMPARE(rec.runEnds[0].steps, std::uint64_t{6});
}

void TestEngineCycles::multiIpu() {
    Target t = smallTarget();
    t.set("numIPUs", "2"); // tiles 0-3 on IPU 0, 4-7 on IPU 1
    Graph g(t);
    Tensor remote = g.addVariable(Type::Float, {10}, "remote");
    Tensor local = g.addVariable(Type::Float, {10}, "local");
    Tensor out = g.addVariable(Type::Float, {10}, "out");
    Tensor other = g.addVariable(Type::Float, {10}, "other");
    Tensor remote2 = g.addVariable(Type::Float, {10}, "remote2");
    Tensor out2 = g.addVariable(Type::Float, {10}, "out2");
    g.setTileMapping(remote2, TileId{2u});
    g.setTileMapping(out2, TileId{6u});
    g.setTileMapping(remote, TileId{1u});
    g.setTileMapping(local, TileId{5u});
    g.setTileMapping(out, TileId{5u});
    g.setTileMapping(other, TileId{2u});
    const ComputeSet across = g.addComputeSet("across");
    g.setTileMapping(
        g.addVertex(across, "Add<float>", {{"in1", remote}, {"in2", local}, {"out", out}}),
        TileId{5u});
    g.setTileMapping(
        g.addVertex(across, "Add<float>", {{"in1", remote2}, {"in2", out2}, {"out", out2}}),
        TileId{6u});
    const ComputeSet apart = g.addComputeSet("apart");
    g.setTileMapping(g.addVertex(apart, "Exp<float>", {{"in", other}, {"out", other}}), TileId{2u});
    g.setTileMapping(g.addVertex(apart, "Exp<float>", {{"in", local}, {"out", local}}), TileId{5u});
    const ComputeSet within = g.addComputeSet("within");
    g.setTileMapping(g.addVertex(within, "Exp<float>", {{"in", other}, {"out", other}}),
                     TileId{2u});
    record::InMemoryRecorder rec;
    Engine engine(g,
                  prog::Sequence({prog::Execute(across), prog::Execute(apart),
                                  prog::Execute(within), prog::Sync()}),
                  withRecorder(&rec));
    const auto& steps = rec.compiled.programSteps;
    // Two 40-byte transfers from IPU 0 (tiles 1, 2) to IPU 1 (tiles 5, 6)
    // share the IPUs' links: 500 + ceil(80 / 32) on all four; a global sync.
    QCOMPARE(steps[0].exchangeCycles, (std::vector<std::uint32_t>{0, 503, 503, 0, 0, 503, 503, 0}));
    QCOMPARE(steps[0].bytesIn[5], 40u);
    QCOMPARE(steps[0].bytesOut[2], 40u);
    QVERIFY(steps[0].crossesIpus);
    QCOMPARE(steps[0].syncCycles, std::uint64_t{1500});
    QCOMPARE(steps[0].totalCycles, std::uint64_t(1500 + 503 + 6 * 19));
    // Tiles on both IPUs but nothing exchanged: still a global sync.
    QCOMPARE(steps[1].syncCycles, std::uint64_t{1500});
    QCOMPARE(steps[1].exchangePhaseCycles, std::uint64_t{0});
    QCOMPARE(steps[1].totalCycles, std::uint64_t(1500 + 6 * (12 + 30)));
    // One IPU only: the IPU's sync.
    QCOMPARE(steps[2].syncCycles, std::uint64_t{150});
    QVERIFY(!steps[2].crossesIpus);
    // An explicit Sync on a multi-IPU target is global.
    QCOMPARE(steps[3].totalCycles, std::uint64_t{1500});
}

// Sync and cycle stamps with a scope: internal, external (all IPUs) and
// global (with the host) each cost their own parameter, distinct values here
// so a mix-up shows; unscoped Sync is internal on one IPU, external on two.
void TestEngineCycles::syncScopes_data() {
    QTest::addColumn<int>("ipus");
    QTest::addColumn<qulonglong>("unscoped");
    QTest::newRow("1 IPU") << 1 << qulonglong{111};
    QTest::newRow("2 IPUs") << 2 << qulonglong{2222};
}

void TestEngineCycles::syncScopes() {
    QFETCH(int, ipus);
    QFETCH(qulonglong, unscoped);
    Target t = smallTarget();
    t.set("numIPUs", std::to_string(ipus));
    t.set("ipuSyncCycles", "111");
    t.set("globalSyncCycles", "2222");
    t.set("hostSyncCycles", "33333");
    Graph g(t);
    Tensor stamp = g.addVariable(Type::UnsignedInt, {2}, "stamp");
    g.setTileMapping(stamp, TileId{0u});
    using prog::SyncScope;
    prog::CycleStamp globalStamp(stamp);
    globalStamp.node()->syncScope = SyncScope::Global;
    record::InMemoryRecorder rec;
    Engine engine(g,
                  prog::Sequence({prog::Sync(), prog::Sync(SyncScope::Internal),
                                  prog::Sync(SyncScope::External), prog::Sync(SyncScope::Global),
                                  prog::CycleStamp(stamp), globalStamp}),
                  withRecorder(&rec));
    const auto& steps = rec.compiled.programSteps;
    QCOMPARE(steps.size(), std::size_t{6});
    const std::uint64_t want[] = {std::uint64_t(unscoped), 111, 2222, 33333, 111, 33333};
    for (std::size_t i = 0; i < 6; ++i) {
        QCOMPARE(steps[i].syncCycles, want[i]);
        QCOMPARE(steps[i].totalCycles, want[i]);
    }
    engine.run();
    QCOMPARE(rec.runEnds.at(0).cycles, std::uint64_t(unscoped + 111 + 2222 + 33333 + 111 + 33333));
}

void TestEngineCycles::perfEstimateOverrides() {
    auto build = [](Graph& g, bool registerEstimator, bool setEstimate) {
        Tensor a = g.addVariable(Type::Float, {30}, "a");
        Tensor e = g.addVariable(Type::Float, {10}, "e");
        g.setTileMapping(a, TileId{0u});
        g.setTileMapping(e, TileId{1u});
        const ComputeSet cs = g.addComputeSet("cs");
        std::vector<VertexRef> adds;
        for (std::size_t i = 0; i < 3; ++i) {
            const Tensor s = a.slice(10 * i, 10 * i + 10);
            adds.push_back(g.addVertex(cs, "Add<float>", {{"in1", s}, {"in2", s}, {"out", s}}));
            g.setTileMapping(adds.back(), TileId{0u});
        }
        g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", e}, {"out", e}}), TileId{1u});
        if (setEstimate) {
            g.setPerfEstimate(adds[1], 5);
        }
        if (registerEstimator) {
            g.registerPerfEstimator("Add<float>", [](const VertexIntrospector& v, const Target& t) {
                return PerfEstimate{3 * v.fieldSize("out") + t.numWorkerContexts - 6, 7};
            });
        }
        return cs;
    };
    struct Case {
        bool registered, set;
        std::uint64_t tile0, flops;
    };
    // Built-in: 14 + 10 / 2 = 19 each. setPerfEstimate: 19, 5, 19. Registered:
    // 3 x 10 = 30 each, but the vertex with its own estimate keeps 5.
    const Case cases[] = {
        {false, false, 6 * 19, 3 * 10 + 10},
        {false, true, 6 * 19, 3 * 10 + 10},
        {true, false, 6 * 30, 3 * 7 + 10},
        {true, true, 6 * 30, 3 * 7 + 10},
    };
    for (const Case& c : cases) {
        Graph g(smallTarget());
        const ComputeSet cs = build(g, c.registered, c.set);
        record::InMemoryRecorder rec;
        Engine engine(g, prog::Execute(cs), withRecorder(&rec));
        const auto& step = rec.compiled.programSteps.at(0);
        QCOMPARE(step.computeCycles[0], std::uint32_t(c.tile0));
        QCOMPARE(step.computeCycles[1], std::uint32_t(6 * (12 + 30))); // Exp is untouched
        QCOMPARE(step.flops, c.flops);
        QCOMPARE(engine.compiled().steps.at(0).vertices.size(), std::size_t{4});
        QCOMPARE(compiler::estimateVertex(g, VertexId{1u}).cycles,
                 std::uint64_t(c.set          ? 5
                               : c.registered ? 30
                                              : 19));
        QCOMPARE(compiler::estimateVertex(g, VertexId{0u}).cycles,
                 std::uint64_t(c.registered ? 30 : 19));
    }
    // Makespan where the override matters: a single vertex set to 1000.
    Graph g(smallTarget());
    const ComputeSet cs = build(g, false, false);
    g.setPerfEstimate(VertexRef{&g, VertexId{2u}}, 1000);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    QCOMPARE(rec.compiled.programSteps[0].computeCycles[0], std::uint32_t(6 * 1000));
    QCOMPARE(rec.compiled.programSteps[0].totalCycles, std::uint64_t(150 + 6000));
    // Registering on one graph leaves another graph's built-in estimate alone.
    Graph other(smallTarget());
    build(other, true, false);
    Graph plain(smallTarget());
    const ComputeSet pcs = build(plain, false, false);
    record::InMemoryRecorder prec;
    Engine pengine(plain, prog::Execute(pcs), withRecorder(&prec));
    QCOMPARE(prec.compiled.programSteps[0].computeCycles[0], std::uint32_t(6 * 19));
}

QTEST_APPLESS_MAIN(TestEngineCycles)
#include "tst_engine_cycles.moc"
