// The engine survives its users' mistakes: user code that throws (a codelet's
// compute() or constructor, a cycle estimator, an edge-size check) becomes a
// CodeletError naming the vertex, codelet, tile and step, on any thread of the
// pool; shapes whose element count or byte size overflows 64 bits are refused
// with an Error naming the tensor, in the graph API and every view.
#include "EngineTestSupport.h"
#include "engine/codelets/Vertex.h"
#include "engine/core/Error.h"
#include "engine/debug/DebugSession.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Mapping.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <cmath>
#include <memory>
#include <stdexcept>

using namespace tessera;
namespace prog = tessera::program;

namespace {

constexpr std::size_t k2to33 = std::size_t{1} << 33;

// Throws what `kind` says when its data holds a negative value.
enum class Throw { Int, RuntimeError, EngineError, Struct };
struct Custom {
    int code;
};

template <Throw kind>
class Thrower : public Vertex {
public:
    Input<Vector<float>> in;
    void compute() {
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (in[i] < 0) {
                if constexpr (kind == Throw::Int) {
                    throw 42;
                } else if constexpr (kind == Throw::RuntimeError) {
                    throw std::runtime_error("negative input\nat element " + std::to_string(i));
                } else if constexpr (kind == Throw::EngineError) {
                    throw Error("my own engine error");
                } else {
                    throw Custom{7};
                }
            }
        }
    }
};

class ThrowsWhenMade : public Vertex {
public:
    ThrowsWhenMade() { throw std::logic_error("cannot construct"); }
    Input<Vector<float>> in;
    void compute() {}
};

// A graph of `tiles` tiles, one Thrower vertex per tile over 4 elements of x;
// the elements of `badTiles` are negative.
struct ThrowingProgram {
    Graph graph;
    Tensor x;
    ComputeSet cs;
    prog::Sequence program;

    template <Throw kind>
    static std::unique_ptr<ThrowingProgram> make(std::uint32_t tiles,
                                                 std::vector<std::uint32_t> badTiles) {
        std::unique_ptr<ThrowingProgram> made(new ThrowingProgram(tiles));
        ThrowingProgram& p = *made;
        p.graph.addCodelet(
            CodeletBuilder<Thrower<kind>>("Thrower").field("in", &Thrower<kind>::in).build());
        p.x = p.graph.addVariable(Type::Float, {tiles * 4u}, "x");
        std::vector<double> init(tiles * 4u, 1.0);
        for (std::uint32_t t : badTiles) {
            init[t * 4 + 2] = -1.0;
        }
        p.graph.setInitialValue(p.x, init);
        for (std::uint32_t t = 0; t < tiles; ++t) {
            const Tensor mine = p.x.slice(t * 4, t * 4 + 4);
            p.graph.setTileMapping(mine, record::idAt<TileId>(t));
            p.graph.setTileMapping(p.graph.addVertex(p.cs, "Thrower", {{"in", mine}}),
                                   record::idAt<TileId>(t));
        }
        p.program = prog::Sequence{prog::Execute(p.graph.addComputeSet("warm-up")),
                                   prog::Execute(p.cs, "checking")};
        return made;
    }

private:
    explicit ThrowingProgram(std::uint32_t tiles)
        : graph(Target::preset("tiles:" + std::to_string(tiles)))
        , cs(graph.addComputeSet("check")) {}
};

EngineOptions threads(unsigned n, record::Recorder* recorder = nullptr) {
    EngineOptions o;
    o.threads = n;
    o.recorder = recorder;
    return o;
}

} // namespace

class TestEngineRobustness : public QObject {
    Q_OBJECT

private slots:
    void throwingComputeIsAnError_data();
    void throwingComputeIsAnError();
    void throwingComputeOnManyThreadsNamesTheFirstTile();
    void throwingComputeStopsTheDebuggerAtTheStep();
    void throwingConstructorEstimatorAndCheck();
    void overflowingShapes_data();
    void overflowingShapes();
    void stateValuesFitTheirType_data();
    void stateValuesFitTheirType();
    void viewsThatWouldOverflow();
    void largeButCountableShapesStillWork();
    void tilesPastTheirAddressSpaceAreRefusedWhereTheyGrow();
    void targetParametersHaveRanges();
    void targetsTooLargeTogether();
};

void TestEngineRobustness::throwingComputeIsAnError_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("what");
    QTest::newRow("int") << int(Throw::Int) << "an exception of type 'int'";
    QTest::newRow("std::runtime_error")
        << int(Throw::RuntimeError) << "std::runtime_error: negative input at element 2";
    QTest::newRow("engine Error") << int(Throw::EngineError) << "threw my own engine error";
    QTest::newRow("a struct") << int(Throw::Struct) << "Custom'";
}

