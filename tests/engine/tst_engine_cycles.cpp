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
#include "engine/codelets/Vertex.h"
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

namespace {

constexpr std::uint64_t kSync = 150;
constexpr std::uint64_t kLatency = 30;
constexpr std::uint32_t kBase = 0x4c000;
constexpr std::uint64_t kStack = 256 * 6 + 128; // 1664

Target smallTarget() {
    Target t = Target::preset("tiles:4");
    t.set("hostBytesPerCycle", "8");
    t.set("ipuLinkBytesPerCycle", "32");
    return t;
}

EngineOptions withRecorder(record::Recorder* r, unsigned threads = 1) {
    EngineOptions o;
    o.threads = threads;
    o.recorder = r;
    return o;
}

std::uint64_t category(const record::TileMemoryRecord& m, MemoryCategory c) {
    return m.bytesByCategory[static_cast<std::size_t>(c)];
}

// The memory blocks of one category on one tile, in address order.
std::vector<record::MemoryBlockRecord> blocks(const record::CompiledRecord& c, TileId tile,
                                              MemoryCategory cat) {
    std::vector<record::MemoryBlockRecord> out;
    for (const auto& b : c.memoryBlocks) {
        if (b.tile == tile && b.category == cat) {
            out.push_back(b);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.address < b.address; });
    return out;
}

// Address of the block of `cat` owned by `owner` on `tile`; 0 when absent.
std::uint32_t addressOf(const record::CompiledRecord& c, TileId tile, MemoryCategory cat,
                        std::uint32_t owner) {
    for (const auto& b : c.memoryBlocks) {
        if (b.tile == tile && b.category == cat && b.owner == owner) {
            return b.address;
        }
    }
    return 0;
}

const record::VariableRecord& variable(const record::CompiledRecord& c, const std::string& name) {
    for (const auto& v : c.variables) {
        if (v.name == name) {
            return v;
        }
    }
    throw Error("test: no variable record named " + name);
}

// A vertex with a deep stack, to see the stack grow.
class DeepStack : public Vertex {
public:
    InOut<Vector<float>> data;
    void compute() {}
};

// Every kind of state member.
class StateHeavy : public Vertex {
public:
    Input<float> a;
    Output<Vector<float>> out;
    float f = 0;
    bool flag = false;
    int k = 0;
    void compute() {}
};

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
    void onTileCopiesUseTheLocalRate();
    void copySteps();
    void hostSteps();
    void predicateStep();
    void syncPerStep();
    void multiIpu();
    void syncScopes_data();
    void syncScopes();
    void perfEstimateOverrides();

    void vertexCodeOncePerCodeletPerTile();
    void vertexStateBytes_data();
    void vertexStateBytes();
    void fullTileLayout();
    void disjointLiveRangesShareAnAddress();
    void livenessPerStep();
    void alwaysLiveClassification();
    void stackFollowsTheDeepestCodelet();
    void hostExchangeCode();
    void memoryRegions();
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
        g.setTileMapping(t, 2);
    }
    const ComputeSet cs = g.addComputeSet("add");
    g.setTileMapping(g.addVertex(cs, isHalf ? "Add<half>" : "Add<float>",
                                 {{"in1", a}, {"in2", b}, {"out", out}}),
                     2);
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
    g.setTileMapping(a, 1);
    g.setTileMapping(out, 1);
    g.setTileMapping(small, 3);
    const ComputeSet cs = g.addComputeSet("many");
    std::size_t at = 0;
    for (int s : sizes) {
        const Tensor in = a.slice(at, at + static_cast<std::size_t>(s));
        const Tensor o = out.slice(at, at + static_cast<std::size_t>(s));
        g.setTileMapping(g.addVertex(cs, "Add<float>", {{"in1", in}, {"in2", in}, {"out", o}}), 1);
        at += static_cast<std::size_t>(s);
    }
    // A second tile with one Exp of 4 elements: 12 + 4 x 3 = 24 thread cycles.
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", small}, {"out", small}}), 3);
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
    g.setTileMapping(in1, 0);
    g.setTileMapping(in2, 3);
    g.setTileMapping(out, 2);
    const ComputeSet cs = g.addComputeSet("remote");
    // The vertex on tile 1: both inputs come in, the output goes out.
    g.setTileMapping(g.addVertex(cs, isHalf ? "Add<half>" : "Add<float>",
                                 {{"in1", in1}, {"in2", in2}, {"out", out}}),
                     1);
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
    g.setTileMapping(data, 0);
    g.setTileMapping(deltas, 2);
    const ComputeSet cs = g.addComputeSet("sgd");
    g.setTileMapping(g.addVertex(cs, "ScaledAdd<float>", {{"data", data}, {"deltas", deltas}}), 2);
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
    g.setTileMapping(x, 0);
    const ComputeSet cs = g.addComputeSet("broadcast");
    for (TileId t = 1; t < 4; ++t) {
        Tensor out = g.addVariable(Type::Float, {100}, "out" + std::to_string(t));
        g.setTileMapping(out, t);
        g.setTileMapping(g.addVertex(cs, "Neg<float>", {{"in", x}, {"out", out}}), t);
    }
    Tensor half = g.addVariable(Type::Float, {50}, "half");
    g.setTileMapping(half, 1);
    g.setTileMapping(g.addVertex(cs, "Neg<float>", {{"in", x.slice(25, 75)}, {"out", half}}), 1);
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

