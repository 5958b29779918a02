// Programs run on small targets and their results checked against host
// computations: element-wise ops with remote operands (real exchange),
// copies, control flow, user codelets; and the same values and cycles for
// any thread count. Host streams, handles and PrintTensor: tst_engine_host;
// the built-in codelets' arithmetic: tst_engine_builtins.
#include "EngineRunSupport.h"
#include "EngineTestSupport.h"
#include "engine/codelets/Vertex.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

using namespace tessera;
namespace prog = tessera::program;
using tessera::test::options;

namespace {

// A user codelet with scalar edges: out = a < b.
class LessThan : public Vertex {
public:
    Input<float> a;
    Input<float> b;
    Output<bool> out;
    bool compute() {
        *out = float(a) < float(b);
        return true;
    }
};

// out = bias + sum x[i] * w[i]
class WeightedSum : public Vertex {
public:
    Input<Vector<float>> x;
    Input<Vector<float>> w;
    Output<float> out;
    float bias = 0;
    bool compute() {
        float s = bias;
        for (std::size_t i = 0; i < x.size(); ++i) {
            s += x[i] * w[i];
        }
        out = s;
        return true;
    }
};

// out[c] = sum over rows of rows[r][c], with a vector list of inputs.
class SumRows : public Vertex {
public:
    Vector<Input<Vector<float>>> rows;
    Output<Vector<float>> out;
    void compute() {
        for (std::size_t c = 0; c < out.size(); ++c) {
            float s = 0;
            for (std::size_t r = 0; r < rows.size(); ++r) {
                s += rows[r][c];
            }
            out[c] = s;
        }
    }
};

class Refuses : public Vertex {
public:
    InOut<Vector<int>> data;
    bool compute() { return data.size() == 0; }
};

void addLessThan(Graph& g) {
    g.addCodelet(CodeletBuilder<LessThan>("LessThan")
                     .field("a", &LessThan::a)
                     .field("b", &LessThan::b)
                     .field("out", &LessThan::out)
                     .estimator("7",
                                [](const VertexIntrospector&, const Target&) {
                                    return PerfEstimate{7, 1};
                                })
                     .build());
}

std::vector<float> floats(std::initializer_list<float> v) {
    return std::vector<float>(v);
}

} // namespace

class TestEngineRuntime : public QObject {
    Q_OBJECT

private slots:
    void elementwiseAcrossTiles_data();
    void elementwiseAcrossTiles();
    void copyBetweenTiles();
    void repeat();
    void loopCarriedValueSurvivesSharedMemory();
    void repeatWhileTrueWithCounter();
    void repeatWhileFalse();
    void ifBothBranches();
    void userCodelets();
    void computeReturningFalseStopsTheRun();
    void threadsDoNotChangeResults();
};

void TestEngineRuntime::elementwiseAcrossTiles_data() {
    QTest::addColumn<QString>("codelet");
    QTest::addColumn<int>("op");
    QTest::newRow("Add") << "Add<float>" << 0;
    QTest::newRow("Sub") << "Sub<float>" << 1;
    QTest::newRow("Mul") << "Mul<float>" << 2;
    QTest::newRow("Div") << "Div<float>" << 3;
    QTest::newRow("Max") << "Max<float>" << 4;
    QTest::newRow("Min") << "Min<float>" << 5;
    QTest::newRow("ReluGrad") << "ReluGrad<float>" << 6;
    QTest::newRow("Exp (unary)") << "Exp<float>" << 10;
    QTest::newRow("Sqrt (unary)") << "Sqrt<float>" << 11;
    QTest::newRow("Sigmoid (unary)") << "Sigmoid<float>" << 12;
    QTest::newRow("Neg (unary)") << "Neg<float>" << 13;
}

