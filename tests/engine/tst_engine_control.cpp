// The control programs the Poplar SDK lowers onto: Switch (one predicate
// step, a branch per case), Abort (with and without a predicate) and
// CycleStamp (the cycle counter, alone or as a difference from a start stamp).
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <cstdint>
#include <string>
#include <vector>

using namespace tessera;
namespace prog = tessera::program;

namespace {

EngineOptions oneThread() {
    EngineOptions o;
    o.threads = 1;
    return o;
}

// An Execute filling `out` with `value` (one Fill vertex on tile 0).
prog::Program fill(Graph& g, const Tensor& out, double value) {
    const ComputeSet cs = g.addComputeSet("fill " + std::to_string(value));
    const VertexRef v = g.addVertex(cs, "Fill<float>", {{"out", out}});
    g.setInitialValue(v["value"], value);
    g.setTileMapping(v, TileId{0u});
    return prog::Execute(cs);
}

} // namespace

// Library code opening Blocks for its caller: LibraryCall::at() names the
// enclosing function with its namespaces (a lambda's enclosing function).
namespace sample_library {
std::string named() {
    return prog::LibraryCall::at().function;
}
std::string fromLambda() {
    return [] { return prog::LibraryCall::at().function; }();
}
namespace {
std::string hidden() {
    return prog::LibraryCall::at().function;
}
} // namespace
std::string hiddenCaller() {
    return hidden();
}
} // namespace sample_library

namespace {

std::uint64_t stamp(const Engine& e, const Tensor& t) {
    const std::vector<std::uint32_t> w = e.read<std::uint32_t>(t);
    return w[0] | (std::uint64_t(w[1]) << 32);
}

} // namespace

class TestEngineControl : public QObject {
    Q_OBJECT
private slots:
    void libraryCallsNameTheirFunction() {
        QCOMPARE(sample_library::named(), std::string("sample_library::named"));
        QCOMPARE(sample_library::fromLambda(), std::string("sample_library::fromLambda"));
        QCOMPARE(sample_library::hiddenCaller(), std::string("sample_library::hidden"));
        const prog::Block block(prog::Sequence(), "op", prog::LibraryCall{"matMul"});
        QCOMPARE(block.node()->libraryFunction, std::string("matMul"));
        QCOMPARE(prog::Block(prog::Sequence(), "mine").node()->libraryFunction, std::string());
        QVERIFY_THROWS_EXCEPTION(Error, prog::Block(prog::Sequence(), "op", prog::LibraryCall{""}));
    }

    void switchRunsTheMatchingCase();
    void switchRejectsBadControls();
    void abortStopsTheRun();
    void cycleStampsTimePrograms();
};

void TestEngineControl::switchRunsTheMatchingCase() {
    Graph g(Target::preset("tiles:2"));
    Tensor control = g.addVariable(Type::Int, {}, "control");
    Tensor out = g.addVariable(Type::Float, {2}, "out");
    g.setTileMapping(control, TileId{1u});
    g.setTileMapping(out, TileId{0u});
    Engine engine(
        g,
        prog::Switch(control, {{3, fill(g, out, 30)}, {-2, fill(g, out, -20)}}, fill(g, out, 99)),
        oneThread());
    for (const auto& [value, want] :
         std::vector<std::pair<int, float>>{{3, 30}, {-2, -20}, {0, 99}, {4, 99}}) {
        engine.writeValues(control, std::vector<double>{double(value)});
        engine.run(0);
        QCOMPARE(engine.read<float>(out)[1], want);
    }
    // One predicate step and exactly one case body executed.
    const auto& steps = engine.compiled().steps;
    QCOMPARE(steps.front().kind, record::ProgramKind::Predicate);
    QCOMPARE(steps.size(), std::size_t(4));
}

void TestEngineControl::switchRejectsBadControls() {
    Graph g(Target::preset("tiles:2"));
    Tensor f = g.addVariable(Type::Float, {}, "f");
    Tensor two = g.addVariable(Type::Int, {2}, "two");
    const Tensor i = g.addVariable(Type::Int, {}, "i");
    const std::vector<std::pair<std::int64_t, prog::Program>> none, twice{{1, {}}, {1, {}}};
    auto floatControl = [&] { prog::Switch s(f, none); };
    auto vectorControl = [&] { prog::Switch s(two, none); };
    auto duplicateCase = [&] { prog::Switch s(i, twice); };
    TESSERA_EXPECT_ERROR(Error, floatControl(), (QStringList{"integer", "f"}));
    TESSERA_EXPECT_ERROR(Error, vectorControl(), (QStringList{"one-element", "two"}));
    TESSERA_EXPECT_ERROR(Error, duplicateCase(), (QStringList{"two cases", "1"}));
}

void TestEngineControl::abortStopsTheRun() {
    Graph g(Target::preset("tiles:2"));
    Tensor pred = g.addVariable(Type::Bool, {}, "pred");
    Tensor out = g.addVariable(Type::Float, {2}, "out");
    g.setTileMapping(pred, TileId{1u});
    g.setTileMapping(out, TileId{0u});
    Engine engine(g,
                  {prog::Sequence({prog::Abort(pred, "pred was set"), fill(g, out, 1)}),
                   prog::Sequence({prog::Abort("always"), fill(g, out, 2)})},
                  oneThread());
    engine.writeValues(pred, std::vector<double>{0});
    engine.run(0);
    QCOMPARE(engine.read<float>(out)[0], 1.0f);
    engine.writeValues(pred, std::vector<double>{1});
    engine.writeValues(out, std::vector<double>{0, 0});
    TESSERA_EXPECT_ERROR(AbortError, engine.run(0), (QStringList{"pred was set"}));
    QCOMPARE(engine.read<float>(out)[0], 0.0f); // the fill after the abort did not run
    TESSERA_EXPECT_ERROR(AbortError, engine.run(1), (QStringList{"always"}));
    QVERIFY(!engine.runActive());
}

void TestEngineControl::cycleStampsTimePrograms() {
    Graph g(Target::preset("tiles:2"));
    Tensor out = g.addVariable(Type::Float, {2}, "out");
    Tensor start = g.addVariable(Type::UnsignedInt, {2}, "start");
    Tensor count = g.addVariable(Type::UnsignedInt, {2}, "count");
    Tensor lone = g.addVariable(Type::UnsignedInt, {2}, "lone");
    for (const Tensor& t : {out, start, count, lone}) {
        g.setTileMapping(t, TileId{0u});
    }
    const prog::Program body = fill(g, out, 5);
    Engine engine(g,
                  prog::Sequence({prog::CycleStamp(start), body, body,
                                  prog::CycleStamp(count, start), prog::CycleStamp(lone)}),
                  oneThread());
    engine.run(0);
    const auto& steps = engine.compiled().steps;
    // steps: stamp, fill, fill, count stamp, lone stamp
    QCOMPARE(steps.size(), std::size_t(5));
    QCOMPARE(steps[0].kind, record::ProgramKind::CycleStamp);
    QCOMPARE(stamp(engine, start), steps[0].totalCycles());
    QCOMPARE(stamp(engine, count), 2 * steps[1].totalCycles());
    std::uint64_t total = 0;
    for (const auto& s : steps) {
        total += s.totalCycles();
    }
    QCOMPARE(stamp(engine, lone), total);
    QCOMPARE(engine.cyclesSoFar(), total);
    TESSERA_EXPECT_ERROR(Error, prog::CycleStamp{out}, (QStringList{"2 unsigned ints"}));
}

QTEST_APPLESS_MAIN(TestEngineControl)
#include "tst_engine_control.moc"