void TestEngineCycles::onTileCopiesUseTheLocalRate() {
    Graph g(smallTarget());
    Tensor x = g.addVariable(Type::Float, {2, 3}, "x");
    Tensor y = g.addVariable(Type::Float, {6}, "y");
    g.setTileMapping(x, 0);
    g.setTileMapping(y, 0);
    const ComputeSet cs = g.addComputeSet("exp");
    // The transpose of x is six 4-byte pieces on tile 0: gathered on the tile.
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", x.transpose().flatten()}, {"out", y}}),
                     0);
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
    g.setTileMapping(src, 0);
    g.setTileMapping(far, 1);
    g.setTileMapping(near, 0);
    g.setTileMapping(split.slice(0, 4), 0);
    g.setTileMapping(split.slice(4, 12), 3);
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
    g.setTileMapping(x.slice(0, 3), 1);
    g.setTileMapping(x.slice(3, 10), 2);
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
    g.setTileMapping(flag, 1);
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
    g.setTileMapping(remote2, 2);
    g.setTileMapping(out2, 6);
    g.setTileMapping(remote, 1);
    g.setTileMapping(local, 5);
    g.setTileMapping(out, 5);
    g.setTileMapping(other, 2);
    const ComputeSet across = g.addComputeSet("across");
    g.setTileMapping(
        g.addVertex(across, "Add<float>", {{"in1", remote}, {"in2", local}, {"out", out}}), 5);
    g.setTileMapping(
        g.addVertex(across, "Add<float>", {{"in1", remote2}, {"in2", out2}, {"out", out2}}), 6);
    const ComputeSet apart = g.addComputeSet("apart");
    g.setTileMapping(g.addVertex(apart, "Exp<float>", {{"in", other}, {"out", other}}), 2);
    g.setTileMapping(g.addVertex(apart, "Exp<float>", {{"in", local}, {"out", local}}), 5);
    const ComputeSet within = g.addComputeSet("within");
    g.setTileMapping(g.addVertex(within, "Exp<float>", {{"in", other}, {"out", other}}), 2);
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
    g.setTileMapping(stamp, 0);
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
        g.setTileMapping(a, 0);
        g.setTileMapping(e, 1);
        const ComputeSet cs = g.addComputeSet("cs");
        std::vector<VertexRef> adds;
        for (std::size_t i = 0; i < 3; ++i) {
            const Tensor s = a.slice(10 * i, 10 * i + 10);
            adds.push_back(g.addVertex(cs, "Add<float>", {{"in1", s}, {"in2", s}, {"out", s}}));
            g.setTileMapping(adds.back(), 0);
        }
        g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", e}, {"out", e}}), 1);
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
        const auto& plans = engine.compiled().steps.at(0).vertices;
        QCOMPARE(plans.size(), std::size_t{4});
        QCOMPARE(plans[1].cycles, std::uint64_t(c.set ? 5 : c.registered ? 30 : 19));
        QCOMPARE(plans[0].cycles, std::uint64_t(c.registered ? 30 : 19));
    }
    // Makespan where the override matters: a single vertex set to 1000.
    Graph g(smallTarget());
    const ComputeSet cs = build(g, false, false);
    g.setPerfEstimate(VertexRef{&g, 2}, 1000);
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