void TestEngineRuntime::elementwiseAcrossTiles() {
    QFETCH(QString, codelet);
    QFETCH(int, op);
    const bool unary = op >= 10;
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {8}, "a");
    Tensor b = g.addVariable(Type::Float, {8}, "b");
    Tensor out = g.addVariable(Type::Float, {8}, "out");
    g.setTileMapping(a.slice(0, 4), TileId{0u});
    g.setTileMapping(a.slice(4, 8), TileId{1u});
    g.setTileMapping(b, TileId{2u});
    g.setTileMapping(out.slice(0, 4), TileId{3u});
    g.setTileMapping(out.slice(4, 8), TileId{0u});
    g.createHostRead("out", out);
    const ComputeSet cs = g.addComputeSet("op");
    const std::string name = codelet.toStdString();
    // Vertex 0 on tile 3: both inputs remote, output local.
    // Vertex 1 on tile 1: first input local, second remote, output remote.
    for (int half = 0; half < 2; ++half) {
        const std::size_t lo = half == 0 ? 0 : 4;
        const Tensor ia = a.slice(lo, lo + 4), ib = b.slice(lo, lo + 4), o = out.slice(lo, lo + 4);
        const VertexRef v = unary ? g.addVertex(cs, name, {{"in", ia}, {"out", o}})
                                  : g.addVertex(cs, name, {{"in1", ia}, {"in2", ib}, {"out", o}});
        g.setTileMapping(v, record::idAt<TileId>(half == 0 ? 3 : 1));
    }
    record::InMemoryRecorder recorder;
    Engine engine(g, prog::Execute(cs), options(2, &recorder));
    std::vector<float> av, bv;
    for (int i = 0; i < 8; ++i) {
        av.push_back(0.75f * float(i) + 0.125f - (i % 3 == 0 ? 3.0f : 0.0f));
        bv.push_back(1.25f - 0.375f * float(i));
    }
    engine.write<float>(a, av);
    engine.write<float>(b, bv);
    engine.run();
    std::vector<float> want;
    for (std::size_t i = 0; i < 8; ++i) {
        const float x = av[i], y = bv[i];
        switch (op) {
        case 0:
            want.push_back(x + y);
            break;
        case 1:
            want.push_back(x - y);
            break;
        case 2:
            want.push_back(x * y);
            break;
        case 3:
            want.push_back(x / y);
            break;
        case 4:
            want.push_back(std::max(x, y));
            break;
        case 5:
            want.push_back(std::min(x, y));
            break;
        case 6:
            want.push_back(y > 0 ? x : 0.0f);
            break;
        case 10:
            want.push_back(std::exp(x));
            break;
        case 11:
            want.push_back(std::sqrt(x));
            break;
        case 12:
            want.push_back(1.0f / (1.0f + std::exp(-x)));
            break;
        default:
            want.push_back(-x);
            break;
        }
    }
    std::vector<float> got(8);
    engine.readTensor("out", got.data(), got.data() + got.size());
    CHECK_EQUAL(got, want);
    // The exchange really moved the bytes: per tile, bytes received and sent.
    const record::ProgramStepRecord& step = recorder.compiled.programSteps.at(0);
    using U = std::vector<std::uint32_t>;
    if (unary) { // tile 3 pulls a[0:4] from tile 0; tile 1 pushes out[4:8] to tile 0
        QCOMPARE(step.bytesIn, (U{16, 0, 0, 16}));
        QCOMPARE(step.bytesOut, (U{16, 16, 0, 0}));
    } else { // and b's halves come from tile 2
        QCOMPARE(step.bytesIn, (U{16, 16, 0, 32}));
        QCOMPARE(step.bytesOut, (U{16, 16, 32, 0}));
    }
}