void TestEngineRobustness::throwingComputeIsAnError() {
    QFETCH(int, kind);
    QFETCH(QString, what);
    for (unsigned n : {1u, 3u}) {
        auto p =
            kind == int(Throw::Int)            ? ThrowingProgram::make<Throw::Int>(4, {2})
            : kind == int(Throw::RuntimeError) ? ThrowingProgram::make<Throw::RuntimeError>(4, {2})
            : kind == int(Throw::EngineError)  ? ThrowingProgram::make<Throw::EngineError>(4, {2})
                                               : ThrowingProgram::make<Throw::Struct>(4, {2});
        record::InMemoryRecorder recorder;
        Engine engine(p->graph, p->program, threads(n, &recorder));
        TESSERA_EXPECT_ERROR(CodeletError, engine.run(),
                             (QStringList{"vertex Thrower#2", "codelet 'Thrower'", "tile 2",
                                          "step 1 'checking'", what}));
        // The run is recorded as failed, and the engine can run again.
        QCOMPARE(recorder.runEnds.size(), std::size_t{1});
        QVERIFY(!recorder.runEnds[0].completed);
        QVERIFY(recorder.runEnds[0].error.find("Thrower#2") != std::string::npos);
        QVERIFY(recorder.runEnds[0].error.find('\n') == std::string::npos);
        TESSERA_EXPECT_ERROR(CodeletError, engine.run(), QStringList{"tile 2"});
    }
}

void TestEngineRobustness::throwingComputeOnManyThreadsNamesTheFirstTile() {
    // Every worker's chunk throws; whichever finishes first, the error is the
    // lowest tile's, as with one thread.
    auto p = ThrowingProgram::make<Throw::Int>(64, {5, 20, 40, 63});
    for (unsigned n : {1u, 2u, 4u, 8u}) {
        for (int again = 0; again < 5; ++again) {
            Engine engine(p->graph, p->program, threads(n));
            QCOMPARE(engine.threads(), n);
            TESSERA_EXPECT_ERROR(CodeletError, engine.run(),
                                 (QStringList{"Thrower#5", "tile 5", "'int'"}));
        }
    }
    // Without a bad tile the same program runs.
    auto fine = ThrowingProgram::make<Throw::Int>(64, {});
    Engine engine(fine->graph, fine->program, threads(4));
    engine.run();
}

void TestEngineRobustness::throwingComputeStopsTheDebuggerAtTheStep() {
    auto p = ThrowingProgram::make<Throw::Struct>(8, {6});
    Engine engine(p->graph, p->program, threads(4));
    debug::DebugSession session(engine, 0);
    const debug::Stop stop = session.continueRun();
    QCOMPARE(stop.reason, debug::StopReason::Error);
    QCOMPARE(stop.step, compiler::StepId{1u});
    QVERIFY2(stop.message.find("tile 6") != std::string::npos, stop.message.c_str());
    QVERIFY2(stop.message.find("Custom") != std::string::npos, stop.message.c_str());
}

void TestEngineRobustness::throwingConstructorEstimatorAndCheck() {
    {
        Graph g(Target::preset("tiles:4"));
        g.addCodelet(
            CodeletBuilder<ThrowsWhenMade>("Unmakeable").field("in", &ThrowsWhenMade::in).build());
        Tensor x = g.addVariable(Type::Float, {4}, "x");
        g.setTileMapping(x, TileId{3u});
        const ComputeSet cs = g.addComputeSet("make");
        g.setTileMapping(g.addVertex(cs, "Unmakeable", {{"in", x}}), TileId{3u});
        TESSERA_EXPECT_ERROR(CodeletError, Engine(g, prog::Execute(cs)),
                             (QStringList{"Unmakeable#0", "tile 3", "constructor",
                                          "std::logic_error: cannot construct"}));
    }
    {
        auto p = ThrowingProgram::make<Throw::Int>(4, {});
        p->graph.registerPerfEstimator(
            "Thrower", [](const VertexIntrospector&, const Target&) -> PerfEstimate { throw 3.5; });
        TESSERA_EXPECT_ERROR(CodeletError, Engine(p->graph, p->program),
                             (QStringList{"Thrower#0", "tile 0", "cycle estimator", "'double'"}));
    }
    {
        Graph g(Target::preset("tiles:4"));
        g.addCodelet(CodeletBuilder<Thrower<Throw::Int>>("Checked")
                         .field("in", &Thrower<Throw::Int>::in)
                         .validator([](const VertexIntrospector&) -> std::string { throw 1; })
                         .build());
        Tensor x = g.addVariable(Type::Float, {4}, "x");
        g.setTileMapping(x, TileId{1u});
        const ComputeSet cs = g.addComputeSet("c");
        g.setTileMapping(g.addVertex(cs, "Checked", {{"in", x}}), TileId{1u});
        TESSERA_EXPECT_ERROR(CodeletError, Engine(g, prog::Execute(cs)),
                             (QStringList{"Checked#0", "tile 1", "edge-size check", "'int'"}));
    }
}