void TestEngineCycles::vertexCodeOncePerCodeletPerTile() {
    Graph g(smallTarget());
    Tensor v = g.addVariable(Type::Float, {40}, "v");
    Tensor w = g.addVariable(Type::Float, {8}, "w");
    g.setTileMapping(v, 0);
    g.setTileMapping(w, 1);
    const ComputeSet cs1 = g.addComputeSet("one");
    const ComputeSet cs2 = g.addComputeSet("two");
    for (std::size_t i = 0; i < 3; ++i) {
        const Tensor s = v.slice(8 * i, 8 * i + 8);
        g.setTileMapping(g.addVertex(cs1, "Add<float>", {{"in1", s}, {"in2", s}, {"out", s}}), 0);
    }
    g.setTileMapping(
        g.addVertex(cs1, "Exp<float>", {{"in", v.slice(24, 32)}, {"out", v.slice(24, 32)}}), 0);
    g.setTileMapping(
        g.addVertex(cs2, "Add<float>",
                    {{"in1", v.slice(32, 40)}, {"in2", v.slice(32, 40)}, {"out", v.slice(32, 40)}}),
        0);
    g.setTileMapping(g.addVertex(cs2, "Add<float>", {{"in1", w}, {"in2", w}, {"out", w}}), 1);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence({prog::Execute(cs1), prog::Execute(cs2)}), withRecorder(&rec));
    const auto& mem = rec.compiled.tileMemory;
    // Add<float> code 192 and Exp<float> 160, once each per tile.
    QCOMPARE(category(mem[0], MemoryCategory::VertexCode), std::uint64_t(192 + 160));
    QCOMPARE(category(mem[1], MemoryCategory::VertexCode), std::uint64_t{192});
    QCOMPARE(category(mem[2], MemoryCategory::VertexCode), std::uint64_t{0});
    QCOMPARE(blocks(rec.compiled, 0, MemoryCategory::VertexCode).size(), std::size_t{2});
    // State: Add has three vector edges (3 x 8), Exp two (2 x 8); per vertex.
    QCOMPARE(category(mem[0], MemoryCategory::VertexInstanceState), std::uint64_t(4 * 24 + 16));
    QCOMPARE(category(mem[1], MemoryCategory::VertexInstanceState), std::uint64_t{24});
    QCOMPARE(blocks(rec.compiled, 0, MemoryCategory::VertexInstanceState).size(), std::size_t{5});
    // Per compute set, tile and codelet: counts and state bytes.
    std::uint32_t addId = 99, expId = 99;
    for (const auto& c : rec.compiled.codelets) {
        (c.name == "Add<float>" ? addId : expId) = c.id;
        QCOMPARE(c.codeBytes, c.name == "Add<float>" ? 192u : 160u);
    }
    QCOMPARE(rec.compiled.codelets.size(), std::size_t{2});
    struct Expected {
        std::uint32_t cs, tile, codelet, count;
        std::uint64_t state;
    };
    const std::vector<Expected> expected = {
        {0, 0, addId, 3, 72}, {0, 0, expId, 1, 16}, {1, 0, addId, 1, 24}, {1, 1, addId, 1, 24}};
    QCOMPARE(rec.compiled.vertexCounts.size(), expected.size());
    for (const Expected& e : expected) {
        bool found = false;
        for (const auto& vc : rec.compiled.vertexCounts) {
            if (vc.computeSet == e.cs && vc.tile == e.tile && vc.codelet == e.codelet) {
                found = true;
                QCOMPARE(vc.count, e.count);
                QCOMPARE(vc.stateBytes, e.state);
            }
        }
        QVERIFY(found);
    }
}

void TestEngineCycles::vertexStateBytes_data() {
    QTest::addColumn<QString>("codelet");
    QTest::addColumn<qulonglong>("state");
    QTest::addColumn<qulonglong>("descriptors");
    // Scalar edge 4, vector edge 8, vector list 8 + 8 per entry (descriptors),
    // each state member rounded up to 4; the total to a multiple of 4.
    QTest::newRow("Add<float>") << "Add<float>" << qulonglong(8 + 8 + 8) << qulonglong(0);
    QTest::newRow("Exp<half>") << "Exp<half>" << qulonglong(8 + 8) << qulonglong(0);
    QTest::newRow("AddScalar<float>")
        << "AddScalar<float>" << qulonglong(8 + 4 + 8) << qulonglong(0);
    QTest::newRow("Fill<float>") << "Fill<float>" << qulonglong(8 + 4) << qulonglong(0);
    QTest::newRow("ScaledAdd<float>")
        << "ScaledAdd<float>" << qulonglong(8 + 8 + 4) << qulonglong(0);
    QTest::newRow("ReduceAdd<float>") << "ReduceAdd<float>" << qulonglong(8 + 4) << qulonglong(0);
    QTest::newRow("ReducePartials x3")
        << "ReducePartials<float,float>" << qulonglong(8 + 8) << qulonglong(3 * 8);
    QTest::newRow("MatMulPartial 2 rows")
        << "MatMulPartial<float,float>" << qulonglong(8 + 8 + 8) << qulonglong(2 * 8);
    QTest::newRow("user StateHeavy")
        << "StateHeavy" << qulonglong(4 + 8 + 4 + 4 + 4) << qulonglong(0);
}