void TestEngineRuntime::copyBetweenTiles() {
    Graph g(Target::preset("tiles:4"));
    Tensor src = g.addVariable(Type::Float, {6}, "src");
    Tensor dst = g.addVariable(Type::Float, {6}, "dst");
    Tensor m = g.addVariable(Type::Int, {2, 3}, "m");
    Tensor mt = g.addVariable(Type::Int, {6}, "mt");
    Tensor back = g.addVariable(Type::Float, {6}, "back");
    g.setTileMapping(src, TileId{0u});
    g.setTileMapping(dst.slice(0, 2), TileId{1u});
    g.setTileMapping(dst.slice(2, 6), TileId{2u});
    g.setTileMapping(m, TileId{1u});
    g.setTileMapping(mt.slice(0, 3), TileId{3u});
    g.setTileMapping(mt.slice(3, 6), TileId{0u});
    g.setTileMapping(back, TileId{3u});
    for (const auto& [name, t] :
         {std::pair{"dst", dst}, std::pair{"mt", mt}, std::pair{"back", back}}) {
        g.createHostRead(name, t);
    }
    Engine engine(g,
                  prog::Sequence({prog::Copy(src, dst), prog::Copy(m.transpose(), mt),
                                  prog::Copy(dst.reverse(0), back)}),
                  options(3));
    const std::vector<double> srcValues{1.5, -2, 3.25, 4, 5.5, -6};
    const std::vector<double> mValues{1, 2, 3, 4, 5, 6};
    engine.writeValues(src, srcValues);
    engine.writeValues(m, mValues);
    engine.run();
    QCOMPARE(engine.readValues(dst), srcValues);
    QCOMPARE(engine.readValues(mt), (std::vector<double>{1, 4, 2, 5, 3, 6}));
    QCOMPARE(engine.readValues(back), (std::vector<double>{-6, 5.5, 4, 3.25, -2, 1.5}));
    QCOMPARE(engine.readValues(src), srcValues); // the source is untouched
}

void TestEngineRuntime::repeat() {
    Graph g(Target::preset("tiles:4"));
    Tensor acc = g.addVariable(Type::Float, {4}, "acc");
    Tensor deltas = g.addConstant(Type::Float, {4}, std::vector<double>{0.5, 1, 1.5, 2}, "deltas");
    g.setTileMapping(acc, TileId{1u});
    g.setTileMapping(deltas, TileId{2u});
    const ComputeSet cs = g.addComputeSet("update");
    const VertexRef v = g.addVertex(cs, "ScaledAdd<float>", {{"data", acc}, {"deltas", deltas}});
    g.setInitialValue(v["scale"], 2.0);
    g.setTileMapping(v, TileId{1u});
    record::InMemoryRecorder recorder;
    Engine engine(g,
                  {prog::Repeat(5, prog::Execute(cs)), prog::Repeat(0, prog::Execute(cs)),
                   prog::Repeat(2, prog::Repeat(3, prog::Execute(cs)))},
                  options(2, &recorder));
    engine.writeValues(acc, std::vector<double>{1, 2, 3, 4});
    engine.run(0);
    // acc + 5 x 2 x deltas
    QCOMPARE(engine.readValues(acc), (std::vector<double>{6, 12, 18, 24}));
    engine.run(1);
    QCOMPARE(engine.readValues(acc), (std::vector<double>{6, 12, 18, 24}));
    engine.run(2); // 6 more updates
    QCOMPARE(engine.readValues(acc), (std::vector<double>{12, 24, 36, 48}));
    QCOMPARE(recorder.runEnds.size(), std::size_t{3});
    QCOMPARE(recorder.runEnds[0].steps, std::uint64_t{5});
    QCOMPARE(recorder.runEnds[1].steps, std::uint64_t{0});
    QCOMPARE(recorder.runEnds[2].steps, std::uint64_t{6});
    QCOMPARE(recorder.steps.size(), std::size_t{11});
    // Every execution of a step costs the same; start cycles accumulate.
    const std::uint64_t each = recorder.compiled.programSteps[0].totalCycles;
    QVERIFY(each > 0);
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(recorder.steps[i].cycles, each);
        QCOMPARE(recorder.steps[i].startCycle, i * each);
        QCOMPARE(recorder.steps[i].sequence, std::uint64_t{i});
    }
    QCOMPARE(recorder.runs[2].startCycle, 5 * each);
    QCOMPARE(engine.cyclesSoFar(), 11 * each);
}