void TestEngineRobustness::overflowingShapes_data() {
    QTest::addColumn<Action>("action");
    QTest::addColumn<QStringList>("names");
    auto graph = std::make_shared<Graph>(Target::preset("tiles:4"));
    const std::size_t big = k2to33;
    QTest::newRow("addVariable {2^33, 2^33}") << Action([=] {
        graph->addVariable(Type::Float, {big, big}, "huge");
    }) << QStringList{"addVariable 'huge'", "{8589934592,8589934592}", "float"};
    QTest::newRow("elements fit, bytes do not")
        << Action([=] { graph->addVariable(Type::Float, {std::size_t{1} << 62}, "wide"); })
        << QStringList{"'wide'", "{4611686018427387904}", "bytes"};
    QTest::newRow("a zero does not hide the overflow") << Action([=] {
        graph->addVariable(Type::Half, {big, 0, big}, "hollow");
    }) << QStringList{"'hollow'", "{8589934592,0,8589934592}"};
    QTest::newRow("addConstant") << Action([=] {
        graph->addConstant(Type::Int, {big, big, 4}, 0.0, "c");
    }) << QStringList{"addConstant 'c'"};
    QTest::newRow("host stream") << Action([=] {
        graph->addHostToDeviceFIFO("in", Type::Float, std::size_t(-1) / 2);
    }) << QStringList{"addHostToDeviceFIFO 'in'"};
    QTest::newRow("wrapping to one element")
        << Action([=] { // 3 x 0xAAAAAAAAAAAAAAAB == 1 modulo 2^64
               Tensor t = graph->addVariable(Type::Float, {1}, "one");
               (void)t.reshape({3, 0xAAAAAAAAAAAAAAABull});
           })
        << QStringList{"'one'", "reshape", "{3,12297829382473034411}"};
}

void TestEngineRobustness::overflowingShapes() {
    QFETCH(Action, action);
    QFETCH(QStringList, names);
    TESSERA_EXPECT_ERROR(Error, action(), names);
}

struct Stateful {
    Input<Vector<float>> in;
    unsigned count = 0;
    int offset = 0;
    bool flag = false;
    float scale = 1;
    bool compute() { return true; }
};

// An integer state member holds what its type holds (estimators and edge
// checks read it back as an integer); a float one takes any value.
void TestEngineRobustness::stateValuesFitTheirType_data() {
    QTest::addColumn<QString>("state");
    QTest::addColumn<double>("value");
    QTest::addColumn<bool>("fits");
    QTest::newRow("unsigned max") << "count" << 4294967295.0 << true;
    QTest::newRow("unsigned 2^32") << "count" << 4294967296.0 << false;
    QTest::newRow("unsigned -1") << "count" << -1.0 << false;
    QTest::newRow("unsigned 1e155") << "count" << 1.07e155 << false;
    QTest::newRow("unsigned NaN") << "count" << std::nan("") << false;
    QTest::newRow("int min") << "offset" << -2147483648.0 << true;
    QTest::newRow("int below min") << "offset" << -2147483649.0 << false;
    QTest::newRow("int 2^31") << "offset" << 2147483648.0 << false;
    QTest::newRow("bool 2") << "flag" << 2.0 << true;
    QTest::newRow("bool inf") << "flag" << HUGE_VAL << false;
    QTest::newRow("float 1e155") << "scale" << 1.07e155 << true;
}

void TestEngineRobustness::stateValuesFitTheirType() {
    QFETCH(QString, state);
    QFETCH(double, value);
    QFETCH(bool, fits);
    Graph g(Target::preset("tiles:4"));
    g.addCodelet(CodeletBuilder<Stateful>("Stateful")
                     .field("in", &Stateful::in)
                     .state("count", &Stateful::count)
                     .state("offset", &Stateful::offset)
                     .state("flag", &Stateful::flag)
                     .state("scale", &Stateful::scale)
                     .build());
    const ComputeSet cs = g.addComputeSet("cs");
    const VertexRef v = g.addVertex(cs, "Stateful");
    const std::string name = state.toStdString();
    if (fits) {
        g.setInitialValue(v[name], value);
    } else {
        TESSERA_EXPECT_ERROR(Error, g.setInitialValue(v[name], value),
                             (QStringList{"setInitialValue", "'" + state + "'", "Stateful"}));
    }
}