void TestEngineCycles::vertexStateBytes() {
    QFETCH(QString, codelet);
    QFETCH(qulonglong, state);
    QFETCH(qulonglong, descriptors);
    Graph g(smallTarget());
    g.addCodelet(CodeletBuilder<StateHeavy>("StateHeavy")
                     .field("a", &StateHeavy::a)
                     .field("out", &StateHeavy::out)
                     .state("f", &StateHeavy::f)
                     .state("flag", &StateHeavy::flag)
                     .state("k", &StateHeavy::k)
                     .build());
    const bool isHalf = codelet.contains("half");
    const Type type = isHalf ? Type::Half : Type::Float;
    Tensor v = g.addVariable(type, {4}, "v");
    Tensor w = g.addVariable(type, {4}, "w");
    Tensor s = g.addVariable(type, {}, "s");
    Tensor m = g.addVariable(type, {3, 4}, "m");
    for (const Tensor& t : {v, w, s, m}) {
        g.setTileMapping(t, 1);
    }
    const ComputeSet cs = g.addComputeSet("cs");
    const std::string name = codelet.toStdString();
    VertexRef vx;
    if (name == "Add<float>") {
        vx = g.addVertex(cs, name, {{"in1", v}, {"in2", v}, {"out", w}});
    } else if (name == "Exp<half>") {
        vx = g.addVertex(cs, name, {{"in", v}, {"out", w}});
    } else if (name == "AddScalar<float>") {
        vx = g.addVertex(cs, name, {{"in", v}, {"scalar", s}, {"out", w}});
    } else if (name == "Fill<float>") {
        vx = g.addVertex(cs, name, {{"out", w}});
    } else if (name == "ScaledAdd<float>") {
        vx = g.addVertex(cs, name, {{"data", w}, {"deltas", v}});
    } else if (name == "ReduceAdd<float>") {
        vx = g.addVertex(cs, name, {{"in", v}, {"out", s}});
    } else if (name == "ReducePartials<float,float>") {
        vx = g.addVertex(cs, name, {{"out", w}});
        g.connect(vx["partials"], std::vector<Tensor>{m[0], m[1], m[2]});
    } else if (name == "MatMulPartial<float,float>") {
        vx = g.addVertex(
            cs, name,
            {{"a", m.slice(0, 2).flatten()}, {"b", m.flatten().slice(4, 12)}}); // k = 4, cols = 2
        g.connect(vx["out"], std::vector<Tensor>{v.slice(0, 2), v.slice(2, 4)});
    } else {
        vx = g.addVertex(cs, name, {{"a", s}, {"out", w}});
    }
    g.setTileMapping(vx, 1);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& mem = rec.compiled.tileMemory[1];
    QCOMPARE(category(mem, MemoryCategory::VertexInstanceState), std::uint64_t(state));
    QCOMPARE(category(mem, MemoryCategory::VectorListDescriptor), std::uint64_t(descriptors));
    const auto stateBlocks = blocks(rec.compiled, 1, MemoryCategory::VertexInstanceState);
    QCOMPARE(stateBlocks.size(), std::size_t{1});
    QCOMPARE(stateBlocks[0].owner, vx.id);
    QCOMPARE(std::uint64_t(stateBlocks[0].bytes), std::uint64_t(state));
    QCOMPARE(rec.compiled.vertexCounts.at(0).stateBytes, std::uint64_t(state + descriptors));
}