void TestEngineRuntime::loopCarriedValueSurvivesSharedMemory() {
    // x is written once before a loop and read on every iteration. Inside the
    // loop, a later step makes a not-always-live result e and an exchange
    // buffer on x's tile. Had x's live range stopped at its last read, e or the
    // buffer would take x's address and the second iteration would read them.
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {4}, "x");
    Tensor acc = g.addVariable(Type::Float, {4}, "acc");
    Tensor r = g.addVariable(Type::Float, {4}, "r");
    Tensor e = g.addVariable(Type::Float, {4}, "e");
    g.setTileMapping(x, TileId{0u});
    g.setTileMapping(acc, TileId{0u});
    g.setTileMapping(r, TileId{1u});
    g.setTileMapping(e, TileId{0u});
    g.createHostRead("acc", acc);
    const ComputeSet init = g.addComputeSet("init");
    const VertexRef fill = g.addVertex(init, "Fill<float>", {{"out", x}});
    g.setInitialValue(fill["value"], 1.5);
    g.setTileMapping(fill, TileId{0u});
    const ComputeSet use = g.addComputeSet("use");
    g.setTileMapping(g.addVertex(use, "ScaledAdd<float>", {{"data", acc}, {"deltas", x}}),
                     TileId{0u});
    const ComputeSet other = g.addComputeSet("other");
    g.setTileMapping(g.addVertex(other, "Exp<float>", {{"in", r}, {"out", e}}), TileId{0u});
    record::InMemoryRecorder recorder;
    Engine engine(g,
                  prog::Sequence({prog::Execute(init),
                                  prog::Repeat(3, prog::Sequence({prog::Execute(use),
                                                                  prog::Execute(other)}))}),
                  options(2, &recorder));
    engine.writeValues(r, std::vector<double>{7, 8, 9, 10});
    engine.run();
    QCOMPARE(engine.readValues(acc), (std::vector<double>{4.5, 4.5, 4.5, 4.5}));
    for (const record::VariableRecord& v : recorder.compiled.variables) {
        if (v.name == "x") {
            QCOMPARE(v.lastStep, record::StepId{2u}); // kept to the end of the loop body
        }
    }
}

void TestEngineRuntime::repeatWhileTrueWithCounter() {
    Graph g(Target::preset("tiles:4"));
    addLessThan(g);
    Tensor i = g.addVariable(Type::Float, {}, "i");
    Tensor limit = g.addConstant(Type::Float, {}, 5.0, "limit");
    Tensor pred = g.addVariable(Type::Bool, {}, "pred");
    Tensor total = g.addVariable(Type::Float, {3}, "total");
    Tensor one = g.addConstant(Type::Float, {1}, 1.0, "one");
    Tensor threes = g.addConstant(Type::Float, {3}, 3.0, "threes");
    g.setTileMapping(i, TileId{0u});
    g.setTileMapping(limit, TileId{1u});
    g.setTileMapping(pred, TileId{2u});
    g.setTileMapping(total, TileId{3u});
    g.setTileMapping(one, TileId{0u});
    g.setTileMapping(threes, TileId{1u});
    const ComputeSet cond = g.addComputeSet("cond");
    g.setTileMapping(g.addVertex(cond, "LessThan", {{"a", i}, {"b", limit}, {"out", pred}}),
                     TileId{2u});
    const ComputeSet body = g.addComputeSet("body");
    const VertexRef inc =
        g.addVertex(body, "ScaledAdd<float>", {{"data", i.reshape({1})}, {"deltas", one}});
    g.setTileMapping(inc, TileId{0u});
    const VertexRef add =
        g.addVertex(body, "ScaledAdd<float>", {{"data", total}, {"deltas", threes}});
    g.setTileMapping(add, TileId{3u});
    record::InMemoryRecorder recorder;
    Engine engine(g, prog::RepeatWhileTrue(prog::Execute(cond), pred, prog::Execute(body), "loop"),
                  options(4, &recorder));
    engine.writeValues(i, std::vector<double>{0});
    engine.writeValues(total, std::vector<double>{0, 0, 0});
    engine.run();
    QCOMPARE(engine.readValues(i), std::vector<double>{5});
    QCOMPARE(engine.readValues(total), (std::vector<double>{15, 15, 15}));
    // Per iteration: condition, predicate, body; then a final condition and predicate.
    QCOMPARE(recorder.steps.size(), std::size_t{5 * 3 + 2});
    QCOMPARE(recorder.compiled.programSteps.size(), std::size_t{3});
    QCOMPARE(recorder.compiled.programSteps[1].kind, record::ProgramKind::Predicate);
    QCOMPARE(recorder.compiled.programSteps[1].name, std::string("loop/predicate"));
    // Again from i = 3: two iterations, total keeps its value.
    engine.writeValues(i, std::vector<double>{3});
    engine.run();
    QCOMPARE(engine.readValues(i), std::vector<double>{5});
    QCOMPARE(engine.readValues(total), (std::vector<double>{21, 21, 21}));
    QCOMPARE(recorder.runEnds[1].steps, std::uint64_t{2 * 3 + 2});
    // Already at the limit: the body never runs.
    engine.run();
    QCOMPARE(engine.readValues(total), (std::vector<double>{21, 21, 21}));
    QCOMPARE(recorder.runEnds[2].steps, std::uint64_t{2});
}