void TestEngineRobustness::viewsThatWouldOverflow() {
    Graph g(Target::preset("tiles:4"));
    const std::size_t half = std::size_t{1} << 60; // 2^60 floats: 2^62 bytes, countable
    Tensor x = g.addVariable(Type::Float, {half}, "x");
    TESSERA_EXPECT_ERROR(Error, (void)concat({x, x, x, x}),
                         (QStringList{"concat('x'", "{4611686018427387904}", "bytes"}));
    TESSERA_EXPECT_ERROR(Error, (void)concat(std::vector<Tensor>(16, x)),
                         (QStringList{"concat", "dimension 0", "16 tensors", "'x'"}));
    TESSERA_EXPECT_ERROR(Error, (void)x.broadcast(16, 0), (QStringList{"'x'", "broadcast 16"}));
    Tensor y = g.addVariable(Type::Float, {2, k2to33}, "y");
    TESSERA_EXPECT_ERROR(Error, (void)y.expand({0}).broadcast(k2to33 * k2to33 / 2, 0),
                         QStringList{"'y'"});
    TESSERA_EXPECT_ERROR(Error, (void)y.reshape({k2to33, k2to33, 0}),
                         (QStringList{"'y'", "reshape"}));
    // The graph is untouched by the refused calls and still compiles.
    QCOMPARE(g.variables().size(), std::size_t{2});
}

void TestEngineRobustness::largeButCountableShapesStillWork() {
    Graph g(Target::preset("tiles:4"));
    Tensor e = g.addVariable(Type::Float, {k2to33, 0}, "empty");
    QCOMPARE(e.numElements(), std::size_t{0});
    QCOMPARE(e.flatten().numElements(), std::size_t{0});
    Tensor x = g.addVariable(Type::Float, {std::size_t{1} << 40}, "x");
    QCOMPARE(x.reshape({std::size_t{1} << 20, std::size_t{1} << 20}).dim(1), std::size_t{1} << 20);
    QCOMPARE(concat({x, x}).numElements(), std::size_t{1} << 41);
    // It maps, and compiling says it does not fit rather than dying or trying
    // to allocate 4 TiB, even with allowOutOfMemory: a tile's addresses are
    // 32-bit.
    g.setTileMapping(x, TileId{0u});
    g.setTileMapping(e, TileId{0u});
    for (bool allow : {false, true}) {
        EngineOptions options;
        options.allowOutOfMemory = allow;
        TESSERA_EXPECT_ERROR(
            Error, Engine(g, prog::Sequence{}, options),
            (QStringList{"out of memory", "tile 0", "needs 43980465", "32-bit address space"}));
    }
    // Within the address space, allowOutOfMemory still runs it.
    Graph small(Target::preset("tiles:4"));
    Tensor y = small.addVariable(Type::Float, {1u << 20}, "y");
    small.setTileMapping(y, TileId{1u});
    TESSERA_EXPECT_ERROR(OutOfMemoryError, Engine(small, prog::Sequence{}),
                         (QStringList{"tile 1", "needs 41"}));
    EngineOptions anyway;
    anyway.allowOutOfMemory = true;
    Engine engine(small, prog::Sequence{}, anyway);
    engine.run();
}

