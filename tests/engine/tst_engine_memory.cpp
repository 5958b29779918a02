// Memory figures of tiny programs against values worked out by hand from
// the documented model (MemoryLayout.cpp's constants and order, the
// codelets' state sizes, liveness): vertex code and state, the full layout
// of a tile, shared addresses of disjoint live ranges, the stack, host
// exchange code and regions. Expected numbers are explicit arithmetic,
// never computed by the engine. The target: SmallTarget.h.
#include "EngineTestSupport.h"
#include "SmallTarget.h"
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
using test::kBase;
using test::smallTarget;
using test::withRecorder;

namespace {

constexpr std::uint64_t kStack = 256 * 6 + 128; // 1664

std::uint64_t category(const record::TileMemoryRecord& m, MemoryCategory c) {
    return m.bytesByCategory[static_cast<std::size_t>(c)];
}

// The memory blocks of one category on one tile, in address order.
std::vector<record::MemoryBlockRecord> blocks(const record::CompiledRecord& c, std::uint32_t tile,
                                              MemoryCategory cat) {
    std::vector<record::MemoryBlockRecord> out;
    for (const auto& b : c.memoryBlocks) {
        if (b.tile == record::TileId{tile} && b.category == cat) {
            out.push_back(b);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.address < b.address; });
    return out;
}

// Address of the block of `cat` owned by `owner` (an id of the category's
// owner kind) on `tile`; 0 when absent.
std::uint32_t addressOf(const record::CompiledRecord& c, std::uint32_t tile, MemoryCategory cat,
                        std::uint32_t owner) {
    const auto typed = record::BlockOwner::fromStored(cat, owner);
    for (const auto& b : c.memoryBlocks) {
        if (b.tile == record::TileId{tile} && b.category == cat && b.owner() == typed) {
            return static_cast<std::uint32_t>(b.address);
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

class TestEngineMemory : public QObject {
    Q_OBJECT

private slots:
    void vertexCodeOncePerCodeletPerTile();
    void vertexCountsOfTilesInAnyOrder();
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

void TestEngineMemory::vertexCodeOncePerCodeletPerTile() {
    Graph g(smallTarget());
    Tensor v = g.addVariable(Type::Float, {40}, "v");
    Tensor w = g.addVariable(Type::Float, {8}, "w");
    g.setTileMapping(v, TileId{0u});
    g.setTileMapping(w, TileId{1u});
    const ComputeSet cs1 = g.addComputeSet("one");
    const ComputeSet cs2 = g.addComputeSet("two");
    for (std::size_t i = 0; i < 3; ++i) {
        const Tensor s = v.slice(8 * i, 8 * i + 8);
        g.setTileMapping(g.addVertex(cs1, "Add<float>", {{"in1", s}, {"in2", s}, {"out", s}}),
                         TileId{0u});
    }
    g.setTileMapping(
        g.addVertex(cs1, "Exp<float>", {{"in", v.slice(24, 32)}, {"out", v.slice(24, 32)}}),
        TileId{0u});
    g.setTileMapping(
        g.addVertex(cs2, "Add<float>",
                    {{"in1", v.slice(32, 40)}, {"in2", v.slice(32, 40)}, {"out", v.slice(32, 40)}}),
        TileId{0u});
    g.setTileMapping(g.addVertex(cs2, "Add<float>", {{"in1", w}, {"in2", w}, {"out", w}}),
                     TileId{1u});
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
        (c.name == "Add<float>" ? addId : expId) = c.id.value();
        QCOMPARE(c.codeBytes, std::uint64_t{c.name == "Add<float>" ? 192u : 160u});
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
            if (vc.computeSet.value() == e.cs && vc.tile.value() == e.tile &&
                vc.codelet.value() == e.codelet) {
                found = true;
                QCOMPARE(vc.count, std::uint64_t{e.count});
                QCOMPARE(vc.stateBytes, e.state);
            }
        }
        QVERIFY(found);
    }
}

// Vertices added to a compute set out of tile order, a tile coming back after
// another and codelets alternating on one tile: one count per compute set,
// tile and codelet all the same, with its vertices' state bytes.
void TestEngineMemory::vertexCountsOfTilesInAnyOrder() {
    Graph g(smallTarget());
    Tensor v = g.addVariable(Type::Float, {48}, "v");
    g.setTileMapping(v.slice(0, 24), TileId{0u});
    g.setTileMapping(v.slice(24, 48), TileId{1u});
    const ComputeSet cs = g.addComputeSet("mixed");
    // (tile, Add or Exp): 1 Add, 0 Add, 1 Add, 0 Exp, 0 Add, 1 Exp.
    const struct {
        std::uint32_t tile;
        bool add;
    } order[] = {{1, true}, {0, true}, {1, true}, {0, false}, {0, true}, {1, false}};
    std::size_t next[2] = {0, 24};
    for (const auto& o : order) {
        const Tensor s = v.slice(next[o.tile], next[o.tile] + 8);
        next[o.tile] += 8;
        const VertexRef vertex =
            o.add ? g.addVertex(cs, "Add<float>", {{"in1", s}, {"in2", s}, {"out", s}})
                  : g.addVertex(cs, "Exp<float>", {{"in", s}, {"out", s}});
        g.setTileMapping(vertex, TileId{o.tile});
    }
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    // Per tile: Add vertices 3 x 8 bytes of state each, Exp 2 x 8.
    struct Expected {
        std::uint32_t tile;
        const char* codelet;
        std::uint64_t count, state;
    };
    const std::vector<Expected> expected = {{0, "Add<float>", 2, 48},
                                            {0, "Exp<float>", 1, 16},
                                            {1, "Add<float>", 2, 48},
                                            {1, "Exp<float>", 1, 16}};
    QCOMPARE(rec.compiled.vertexCounts.size(), expected.size());
    for (const Expected& e : expected) {
        std::size_t found = 0;
        for (const auto& vc : rec.compiled.vertexCounts) {
            if (vc.tile.value() == e.tile &&
                rec.compiled.codelets.at(vc.codelet.value()).name == e.codelet) {
                ++found;
                QCOMPARE(vc.computeSet.value(), std::uint32_t{0});
                QCOMPARE(std::uint64_t{vc.count}, e.count);
                QCOMPARE(std::uint64_t{vc.stateBytes}, e.state);
            }
        }
        QCOMPARE(found, std::size_t{1});
    }
}

void TestEngineMemory::vertexStateBytes_data() {
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

void TestEngineMemory::vertexStateBytes() {
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
        g.setTileMapping(t, TileId{1u});
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
    g.setTileMapping(vx, TileId{1u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Execute(cs), withRecorder(&rec));
    const auto& mem = rec.compiled.tileMemory[1];
    QCOMPARE(category(mem, MemoryCategory::VertexInstanceState), std::uint64_t(state));
    QCOMPARE(category(mem, MemoryCategory::VectorListDescriptor), std::uint64_t(descriptors));
    const auto stateBlocks = blocks(rec.compiled, 1, MemoryCategory::VertexInstanceState);
    QCOMPARE(stateBlocks.size(), std::size_t{1});
    QCOMPARE(stateBlocks[0].owner().vertex(), record::VertexId{vx.id});
    QCOMPARE(std::uint64_t(stateBlocks[0].bytes), std::uint64_t(state));
    QCOMPARE(rec.compiled.vertexCounts.at(0).stateBytes, std::uint64_t(state + descriptors));
}

void TestEngineMemory::fullTileLayout() {
    Graph g(smallTarget());
    // Created in this order: ids 0..3.
    Tensor c = g.addConstant(Type::Float, {4}, std::vector<double>{1, 2, 3, 4}, "c");
    Tensor a = g.addVariable(Type::Float, {5}, "a"); // never used: always-live
    Tensor x = g.addVariable(Type::Float, {4}, "x"); // written at step 0, read at step 1
    Tensor y = g.addVariable(Type::Float, {4}, "y"); // written at step 1
    for (const Tensor& t : {c, a, x, y}) {
        g.setTileMapping(t, TileId{0u});
    }
    const ComputeSet fill = g.addComputeSet("fill");
    const VertexRef fv = g.addVertex(fill, "Fill<float>", {{"out", x}});
    g.setInitialValue(fv["value"], 2.5);
    g.setTileMapping(fv, TileId{0u});
    const ComputeSet add = g.addComputeSet("add");
    g.setTileMapping(g.addVertex(add, "Add<float>", {{"in1", x}, {"in2", c}, {"out", y}}),
                     TileId{0u});
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
    QCOMPARE(blocks(cr, 0, MemoryCategory::ControlCode).at(0).address, std::uint64_t{kBase + 288});
    QCOMPARE(blocks(cr, 0, MemoryCategory::ControlCode).at(0).bytes, std::uint64_t{88});
    QCOMPARE(addressOf(cr, 0, MemoryCategory::VertexInstanceState, 0), kBase + 376);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::VertexInstanceState, 1), kBase + 388);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::Constant, 0), kBase + 416);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::AlwaysLiveVariable, 1), kBase + 432);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, 2), kBase + 456);
    QCOMPARE(addressOf(cr, 0, MemoryCategory::NotAlwaysLiveVariable, 3), kBase + 472);
    QCOMPARE(blocks(cr, 0, MemoryCategory::Stack).at(0).address, std::uint64_t{kBase + 488});
    QCOMPARE(blocks(cr, 0, MemoryCategory::Stack).at(0).bytes, kStack);

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
    QCOMPARE(m.bytesByRegion, (std::vector<std::uint32_t>{2152, 0}));
    QCOMPARE(m.overflowBytes, std::uint64_t{0});
    // Other tiles: control code 88, then the stack right after it.
    for (std::uint32_t t = 1; t < 4; ++t) {
        QCOMPARE(cr.tileMemory[t].totalIncludingGaps, std::uint64_t(88 + 1664));
        QCOMPARE(cr.tileMemory[t].gapBytes, std::uint64_t{0});
    }
    QCOMPARE(cr.totalMemoryBytes, std::uint64_t(2152 + 3 * 1752));
    // Variable records.
    QVERIFY(variable(cr, "c").alwaysLive && variable(cr, "c").isConstant);
    QVERIFY(variable(cr, "a").alwaysLive);
    QVERIFY(!variable(cr, "x").alwaysLive);
    QCOMPARE(variable(cr, "x").firstStep, record::StepId{0u});
    QCOMPARE(variable(cr, "x").lastStep, record::StepId{1u});
    QCOMPARE(variable(cr, "y").firstStep, record::StepId{1u});
    QCOMPARE(variable(cr, "y").lastStep, record::StepId{1u});
    QCOMPARE(variable(cr, "a").bytesByTile,
             (std::vector<std::pair<record::TileId, std::uint32_t>>{{record::TileId{0u}, 20}}));
}