void TestEngineRuntime::repeatWhileFalse() {
    Graph g(Target::preset("tiles:4"));
    addLessThan(g);
    Tensor i = g.addVariable(Type::Float, {1}, "i");
    Tensor limit = g.addConstant(Type::Float, {1}, 5.0, "limit");
    Tensor done = g.addVariable(Type::Bool, {1}, "done");
    Tensor one = g.addConstant(Type::Float, {1}, 1.0, "one");
    g.setTileMapping(i, TileId{3u});
    g.setTileMapping(limit, TileId{2u});
    g.setTileMapping(done, TileId{1u});
    g.setTileMapping(one, TileId{3u});
    const ComputeSet cond = g.addComputeSet("cond");
    g.setTileMapping(
        g.addVertex(cond, "LessThan", {{"a", limit[0]}, {"b", i[0]}, {"out", done[0]}}),
        TileId{1u});
    const ComputeSet body = g.addComputeSet("body");
    g.setTileMapping(g.addVertex(body, "ScaledAdd<float>", {{"data", i}, {"deltas", one}}),
                     TileId{3u});
    Engine engine(g, prog::RepeatWhileFalse(prog::Execute(cond), done, prog::Execute(body)),
                  options(1));
    engine.run(); // i from 0 while !(5 < i): i = 0..5 runs the body six times
    QCOMPARE(engine.readValues(i), std::vector<double>{6});
    QCOMPARE(engine.readValues(done), std::vector<double>{1});
}

void TestEngineRuntime::ifBothBranches() {
    Graph g(Target::preset("tiles:4"));
    Tensor pred = g.addVariable(Type::Bool, {}, "pred");
    Tensor fpred = g.addVariable(Type::Float, {1}, "fpred");
    Tensor out = g.addVariable(Type::Float, {4}, "out");
    g.setTileMapping(pred, TileId{1u});
    g.setTileMapping(fpred, TileId{3u});
    g.setTileMapping(out, TileId{2u});
    g.createHostRead("out", out);
    g.createHostWrite("out", out);
    auto fill = [&](const char* name, double value) {
        const ComputeSet cs = g.addComputeSet(name);
        const VertexRef v = g.addVertex(cs, "Fill<float>", {{"out", out}});
        g.setInitialValue(v["value"], value);
        g.setTileMapping(v, TileId{2u});
        return prog::Execute(cs);
    };
    const prog::Program thenBranch = fill("then", 1);
    const prog::Program elseBranch = fill("else", 2);
    Engine engine(g, {prog::If(pred, thenBranch, elseBranch), prog::If(fpred, thenBranch)},
                  options(2));
    auto readOut = [&] {
        std::vector<float> v(4);
        engine.readTensor("out", v.data(), v.data() + 4);
        return v;
    };
    engine.writeValues(pred, std::vector<double>{1});
    engine.run(0);
    CHECK_EQUAL(readOut(), floats({1, 1, 1, 1}));
    engine.writeValues(pred, std::vector<double>{0});
    engine.run(0);
    CHECK_EQUAL(readOut(), floats({2, 2, 2, 2}));
    // No else branch; a float predicate is true when non-zero.
    engine.writeValues(fpred, std::vector<double>{0});
    engine.run(1);
    CHECK_EQUAL(readOut(), floats({2, 2, 2, 2}));
    engine.writeValues(fpred, std::vector<double>{0.25});
    engine.run(1);
    CHECK_EQUAL(readOut(), floats({1, 1, 1, 1}));
}