void TestEngineCycles::fullTileLayout() {
    Graph g(smallTarget());
    // Created in this order: ids 0..3.
    Tensor c = g.addConstant(Type::Float, {4}, std::vector<double>{1, 2, 3, 4}, "c");
    Tensor a = g.addVariable(Type::Float, {5}, "a"); // never used: always-live
    Tensor x = g.addVariable(Type::Float, {4}, "x"); // written at step 0, read at step 1
    Tensor y = g.addVariable(Type::Float, {4}, "y"); // written at step 1
    for (const Tensor& t : {c, a, x, y}) {
        g.setTileMapping(t, 0);
    }
    const ComputeSet fill = g.addComputeSet("fill");
    const VertexRef fv = g.addVertex(fill, "Fill<float>", {{"out", x}});
    g.setInitialValue(fv["value"], 2.5);
    g.setTileMapping(fv, 0);
    const ComputeSet add = g.addComputeSet("add");
    g.setTileMapping(g.addVertex(add, "Add<float>", {{"in1", x}, {"in2", c}, {"out", y}}), 0);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence({prog::Execute(fill), prog::Execute(add)}), withRecorder(&rec));
    engine.run();
    QCOMPARE(engine.readValues(y), (std::vector<double>{3.5, 4.5, 5.5, 6.5}));

    // Tile 0 by hand, offsets from the base:
    //   Fill<float> code 96      [0, 96)      (codelet 0: first used)
    //   Add<float> code 192      [96, 288)
    //   control 64 + 12 x 2 = 88 [288, 376)
    //   Fill state 8 + 4 = 12    [376, 388)
    //   Add state 3 x 8 = 24     [388, 412)
    //   gap 4 (data aligned to 8)
    //   constant c 16            [416, 432)
    //   always-live a 20         [432, 452)
    //   gap 4 (pool aligned to 8)
    //   pool: x [456, 472), y overlaps x's live range -> [472, 488)
    //   stack 1664               [488, 2152)
    const auto& cr = rec.compiled;
    const auto& m = cr.tileMemory[0];
    QCOMPARE(addressOf(cr, 0, MemoryCategory::VertexCode, 0), kBase + 0);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::VertexCode, 1), kBase + 96);
    QCOMPARE(blocks(cr, 0, MemoryCategory::ControlCode).at(0).address, kBase + 288);
    QCOMPARE(blocks(cr, 0, MemoryCategory::ControlCode).at(0).bytes, 88u);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::VertexInstanceState, 0), kBase + 376);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::VertexInstanceState, 1), kBase + 388);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::Constant, 0), kBase + 416);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::AlwaysLiveVariable, 1), kBase + 432);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, 2), kBase + 456);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, 3), kBase + 472);
    QCOMPARE(blocks(cr, 0, MemoryCategory::Stack).at(0).address, kBase + 488);
    QCOMPARE(blocks(cr, 0, MemoryCategory::Stack).at(0).bytes, std::uint32_t(kStack));

    QCOMPARE(category(m, MemoryCategory::VertexCode), std::uint64_t{288});
    QCOMPARE(category(m, MemoryCategory::ControlCode), std::uint64_t{88});
    QCOMPARE(category(m, MemoryCategory::VertexInstanceState), std::uint64_t{36});
    QCOMPARE(category(m, MemoryCategory::Constant), std::uint64_t{16});
    QCOMPARE(category(m, MemoryCategory::AlwaysLiveVariable), std::uint64_t{20});
    QCOMPARE(category(m, MemoryCategory::NotAlwaysLiveVariable), std::uint64_t{32});
    QCOMPARE(category(m, MemoryCategory::Stack), kStack);
    QCOMPARE(category(m, MemoryCategory::InternalExchangeCode), std::uint64_t{0});
    QCOMPARE(m.totalIncludingGaps, std::uint64_t{2152});
    QCOMPARE(m.gapBytes, std::uint64_t{8});
    QCOMPARE(m.totalExcludingGaps, std::uint64_t(288 + 88 + 36 + 16 + 20 + 32 + 1664));
    QCOMPARE(m.totalExcludingGaps, std::uint64_t{2144});
    QCOMPARE(m.alwaysLiveBytes, std::uint64_t(2144 - 32));
    QCOMPARE(m.notAlwaysLivePeakBytes, std::uint64_t{32});
    QCOMPARE(m.notAlwaysLiveSumBytes, std::uint64_t{32});
    QCOMPARE(m.bytesByRegion, (std::vector<std::uint64_t>{2152, 0}));
    QCOMPARE(m.overflowBytes, std::uint64_t{0});
    // Other tiles: control code 88, then the stack right after it.
    for (TileId t = 1; t < 4; ++t) {
        QCOMPARE(cr.tileMemory[t].totalIncludingGaps, std::uint64_t(88 + 1664));
        QCOMPARE(cr.tileMemory[t].gapBytes, std::uint64_t{0});
    }
    QCOMPARE(cr.totalMemoryBytes, std::uint64_t(2152 + 3 * 1752));
    // Variable records.
    QVERIFY(variable(cr, "c").alwaysLive && variable(cr, "c").isConstant);
    QVERIFY(variable(cr, "a").alwaysLive);
    QVERIFY(!variable(cr, "x").alwaysLive);
    QCOMPARE(variable(cr, "x").firstStep, 0u);
    QCOMPARE(variable(cr, "x").lastStep, 1u);
    QCOMPARE(variable(cr, "y").firstStep, 1u);
    QCOMPARE(variable(cr, "y").lastStep, 1u);
    QCOMPARE(variable(cr, "a").bytesByTile,
             (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{0, 20}}));
}