void TestEngineMemory::disjointLiveRangesShareAnAddress() {
    Graph g(smallTarget());
    Tensor t1 = g.addVariable(Type::Float, {8}, "t1"); // 32 bytes, steps 0-1
    Tensor r1 = g.addVariable(Type::Float, {8}, "r1"); // 32 bytes, step 1
    Tensor t2 = g.addVariable(Type::Float, {6}, "t2"); // 24 bytes, steps 2-3
    Tensor r2 = g.addVariable(Type::Float, {6}, "r2"); // 24 bytes, step 3
    for (const Tensor& t : {t1, r1, t2, r2}) {
        g.setTileMapping(t, TileId{2u});
    }
    std::vector<prog::Program> steps;
    for (const auto& [from, to, value] : {std::tuple{t1, r1, 1.0}, std::tuple{t2, r2, 2.0}}) {
        const ComputeSet f = g.addComputeSet();
        const VertexRef fv = g.addVertex(f, "Fill<float>", {{"out", from}});
        g.setInitialValue(fv["value"], value);
        g.setTileMapping(fv, TileId{2u});
        const ComputeSet e = g.addComputeSet();
        g.setTileMapping(g.addVertex(e, "Exp<float>", {{"in", from}, {"out", to}}), TileId{2u});
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
    QCOMPARE(variable(cr, "t1").lastStep, record::StepId{1u});
    QCOMPARE(variable(cr, "t2").firstStep, record::StepId{2u});
    // And the program computes right through the shared memory: t2 now
    // holds its own values where t1 was, r2 = exp(t2).
    engine.run();
    QCOMPARE(engine.readValues(t2), std::vector<double>(6, 2.0));
    QCOMPARE(engine.read<float>(r2), std::vector<float>(6, std::exp(2.0f)));
}

void TestEngineMemory::livenessPerStep() {
    Graph g(smallTarget());
    Tensor a = g.addVariable(Type::Float, {4}, "a"); // id 0
    Tensor b = g.addVariable(Type::Float, {4}, "b"); // id 1
    Tensor s = g.addVariable(Type::Float, {}, "s");  // id 2
    g.setTileMapping(a, TileId{0u});
    g.setTileMapping(b, TileId{0u});
    g.setTileMapping(s, TileId{1u});
    const ComputeSet c0 = g.addComputeSet("fill a");
    g.setTileMapping(g.addVertex(c0, "Fill<float>", {{"out", a}}), TileId{0u});
    const ComputeSet c1 = g.addComputeSet("b = a + a");
    g.setTileMapping(g.addVertex(c1, "Add<float>", {{"in1", a}, {"in2", a}, {"out", b}}),
                     TileId{0u});
    const ComputeSet c2 = g.addComputeSet("s = sum b");
    // s lives on tile 1: the vertex writes a 4-byte exchange buffer on tile 0.
    g.setTileMapping(g.addVertex(c2, "ReduceAdd<float>", {{"in", b}, {"out", s}}), TileId{0u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence({prog::Execute(c0), prog::Execute(c1), prog::Execute(c2)}),
                  withRecorder(&rec));
    const auto& cr = rec.compiled;
    const std::uint32_t buffer = 3 + 2; // pseudo-variable id: variables + step
    using U = std::vector<std::uint32_t>;
    auto ids = [](std::initializer_list<std::uint32_t> values) {
        std::vector<record::VariableId> out;
        for (const std::uint32_t v : values) {
            out.emplace_back(v);
        }
        return out;
    };
    // a [0,1], b [1,2], s [2,2], the buffer [2,2].
    QCOMPARE(cr.programSteps[0].notAlwaysLiveBytes, (U{16, 0, 0, 0}));
    QCOMPARE(cr.programSteps[1].notAlwaysLiveBytes, (U{16 + 16, 0, 0, 0}));
    QCOMPARE(cr.programSteps[2].notAlwaysLiveBytes, (U{16 + 4, 4, 0, 0}));
    QCOMPARE(cr.programSteps[0].liveVariables, ids({0}));
    QCOMPARE(cr.programSteps[1].liveVariables, ids({0, 1}));
    QCOMPARE(cr.programSteps[2].liveVariables, ids({1, 2, buffer}));
    const auto& buf = variable(cr, "exchange buffer: s = sum b");
    QVERIFY(buf.isExchangeBuffer);
    QCOMPARE(buf.id, record::VariableId{buffer});
    QCOMPARE(buf.firstStep, record::StepId{2u});
    QCOMPARE(buf.lastStep, record::StepId{2u});
    QCOMPARE(buf.bytesByTile,
             (std::vector<std::pair<record::TileId, std::uint32_t>>{{record::TileId{0u}, 4}}));
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

void TestEngineMemory::alwaysLiveClassification() {
    Graph g(smallTarget());
    const auto var = [&](const char* name) {
        Tensor t = g.addVariable(Type::Float, {2}, name);
        g.setTileMapping(t, TileId{0u});
        return t;
    };
    Tensor k = g.addConstant(Type::Float, {2}, 1.0, "k");
    g.setTileMapping(k, TileId{0u});
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
                g.setTileMapping(g.addVertex(cs, codelet, fields), TileId{0u});
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
        QVERIFY(variable(cr, name).firstStep.isNone());
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
        QCOMPARE(variable(cr, r.name).firstStep, record::StepId{r.first});
        QCOMPARE(variable(cr, r.name).lastStep, record::StepId{r.last});
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

void TestEngineMemory::stackFollowsTheDeepestCodelet() {
    Graph g(smallTarget());
    g.addCodelet(CodeletBuilder<DeepStack>("DeepStack")
                     .field("data", &DeepStack::data)
                     .stackBytes(512)
                     .codeBytes(64)
                     .build());
    Tensor d = g.addVariable(Type::Float, {4}, "d");
    g.setTileMapping(d, TileId{3u});
    const ComputeSet cs = g.addComputeSet("deep");
    g.setTileMapping(g.addVertex(cs, "DeepStack", {{"data", d}}), TileId{3u});
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

void TestEngineMemory::hostExchangeCode() {
    Graph g(smallTarget());
    Tensor x = g.addVariable(Type::Float, {6}, "x");
    g.setTileMapping(x.slice(0, 2), TileId{1u});
    g.setTileMapping(x.slice(2, 6), TileId{2u});
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

void TestEngineMemory::memoryRegions() {
    Graph g(smallTarget());
    Tensor big = g.addVariable(Type::Float, {20000}, "big");
    g.setTileMapping(big, TileId{0u});
    record::InMemoryRecorder rec;
    Engine engine(g, prog::Sequence(), withRecorder(&rec));
    const auto& m = rec.compiled.tileMemory[0];
    // control 64, big 80000 from 64, stack 1664: 81728 in all, past the 64 KiB non-interleaved
    // region.
    QCOMPARE(m.totalIncludingGaps, std::uint64_t(64 + 80000 + 1664));
    QCOMPARE(m.bytesByRegion, (std::vector<std::uint32_t>{65536, 81728 - 65536}));
    QCOMPARE(rec.compiled.target.regions.size(), std::size_t{2});
    QCOMPARE(rec.compiled.target.regions[0].first, std::string("non-interleaved"));
}

QTEST_APPLESS_MAIN(TestEngineMemory)
#include "tst_engine_memory.moc"