void TestEngineRuntime::userCodelets() {
    Graph g(Target::preset("tiles:4"));
    g.addCodelet(CodeletBuilder<WeightedSum>("WeightedSum")
                     .field("x", &WeightedSum::x)
                     .field("w", &WeightedSum::w)
                     .field("out", &WeightedSum::out)
                     .state("bias", &WeightedSum::bias)
                     .codeBytes(120)
                     .estimator("10 + 2 * n",
                                [](const VertexIntrospector& v, const Target&) {
                                    const std::size_t n = v.fieldSize("x");
                                    return PerfEstimate{10 + 2 * n, 2 * n};
                                })
                     .build());
    g.addCodelet(CodeletBuilder<SumRows>("SumRows")
                     .field("rows", &SumRows::rows)
                     .field("out", &SumRows::out)
                     .estimator("5 + rows * cols",
                                [](const VertexIntrospector& v, const Target&) {
                                    const auto sizes = v.listSizes("rows");
                                    return PerfEstimate{5 + sizes.size() * sizes.at(0), 0};
                                })
                     .build());
    Tensor x = g.addVariable(Type::Float, {6}, "x");
    Tensor w = g.addConstant(Type::Float, {6}, std::vector<double>{0.5, -1, 2, 0.25, 1, -0.5}, "w");
    Tensor s = g.addVariable(Type::Float, {}, "s");
    Tensor m = g.addVariable(Type::Float, {3, 4}, "m");
    Tensor colSums = g.addVariable(Type::Float, {4}, "colSums");
    g.setTileMapping(x, TileId{0u});
    g.setTileMapping(w, TileId{1u});
    g.setTileMapping(s, TileId{0u});
    for (std::size_t r = 0; r < 3; ++r) {
        g.setTileMapping(m[r], record::idAt<TileId>(r));
    }
    g.setTileMapping(colSums, TileId{3u});
    g.createHostRead("s", s);
    g.createHostRead("colSums", colSums);
    const ComputeSet cs = g.addComputeSet("custom");
    const VertexRef ws = g.addVertex(cs, "WeightedSum", {{"x", x}, {"w", w}, {"out", s}});
    g.setInitialValue(ws["bias"], 0.5);
    g.setTileMapping(ws, TileId{0u});
    const VertexRef sr = g.addVertex(cs, "SumRows", {{"out", colSums}});
    g.connect(sr["rows"], std::vector<Tensor>{m[0], m[1], m[2]});
    g.setTileMapping(sr, TileId{3u});
    record::InMemoryRecorder recorder;
    Engine engine(g, prog::Execute(cs), options(4, &recorder));
    engine.writeValues(x, std::vector<double>{1, 2, 3, 4, 5, 6});
    engine.writeValues(m, std::vector<double>{1, 2, 3, 4, 10, 20, 30, 40, 100, 200, 300, 400});
    engine.run();
    // 0.5 + (0.5 - 2 + 6 + 1 + 5 - 3) = 8
    QCOMPARE(engine.readValues(s), std::vector<double>{8});
    QCOMPARE(engine.readValues(colSums), (std::vector<double>{111, 222, 333, 444}));
    // The estimators are used: 6 contexts x thread cycles.
    const record::ProgramStepRecord& step = recorder.compiled.programSteps.at(0);
    QCOMPARE(step.computeCycles[0], std::uint32_t{6 * (10 + 2 * 6)});
    QCOMPARE(step.computeCycles[3], std::uint32_t{6 * (5 + 3 * 4)});
    QCOMPARE(step.flops, std::uint64_t{12});
    bool found = false;
    for (const record::CodeletRecord& c : recorder.compiled.codelets) {
        if (c.name == "WeightedSum") {
            found = true;
            QCOMPARE(c.codeBytes, std::uint64_t{120});
            QCOMPARE(c.cycleFormula, std::string("10 + 2 * n"));
        }
    }
    QVERIFY(found);
}