void TestEngineCycles::disjointLiveRangesShareAnAddress() {
    Graph g(smallTarget());
    Tensor t1 = g.addVariable(Type::Float, {8}, "t1"); // 32 bytes, steps 0-1
    Tensor r1 = g.addVariable(Type::Float, {8}, "r1"); // 32 bytes, step 1
    Tensor t2 = g.addVariable(Type::Float, {6}, "t2"); // 24 bytes, steps 2-3
    Tensor r2 = g.addVariable(Type::Float, {6}, "r2"); // 24 bytes, step 3
    for (const Tensor& t : {t1, r1, t2, r2}) {
        g.setTileMapping(t, 2);
    }
    std::vector<prog::Program> steps;
    for (const auto& [from, to, value] : {std::tuple{t1, r1, 1.0}, std::tuple{t2, r2, 2.0}}) {
        const ComputeSet f = g.addComputeSet();
        const VertexRef fv = g.addVertex(f, "Fill<float>", {{"out", from}});
        g.setInitialValue(fv["value"], value);
        g.setTileMapping(fv, 2);
        const ComputeSet e = g.addComputeSet();
        g.setTileMapping(g.addVertex(e, "Exp<float>", {{"in", from}, {"out", to}}), 2);
        steps.push_back(prog::Execute(f));
        steps.push_back(prog::Execute(e));
    }
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence(steps), withRecorder(&rec));
    const auto& cr = rec.compiled;
    // Largest first, first fit among blocks live at the same time:
    //   t1 [0, 32); r1 overlaps t1 -> [32, 64); t2 is free of both -> [0, 24);
    //   r2 overlaps t2 only -> [24, 48). Pool 64 bytes, not 32 + 32 + 24 + 24.
    const std::uint32_t pool = addressOf(cr, 2, MemoryCategory::NotAlwaysLiveVariable, 0);
    QVERIFY(pool != 0);
    QCOMPARE(addressOf(cr, 2, MemoryCategory::NotAlwaysLiveVariable, 2), pool);
    QCOMPARE(addressOf(cr, 2, MemoryCategory::NotAlwaysLiveVariable, 1), pool + 32);
    QCOMPARE(addressOf(cr, 2, MemoryCategory::NotAlwaysLiveVariable, 3), pool + 24);
    const auto& m = cr.tileMemory[2];
    QCOMPARE(m.notAlwaysLivePeakBytes, std::uint64_t{64});
    QCOMPARE(m.notAlwaysLiveSumBytes, std::uint64_t(32 + 32 + 24 + 24));
    QVERIFY(m.notAlwaysLivePeakBytes < m.notAlwaysLiveSumBytes);
    QCOMPARE(category(m, MemoryCategory::NotAlwaysLiveVariable), std::uint64_t{64});
    // The blocks sharing addresses are never live at the same step.
    QCOMPARE(variable(cr, "t1").lastStep, 1u);
    QCOMPARE(variable(cr, "t2").firstStep, 2u);
    // And the program computes right through the shared memory: t2 now
    // holds its own values where t1 was, r2 = exp(t2).
    engine.run();
    QCOMPARE(engine.readValues(t2), std::vector<double>(6, 2.0));
    QCOMPARE(engine.read<float>(r2), std::vector<float>(6, std::exp(2.0f)));
}

void TestEngineCycles::livenessPerStep() {
    Graph g(smallTarget());
    Tensor a = g.addVariable(Type::Float, {4}, "a"); // id 0
    Tensor b = g.addVariable(Type::Float, {4}, "b"); // id 1
    Tensor s = g.addVariable(Type::Float, {}, "s");  // id 2
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 0);
    g.setTileMapping(s, 1);
    const ComputeSet c0 = g.addComputeSet("fill a");
    g.setTileMapping(g.addVertex(c0, "Fill<float>", {{"out", a}}), 0);
    const ComputeSet c1 = g.addComputeSet("b = a + a");
    g.setTileMapping(g.addVertex(c1, "Add<float>", {{"in1", a}, {"in2", a}, {"out", b}}), 0);
    const ComputeSet c2 = g.addComputeSet("s = sum b");
    // s lives on tile 1: the vertex writes a 4-byte exchange buffer on tile 0.
    g.setTileMapping(g.addVertex(c2, "ReduceAdd<float>", {{"in", b}, {"out", s}}), 0);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence({prog::Execute(c0), prog::Execute(c1), prog::Execute(c2)}),
                  withRecorder(&rec));
    const auto& cr = rec.compiled;
    const std::uint32_t buffer = 3 + 2; // pseudo-variable id: variables + step
    using U = std::vector<std::uint32_t>;
    // a [0,1], b [1,2], s [2,2], the buffer [2,2].
    QCOMPARE(cr.programSteps[0].notAlwaysLiveBytes, (U{16, 0, 0, 0}));
    QCOMPARE(cr.programSteps[1].notAlwaysLiveBytes, (U{16 + 16, 0, 0, 0}));
    QCOMPARE(cr.programSteps[2].notAlwaysLiveBytes, (U{16 + 4, 4, 0, 0}));
    QCOMPARE(cr.programSteps[0].liveVariables, (U{0}));
    QCOMPARE(cr.programSteps[1].liveVariables, (U{0, 1}));
    QCOMPARE(cr.programSteps[2].liveVariables, (U{1, 2, buffer}));
    const auto& buf = variable(cr, "exchange buffer: s = sum b");
    QVERIFY(buf.isExchangeBuffer);
    QCOMPARE(buf.id, buffer);
    QCOMPARE(buf.firstStep, 2u);
    QCOMPARE(buf.lastStep, 2u);
    QCOMPARE(buf.bytesByTile, (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{0, 4}}));
    // Pool on tile 0: a [0,16), b [16,32), the buffer (8 aligned) fits where a was.
    const std::uint32_t pool = addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, 0);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, 1), pool + 16);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, buffer), pool);
    QCOMPARE(cr.tileMemory[0].notAlwaysLivePeakBytes, std::uint64_t{32});
    QCOMPARE(cr.tileMemory[0].notAlwaysLiveSumBytes, std::uint64_t(16 + 16 + 8));
    QCOMPARE(cr.tileMemory[1].notAlwaysLivePeakBytes, std::uint64_t{8});
    // Exchange code for step 2 on both ends: 16 + 8 x 1 transfer.
    QCOMPARE(category(cr.tileMemory[0], MemoryCategory::InternalExchangeCode), std::uint64_t{24});
    QCOMPARE(category(cr.tileMemory[1], MemoryCategory::InternalExchangeCode), std::uint64_t{24});
    QVERIFY(addressOf(cr, 0, MemoryCategory::InternalExchangeCode, 2) != 0);
}