// A tile's addresses are 32-bit. Placement refuses one block past them (above);
// here each block fits, and the tile does not: laid out together, or as the
// exchange buffer a step receives into. Both refuse with the layout's message,
// whether or not out-of-memory programs are allowed, and name the tile and the
// bytes of the pass that grew past it.
void TestEngineRobustness::tilesPastTheirAddressSpaceAreRefusedWhereTheyGrow() {
    const std::size_t twoGiBOfFloats = std::size_t{1} << 29; // 2^31 bytes each
    for (bool allow : {false, true}) {
        EngineOptions options;
        options.allowOutOfMemory = allow;
        {
            // Laid out: 2^31 + 2^31 bytes of variables, each a block of its own.
            Graph g(Target::preset("tiles:4"));
            for (const char* name : {"a", "b"}) {
                g.setTileMapping(g.addVariable(Type::Float, {twoGiBOfFloats}, name), TileId{2u});
            }
            // 2^32 bytes and the tile's own few kB: "needs 42949xxxxx".
            TESSERA_EXPECT_ERROR(
                Error, Engine(g, prog::Sequence{}, options),
                (QStringList{"out of memory", "tile 2", "needs 42949", "32-bit address space"}));
        }
        {
            // Exchanged: a vertex on tile 3 reads 2^31 bytes from tile 0 and
            // 2^31 from tile 1; its step's receive buffer on tile 3 alone is
            // 2^32 bytes, before the layout adds the output's 2^31.
            Graph g(Target::preset("tiles:4"));
            Tensor a = g.addVariable(Type::Float, {twoGiBOfFloats}, "a");
            Tensor b = g.addVariable(Type::Float, {twoGiBOfFloats}, "b");
            Tensor c = g.addVariable(Type::Float, {twoGiBOfFloats}, "c");
            g.setTileMapping(a, TileId{0u});
            g.setTileMapping(b, TileId{1u});
            g.setTileMapping(c, TileId{3u});
            const ComputeSet cs = g.addComputeSet("sum");
            const VertexRef v = g.addVertex(cs, "Add<float>", {{"in1", a}, {"in2", b}, {"out", c}});
            g.setTileMapping(v, TileId{3u});
            TESSERA_EXPECT_ERROR(Error, Engine(g, prog::Execute(cs), options),
                                 (QStringList{"out of memory", "tile 3", "needs 4294967296",
                                              "32-bit address space"}));
        }
    }
}

void TestEngineRobustness::targetParametersHaveRanges() {
    for (const std::string& key : Target::parameterNames()) {
        const std::string range = Target::parameterRange(key);
        QVERIFY2(!range.empty(), key.c_str());
        // Every preset's value is in range, so a preset round-trips through set().
        for (const char* preset : {"mk1", "mk2", "bow", "tiles:1", "tiles:8192"}) {
            Target t = Target::preset(preset);
            t.set(key, t.get(key));
            t.validate();
        }
        for (const char* bad : {"", "abc", "-1", "99999999999999999999", "4294967297",
                                "1000000000000", "0x10", " 5", "+5", "1e400", "nan"}) {
            Target t = Target::preset("tiles:4");
            if (key == "name" && std::string(bad) != "") {
                continue; // any non-empty name of up to 256 bytes
            }
            if (key == "clockHz" &&
                (std::string(bad) == "4294967297" || std::string(bad) == "1000000000000")) {
                continue; // 4.3 GHz and 1 THz are clocks it takes
            }
            TESSERA_EXPECT_ERROR(Error, t.set(key, bad),
                                 (QStringList{QString::fromStdString("target parameter '" + key +
                                                                     "' must be " + range),
                                              QString("not '") + bad + "'"}));
        }
    }
    Target t = Target::preset("tiles:4");
    TESSERA_EXPECT_ERROR(Error, t.set("name", std::string(257, 'x')),
                         QStringList{"a name of 1 to 256 bytes"});
    TESSERA_EXPECT_ERROR(Error, t.set("tilesPerIPU", "8193"),
                         QStringList{"'tilesPerIPU' must be an integer from 1 to 8192"});
    TESSERA_EXPECT_ERROR(Error, t.set("clockHz", "999"),
                         QStringList{"'clockHz' must be a number from 1000 to 1e12"});
    TESSERA_EXPECT_ERROR(Error, t.set("bytesPerTile", "1023"), QStringList{"'bytesPerTile'"});
    t.set("bytesPerTile", "1024");
    t.set("clockHz", "1e12");
    t.set("exchangeLatencyCycles", "0");
    t.validate();
    for (const char* preset : {"tiles:100000000", "tiles:8193", "tiles:0", "custom:-4",
                               "tiles:4294967297", "tiles:", "tiles:1e3"}) {
        TESSERA_EXPECT_ERROR(Error, Target::preset(preset),
                             (QStringList{QString("'") + preset + "'", "1 to 8192"}));
    }
}

void TestEngineRobustness::targetsTooLargeTogether() {
    Target t = Target::preset("tiles:8192");
    t.set("numIPUs", "16");
    t.validate(); // 131072 tiles: the most
    t.set("numIPUs", "17");
    TESSERA_EXPECT_ERROR(Error, t.validate(), (QStringList{"tiles:8192", "131072 tiles"}));
    Target high = Target::preset("tiles:4");
    high.set("memoryBaseAddress", "4294500000");
    TESSERA_EXPECT_ERROR(Error, Graph{high}, (QStringList{"memoryBaseAddress", "32-bit"}));
}

QTEST_GUILESS_MAIN(TestEngineRobustness)
#include "tst_engine_robustness.moc"