void TestEngineRuntime::computeReturningFalseStopsTheRun() {
    Graph g(Target::preset("tiles:4"));
    g.addCodelet(CodeletBuilder<Refuses>("Refuses").field("data", &Refuses::data).build());
    Tensor d = g.addVariable(Type::Int, {2}, "d");
    g.setTileMapping(d, TileId{1u});
    const ComputeSet cs = g.addComputeSet("check");
    g.setTileMapping(g.addVertex(cs, "Refuses", {{"data", d}}), TileId{1u});
    record::InMemoryRecorder recorder;
    Engine engine(g, prog::Execute(cs, "checking"), options(2, &recorder));
    TESSERA_EXPECT_ERROR(Error, engine.run(), (QStringList{"Refuses#0", "tile 1", "'checking'"}));
    QCOMPARE(recorder.runEnds.size(), std::size_t{1});
    QVERIFY(!recorder.runEnds[0].completed);
    QVERIFY(recorder.runEnds[0].error.find("Refuses#0") != std::string::npos);
}

namespace {

// A program over 16 tiles: each step every tile combines its block with its
// neighbour's (remote) block, alternating buffers, inside a Repeat.
struct RingProgram {
    Graph graph{Target::preset("tiles:16")};
    Tensor a, b, c;
    prog::Program program;

    RingProgram() {
        a = graph.addVariable(Type::Float, {64}, "a");
        b = graph.addVariable(Type::Float, {64}, "b");
        c = graph.addVariable(Type::Float, {64}, "c");
        for (std::uint32_t t = 0; t < 16; ++t) {
            graph.setTileMapping(a.slice(4 * t, 4 * t + 4), record::idAt<TileId>(t));
            graph.setTileMapping(b.slice(4 * t, 4 * t + 4), record::idAt<TileId>((t + 5) % 16));
            graph.setTileMapping(c.slice(4 * t, 4 * t + 4), record::idAt<TileId>((t * 3) % 16));
        }
        const ComputeSet forward = graph.addComputeSet("forward");
        const ComputeSet backward = graph.addComputeSet("backward");
        const ComputeSet squash = graph.addComputeSet("squash");
        for (std::uint32_t t = 0; t < 16; ++t) {
            const std::size_t n = (t + 1) % 16;
            auto block = [](const Tensor& v, std::size_t i) { return v.slice(4 * i, 4 * i + 4); };
            graph.setTileMapping(
                graph.addVertex(forward, t % 2 ? "Add<float>" : "Mul<float>",
                                {{"in1", block(a, t)}, {"in2", block(a, n)}, {"out", block(b, t)}}),
                record::idAt<TileId>(t));
            graph.setTileMapping(
                graph.addVertex(backward, "Sub<float>",
                                {{"in1", block(b, n)}, {"in2", block(a, t)}, {"out", block(c, t)}}),
                record::idAt<TileId>((t + 7) % 16));
            graph.setTileMapping(
                graph.addVertex(squash, "Tanh<float>", {{"in", block(c, t)}, {"out", block(a, t)}}),
                record::idAt<TileId>(t));
        }
        program = prog::Sequence(
            {prog::Repeat(3, prog::Sequence({prog::Execute(forward), prog::Execute(backward),
                                             prog::Execute(squash)})),
             prog::Copy(a.reverse(0), c)});
        graph.createHostRead("c", c);
    }
};

} // namespace