void TestEngineCycles::alwaysLiveClassification() {
    Graph g(smallTarget());
    const auto var = [&](const char* name) {
        Tensor t = g.addVariable(Type::Float, {2}, name);
        g.setTileMapping(t, 0);
        return t;
    };
    Tensor k = g.addConstant(Type::Float, {2}, 1.0, "k");
    g.setTileMapping(k, 0);
    Tensor h = var("h"), iv = var("iv"), rb = var("rb"), unused = var("unused"), two = var("two");
    Tensor x = var("x"), z = var("z"), w2 = var("w2"), q1 = var("q1");
    g.createHostRead("h", h);
    g.setInitialValue(iv, 5.0);
    const auto exec =
        [&](const char* name,
            const std::vector<std::pair<std::string, std::vector<std::pair<std::string, Tensor>>>>&
                vertices) {
            const ComputeSet cs = g.addComputeSet(name);
            for (const auto& [codelet, fields] : vertices) {
                g.setTileMapping(g.addVertex(cs, codelet, fields), 0);
            }
            return prog::Execute(cs);
        };
    // Program 0: step 0; a Repeat over steps 1-2; step 3. Program 1: step 4.
    const prog::Program e0 = exec("e0", {{"Fill<float>", {{"out", x}}},
                                         {"Fill<float>", {{"out", h}}},
                                         {"Fill<float>", {{"out", iv}}},
                                         {"Fill<float>", {{"out", two}}},
                                         {"Exp<float>", {{"in", rb}, {"out", q1}}}});
    const prog::Program e1 = exec("e1", {{"Exp<float>", {{"in", x}, {"out", z}}}});
    const prog::Program e2 = exec("e2", {{"Add<float>", {{"in1", z}, {"in2", k}, {"out", w2}}}});
    const prog::Program e3 = exec("e3", {{"Exp<float>", {{"in", w2}, {"out", rb}}}});
    const prog::Program e4 = exec("e4", {{"Fill<float>", {{"out", two}}}});
    record::InMemoryRecorder rec;
    Engine engine(g, {prog::Sequence({e0, prog::Repeat(2, prog::Sequence({e1, e2})), e3}), e4},
                  withRecorder(&rec));
    const auto& cr = rec.compiled;
    for (const char* name : {"k", "h", "iv", "rb", "unused", "two"}) {
        QVERIFY2(variable(cr, name).alwaysLive, name);
        QCOMPARE(variable(cr, name).firstStep, record::kNone);
    }
    struct Range {
        const char* name;
        std::uint32_t first, last;
    };
    // x: written at 0, read at 1 inside the loop [1, 2]: kept to the loop's end.
    // w2: written at 2 inside the loop, read at 3 after it: from the loop's start.
    for (const Range& r :
         {Range{"x", 0, 2}, Range{"z", 1, 2}, Range{"w2", 1, 3}, Range{"q1", 0, 0}}) {
        QVERIFY2(!variable(cr, r.name).alwaysLive, r.name);
        QCOMPARE(variable(cr, r.name).firstStep, r.first);
        QCOMPARE(variable(cr, r.name).lastStep, r.last);
    }
    QVERIFY(unused.valid());
    // 6 always-live variables of 8 bytes on tile 0, constants apart.
    QCOMPARE(category(cr.tileMemory[0], MemoryCategory::Constant), std::uint64_t{8});
    QCOMPARE(category(cr.tileMemory[0], MemoryCategory::AlwaysLiveVariable), std::uint64_t(5 * 8));
    // Not-always-live: x [0,2], z [1,2], w2 [1,3], q1 [0,0]; 8 bytes each.
    // Placement: x@0; z overlaps x -> 8; w2 overlaps x, z -> 16; q1 overlaps x -> 8.
    QCOMPARE(cr.tileMemory[0].notAlwaysLivePeakBytes, std::uint64_t{24});
    QCOMPARE(cr.tileMemory[0].notAlwaysLiveSumBytes, std::uint64_t{32});
    // Per-step liveness on tile 0: step 0 {x, q1}, 1 {x, z, w2}, 2 same, 3 {w2}, 4 none.
    using U = std::vector<std::uint32_t>;
    U perStep;
    for (const auto& s : cr.programSteps) {
        perStep.push_back(s.notAlwaysLiveBytes[0]);
    }
    QCOMPARE(perStep, (U{16, 24, 24, 8, 0}));
}