void TestEngineRuntime::threadsDoNotChangeResults() {
    RingProgram ring;
    std::vector<double> init;
    for (int i = 0; i < 64; ++i) {
        init.push_back(std::sin(0.37 * i) * 1.5);
    }
    struct Result {
        std::vector<float> values;
        record::InMemoryRecorder recorder;
        std::uint64_t cycles = 0;
    };
    auto runWith = [&](unsigned threads, Result& r) {
        Engine engine(ring.graph, ring.program, options(threads, &r.recorder));
        QCOMPARE(engine.threads(), threads);
        engine.writeValues(ring.a, init);
        engine.run();
        engine.run();
        r.values.resize(64);
        engine.readTensor("c", r.values.data(), r.values.data() + 64);
        r.cycles = engine.cyclesSoFar();
    };
    Result one, four, fourAgain;
    runWith(1, one);
    runWith(4, four);
    runWith(4, fourAgain);
    // A host reference of the same arithmetic.
    std::vector<float> a(init.begin(), init.end()), b(64), c(64);
    for (int run = 0; run < 2; ++run) {
        for (int it = 0; it < 3; ++it) {
            for (std::size_t t = 0; t < 16; ++t) {
                for (std::size_t k = 0; k < 4; ++k) {
                    const float x = a[4 * t + k], y = a[4 * ((t + 1) % 16) + k];
                    b[4 * t + k] = t % 2 ? x + y : x * y;
                }
            }
            for (std::size_t t = 0; t < 16; ++t) {
                for (std::size_t k = 0; k < 4; ++k) {
                    c[4 * t + k] = b[4 * ((t + 1) % 16) + k] - a[4 * t + k];
                }
            }
            for (std::size_t i = 0; i < 64; ++i) {
                a[i] = std::tanh(c[i]);
            }
        }
        for (std::size_t i = 0; i < 64; ++i) {
            c[i] = a[63 - i];
        }
    }
    CHECK_EQUAL(one.values, c);
    CHECK_EQUAL(four.values, one.values);
    CHECK_EQUAL(fourAgain.values, one.values);
    QCOMPARE(four.cycles, one.cycles);
    QCOMPARE(fourAgain.cycles, one.cycles);
    QCOMPARE(four.recorder.steps.size(), one.recorder.steps.size());
    QCOMPARE(one.recorder.steps.size(), std::size_t{2 * (3 * 3 + 1)});
    for (std::size_t i = 0; i < one.recorder.steps.size(); ++i) {
        QCOMPARE(four.recorder.steps[i].programStep, one.recorder.steps[i].programStep);
        QCOMPARE(four.recorder.steps[i].startCycle, one.recorder.steps[i].startCycle);
        QCOMPARE(four.recorder.steps[i].cycles, one.recorder.steps[i].cycles);
    }
    const auto& s1 = one.recorder.compiled.programSteps;
    const auto& s4 = four.recorder.compiled.programSteps;
    QCOMPARE(s4.size(), s1.size());
    for (std::size_t i = 0; i < s1.size(); ++i) {
        QCOMPARE(s4[i].computeCycles, s1[i].computeCycles);
        QCOMPARE(s4[i].exchangeCycles, s1[i].exchangeCycles);
        QCOMPARE(s4[i].bytesIn, s1[i].bytesIn);
        QCOMPARE(s4[i].totalCycles, s1[i].totalCycles);
    }
    QCOMPARE(four.recorder.runEnds[1].cycles, one.recorder.runEnds[1].cycles);
}

QTEST_APPLESS_MAIN(TestEngineRuntime)
#include "tst_engine_runtime.moc"