void TestEngineCycles::stackFollowsTheDeepestCodelet() {
    Graph g(smallTarget());
    g.addCodelet(CodeletBuilder<DeepStack>("DeepStack")
                     .field("data", &DeepStack::data)
                     .stackBytes(512)
                     .codeBytes(64)
                     .build());
    Tensor d = g.addVariable(Type::Float, {4}, "d");
    g.setTileMapping(d, 3);
    const ComputeSet cs = g.addComputeSet("deep");
    g.setTileMapping(g.addVertex(cs, "DeepStack", {{"data", d}}), 3);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& cr = rec.compiled;
    QCOMPARE(category(cr.tileMemory[3], MemoryCategory::Stack), std::uint64_t(512 * 6 + 128));
    QCOMPARE(category(cr.tileMemory[0], MemoryCategory::Stack), kStack);
    // Tile 3: code 64, control 76, state 8 (to 148), a 4-byte gap to align
    // the data, d (always-live: read first) 16, then the stack.
    QCOMPARE(cr.tileMemory[3].totalIncludingGaps, std::uint64_t(64 + 76 + 8 + 4 + 16 + 3200));
    QCOMPARE(cr.tileMemory[3].gapBytes, std::uint64_t{4});
}

void TestEngineCycles::hostExchangeCode() {
    Graph g(smallTarget());
    Tensor x = g.addVariable(Type::Float, {6}, "x");
    g.setTileMapping(x.slice(0, 2), 1);
    g.setTileMapping(x.slice(2, 6), 2);
    const DataStream in = g.addHostToDeviceFIFO("in", Type::Float, 6);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence({prog::Copy(in, x), prog::Copy(in, x.reverse(0))}),
                  withRecorder(&rec));
    const auto& cr = rec.compiled;
    // Step 0: one transfer per tile (16 + 8); step 1 (reversed): one element
    // per transfer, 2 on tile 1 and 4 on tile 2.
    QCOMPARE(category(cr.tileMemory[1], MemoryCategory::HostExchangeCode),
             std::uint64_t(24 + (16 + 2 * 8)));
    QCOMPARE(category(cr.tileMemory[2], MemoryCategory::HostExchangeCode),
             std::uint64_t(24 + (16 + 4 * 8)));
    QCOMPARE(category(cr.tileMemory[0], MemoryCategory::HostExchangeCode), std::uint64_t{0});
    // Tile 1 in address order: control 64 + 2 x 12 = 88, host code 24 + 32,
    // data x 8 at 144, stack at 152.
    QCOMPARE(cr.tileMemory[1].totalIncludingGaps, std::uint64_t(88 + 24 + 32 + 8 + 1664));
}

void TestEngineCycles::memoryRegions() {
    Graph g(smallTarget());
    Tensor big = g.addVariable(Type::Float, {20000}, "big");
    g.setTileMapping(big, 0);
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence(), withRecorder(&rec));
    const auto& m = rec.compiled.tileMemory[0];
    // control 64, big 80000 from 64, stack 1664: 81728 in all, past the 64 KiB non-interleaved
    // region.
    QCOMPARE(m.totalIncludingGaps, std::uint64_t(64 + 80000 + 1664));
    QCOMPARE(m.bytesByRegion, (std::vector<std::uint64_t>{65536, 81728 - 65536}));
    QCOMPARE(rec.compiled.target.regions.size(), std::size_t{2});
    QCOMPARE(rec.compiled.target.regions[0].first, std::string("non-interleaved"));
}

QTEST_APPLESS_MAIN(TestEngineCycles)
#include "tst_engine_cycles.moc"
