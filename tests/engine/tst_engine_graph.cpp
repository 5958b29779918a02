// Graph API misuse (each error names the object), tile mappings, target
// presets and overrides. Element types and half conversions: tst_engine_types.
#include "EngineTestSupport.h"
#include "engine/codelets/Vertex.h"
#include "engine/core/Error.h"
#include "engine/core/Half.h"
#include "engine/core/Type.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>

using namespace tessera;
namespace prog = tessera::program;

namespace {

class Doubler : public Vertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;
    void compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = 2 * in[i];
        }
    }
};

} // namespace

class TestEngineGraph : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();

    void misuse_data();
    void misuse();
    void tileMappingOfViews();
    void laterMappingOverridesEarlier();
    void randomMappingsMatchReference();
    void initialValuesAndConstants();
    void codeletRegistry();
    void engineMisuse();
    void validatedTargetRejectedByGraph();

    void presets_data();
    void presets();
    void presetRegions();
    void overrides();
    void overrideErrors_data();
    void overrideErrors();
    void everyParameterRoundTrips();
    void multiIpuTiles();
    void connectRowsEntriesAreTheRows();

private:
    std::unique_ptr<Graph> graph_;
    std::unique_ptr<Graph> other_;
    Tensor x_, y_, h_, foreign_;
    ComputeSet cs_;
    DataStream in_, out_;
};

void TestEngineGraph::initTestCase() {
    graph_ = std::make_unique<Graph>(Target::preset("tiles:4"));
    other_ = std::make_unique<Graph>(Target::preset("tiles:4"));
    x_ = graph_->addVariable(Type::Float, {8}, "x");
    y_ = graph_->addVariable(Type::Float, {6}, "y");
    h_ = graph_->addVariable(Type::Half, {8}, "h");
    foreign_ = other_->addVariable(Type::Float, {8}, "foreign");
    cs_ = graph_->addComputeSet("work");
    in_ = graph_->addHostToDeviceFIFO("in", Type::Float, 8);
    out_ = graph_->addDeviceToHostFIFO("out", Type::Float, 8);
    graph_->createHostWrite("hw", x_);
}

void TestEngineGraph::misuse_data() {
    QTest::addColumn<Action>("action");
    QTest::addColumn<QStringList>("names");
    Graph* gp = graph_.get();
    const Tensor x = x_, y = y_, h = h_, foreign = foreign_;
    const ComputeSet cs = cs_;
    const DataStream in = in_, out = out_;

    QTest::newRow("tensor mapped outside target")
        << Action([=] { gp->setTileMapping(x, TileId{4u}); })
        << QStringList{"'x'", "tile 4", "tiles:4"};
    QTest::newRow("view mapped outside target")
        << Action([=] { gp->setTileMapping(x.slice(2, 4), TileId{1000u}); })
        << QStringList{"'x'", "tile 1000"};
    QTest::newRow("vertex mapped outside target") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Add<float>");
        gp->setTileMapping(v, TileId{7u});
    }) << QStringList{"Add<float>", "tile 7", "'work'"};
    QTest::newRow("unknown codelet") << Action([=] { gp->addVertex(cs, "Frobnicate<float>"); })
                                     << QStringList{"Frobnicate<float>"};
    QTest::newRow("codelet with the wrong type name")
        << Action([=] { gp->addVertex(cs, "Add<double>"); }) << QStringList{"Add<double>"};
    QTest::newRow("unknown field") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Add<float>");
        gp->connect(v["in3"], x);
    }) << QStringList{"in3", "Add<float>"};
    QTest::newRow("unknown field in addVertex") << Action([=] {
        gp->addVertex(cs, "Exp<float>", {{"input", x}});
    }) << QStringList{"input", "Exp<float>"};
    QTest::newRow("type mismatch on connect") << Action([=] {
        gp->addVertex(cs, "Add<float>", {{"in1", h}});
    }) << QStringList{"in1", "'h'", "half", "float", "Add<float>"};
    QTest::newRow("half codelet given float") << Action([=] {
        gp->addVertex(cs, "Exp<half>", {{"out", x}});
    }) << QStringList{"out", "'x'", "Exp<half>"};
    QTest::newRow("scalar field with a vector") << Action([=] {
        gp->addVertex(cs, "AddScalar<float>", {{"scalar", x}});
    }) << QStringList{"scalar", "'x'", "8 elements", "AddScalar<float>"};
    QTest::newRow("scalar output with a slice") << Action([=] {
        gp->addVertex(cs, "ReduceAdd<float>", {{"out", y.slice(0, 2)}});
    }) << QStringList{"out", "'y'", "ReduceAdd<float>"};
    QTest::newRow("vector list given one tensor") << Action([=] {
        gp->addVertex(cs, "ReducePartials<float,float>", {{"partials", x}});
    }) << QStringList{"partials", "vector list", "ReducePartials<float,float>"};
    QTest::newRow("vector list index beyond size") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "ReducePartials<float,float>");
        gp->setFieldSize(v["partials"], 2);
        gp->connect(v["partials"][1], x);
        gp->connect(v["partials"][2], x);
    }) << QStringList{"partials", "index 2", "size 2"};
    QTest::newRow("vector list entry of wrong type") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "ReducePartials<float,float>");
        gp->connect(v["partials"], std::vector<Tensor>{x, h});
    }) << QStringList{"partials", "'h'", "half"};
    QTest::newRow("rows given to a vector field") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Add<float>");
        gp->connectRows(v["in1"], x.reshape({2, 4}));
    }) << QStringList{"in1", "not a vector list"};
    QTest::newRow("rows of a 1-D tensor") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "ReducePartials<float,float>");
        gp->connectRows(v["partials"], x);
    }) << QStringList{"partials", "'x'", "2-D", "{8}"};
    QTest::newRow("rows of the wrong type") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "ReducePartials<float,float>");
        gp->connectRows(v["partials"], h.reshape({2, 4}));
    }) << QStringList{"partials", "'h'", "half"};
    QTest::newRow("indexing a vector field") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Add<float>");
        gp->connect(v["in1"][0], x);
    }) << QStringList{"in1", "Add<float>", "not a vector list"};
    QTest::newRow("list given to a vector field") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Add<float>");
        gp->connect(v["in1"], std::vector<Tensor>{x, x});
    }) << QStringList{"in1", "not a vector list"};
    QTest::newRow("setFieldSize on a vector field") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Add<float>");
        gp->setFieldSize(v["out"], 3);
    }) << QStringList{"out", "Add<float>"};
    QTest::newRow("unknown state member") << Action([=] {
        const VertexRef v = gp->addVertex(cs, "Fill<float>");
        gp->setInitialValue(v["valu"], 1.0);
    }) << QStringList{"valu", "Fill<float>"};
    QTest::newRow("estimator for unknown codelet")
        << Action([=] { gp->registerPerfEstimator("Nope<float>", PerfEstimator()); })
        << QStringList{"Nope<float>"};
    QTest::newRow("initial values of the wrong count") << Action([=] {
        gp->setInitialValue(x, std::vector<double>{1, 2, 3});
    }) << QStringList{"'x'", "8 elements", "3 values"};
    QTest::newRow("constant of the wrong count") << Action([=] {
        gp->addConstant(Type::Float, {4}, std::vector<double>{1, 2}, "k");
    }) << QStringList{"'k'"};
    QTest::newRow("tensor of another graph mapped")
        << Action([=] { gp->setTileMapping(foreign, TileId{0u}); })
        << QStringList{"'foreign'", "another graph"};
    QTest::newRow("tensor of another graph connected") << Action([=] {
        gp->addVertex(cs, "Exp<float>", {{"in", foreign}});
    }) << QStringList{"'foreign'", "another graph"};
    QTest::newRow("vertex of another graph") << Action([=] {
        gp->setTileMapping(VertexRef{nullptr, VertexId{0u}}, TileId{0u});
    }) << QStringList{"vertex"};
    QTest::newRow("field by name of another graph's vertex") << Action([=] {
        gp->connect(VertexRef{nullptr, VertexId{0u}}, "in", x);
    }) << QStringList{"unknown vertex", "'in'"};
    QTest::newRow("field by name of a vertex never made") << Action([=] {
        gp->connect(VertexRef{gp, VertexId{4096u}}, "in", x);
    }) << QStringList{"unknown vertex", "'in'"};
    QTest::newRow("unknown field by name")
        << Action([=] { gp->connect(gp->addVertex(cs, "Exp<float>"), "inn", x); })
        << QStringList{"'inn'", "Exp<float>"};
    QTest::newRow("unknown compute set")
        << Action([=] { gp->addVertex(ComputeSet{ComputeSetId{99u}}, "Add<float>"); })
        << QStringList{"Add<float>"};
    QTest::newRow("Copy type mismatch")
        << Action([=] { prog::Copy(x, h); }) << QStringList{"'x'", "'h'", "float", "half"};
    QTest::newRow("Copy size mismatch")
        << Action([=] { prog::Copy(x, y); }) << QStringList{"'x'", "'y'", "8", "6"};
    QTest::newRow("Copy of an empty tensor")
        << Action([=] { prog::Copy(x, Tensor(), "copyName"); }) << QStringList{"copyName"};
    QTest::newRow("stream used the wrong way")
        << Action([=] { prog::Copy(x, in); }) << QStringList{"'in'", "host to device"};
    QTest::newRow("stream to host used the wrong way")
        << Action([=] { prog::Copy(out, x); }) << QStringList{"'out'", "device to host"};
    QTest::newRow("stream type mismatch")
        << Action([=] { prog::Copy(in, h); }) << QStringList{"'in'", "'h'", "half"};
    QTest::newRow("stream size mismatch")
        << Action([=] { prog::Copy(x.slice(0, 4), out); }) << QStringList{"'out'", "'x'", "8", "4"};
    QTest::newRow("duplicate stream")
        << Action([=] { gp->addHostToDeviceFIFO("out", Type::Float, 1); }) << QStringList{"'out'"};
    QTest::newRow("duplicate host write handle")
        << Action([=] { gp->createHostWrite("hw", y); }) << QStringList{"'hw'"};
    QTest::newRow("unknown stream")
        << Action([=] { (void)gp->stream("sideways"); }) << QStringList{"'sideways'"};
    QTest::newRow("If with a vector predicate")
        << Action([=] { prog::If(x, prog::Sequence()); }) << QStringList{"If", "'x'"};
    QTest::newRow("RepeatWhileTrue with a vector predicate")
        << Action([=] { prog::RepeatWhileTrue(prog::Sequence(), y, prog::Sequence()); })
        << QStringList{"RepeatWhileTrue", "'y'"};
    QTest::newRow("Execute of no compute set")
        << Action([=] { prog::Execute(ComputeSet{}); }) << QStringList{"compute set"};
    QTest::newRow("PrintTensor of an empty tensor")
        << Action([=] { prog::PrintTensor("title", Tensor()); }) << QStringList{"'title'"};
    QTest::newRow("Sequence containing itself") << Action([=] {
        prog::Sequence seq({}, "loop");
        seq.add(seq);
    }) << QStringList{"'loop'"};
    QTest::newRow("unknown type name")
        << Action([=] { (void)typeFromName("quad"); }) << QStringList{"'quad'"};
}

void TestEngineGraph::misuse() {
    QFETCH(Action, action);
    QFETCH(QStringList, names);
    TESSERA_EXPECT_ERROR(Error, action(), names);
}

void TestEngineGraph::tileMappingOfViews() {
    Graph g(Target::preset("tiles:4"));
    Tensor m = g.addVariable(Type::Float, {2, 4}, "m");
    g.setTileMapping(m[0], TileId{1u});             // elements 0..3
    g.setTileMapping(m[1].slice(0, 2), TileId{2u}); // elements 4, 5
    g.setTileMapping(m[1].slice(2, 4), TileId{3u}); // elements 6, 7
    using Intervals = std::vector<std::pair<std::size_t, std::size_t>>;
    auto mapping = g.getTileMapping(m);
    QCOMPARE(mapping.size(), std::size_t{4});
    QCOMPARE(mapping[0], Intervals{});
    QCOMPARE(mapping[1], (Intervals{{0, 4}}));
    QCOMPARE(mapping[2], (Intervals{{4, 6}}));
    QCOMPARE(mapping[3], (Intervals{{6, 8}}));
    // The transpose {4,2}: flat j = (c, r) holds m[r][c] = element r*4 + c.
    // Tile 1 holds r = 0, i.e. flat 0,2,4,6; tile 2 holds (c<2, r=1): 1,3; tile 3: 5,7.
    mapping = g.getTileMapping(m.transpose());
    QCOMPARE(mapping[1], (Intervals{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
    QCOMPARE(mapping[2], (Intervals{{1, 2}, {3, 4}}));
    QCOMPARE(mapping[3], (Intervals{{5, 6}, {7, 8}}));
    // A view over two variables.
    Tensor v = g.addVariable(Type::Float, {3}, "v");
    g.setTileMapping(v, TileId{0u});
    mapping = g.getTileMapping(concat(m[1].reverse(0), v));
    QCOMPARE(mapping[0], (Intervals{{4, 7}}));
    QCOMPARE(mapping[2], (Intervals{{2, 4}}));
    QCOMPARE(mapping[3], (Intervals{{0, 2}}));
}

void TestEngineGraph::laterMappingOverridesEarlier() {
    Graph g(Target::preset("tiles:4"));
    Tensor v = g.addVariable(Type::Int, {10}, "v");
    g.setTileMapping(v, TileId{0u});
    g.setTileMapping(v.slice(3, 6), TileId{2u});
    g.setTileMapping(v.slice(5, 8), TileId{3u});
    using Intervals = std::vector<std::pair<std::size_t, std::size_t>>;
    const auto mapping = g.getTileMapping(v);
    QCOMPARE(mapping[0], (Intervals{{0, 3}, {8, 10}}));
    QCOMPARE(mapping[2], (Intervals{{3, 5}}));
    QCOMPARE(mapping[3], (Intervals{{5, 8}}));
    const TileMapping& tm = g.variables()[0].mapping;
    QCOMPARE(tm.tileOf(4), TileId{2u});
    QCOMPARE(tm.tileOf(9), TileId{0u});
    QCOMPARE(tm.tileOf(10), TileId::none());
    QCOMPARE(tm.firstUnmapped(10), std::size_t{10});
    QCOMPARE(tm.firstUnmapped(12), std::size_t{10});
}

void TestEngineGraph::randomMappingsMatchReference() {
    // Random overlapping setTileMapping calls on slices and reversed views;
    // the engine's mapping must equal "last assignment wins" per element.
    std::mt19937 rng(7);
    for (int round = 0; round < 20; ++round) {
        Graph g(Target::preset("tiles:8"));
        const std::size_t n = 1 + rng() % 64;
        Tensor v = g.addVariable(Type::Float, {n}, "v");
        std::vector<TileId> ref(n, TileId::none());
        for (int k = 0; k < 30; ++k) {
            std::size_t b = rng() % (n + 1), e = rng() % (n + 1);
            if (b > e) {
                std::swap(b, e);
            }
            const auto tile = record::idAt<TileId>(rng() % 8);
            const bool reversed = rng() % 2;
            // Reversed: positions [b, e) of v.reverse(0) are elements (n-e, n-b].
            g.setTileMapping(reversed ? v.reverse(0).slice(b, e) : v.slice(b, e), tile);
            for (std::size_t i = b; i < e; ++i) {
                ref[reversed ? n - 1 - i : i] = tile;
            }
        }
        const TileMapping& tm = g.variables()[0].mapping;
        std::size_t firstUnmapped = n;
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(tm.tileOf(i), ref[i]);
            if (ref[i] == TileId::none() && firstUnmapped == n) {
                firstUnmapped = i;
            }
        }
        QCOMPARE(tm.firstUnmapped(n), firstUnmapped);
        // intervals(): sorted, disjoint, maximal runs of one tile.
        const auto ivs = tm.intervals();
        for (std::size_t k = 0; k < ivs.size(); ++k) {
            QVERIFY(ivs[k].begin < ivs[k].end);
            for (std::size_t i = ivs[k].begin; i < ivs[k].end; ++i) {
                QCOMPARE(ivs[k].tile, ref[i]);
            }
            if (k > 0) {
                QVERIFY(ivs[k - 1].end <= ivs[k].begin);
                QVERIFY(ivs[k - 1].end < ivs[k].begin || ivs[k - 1].tile != ivs[k].tile);
            }
        }
        // getTileMapping of the whole variable lists exactly the reference.
        const auto perTile = g.getTileMapping(v);
        std::vector<TileId> fromMapping(n, TileId::none());
        for (std::uint32_t t = 0; t < 8; ++t) {
            for (const auto& [b, e] : perTile[t]) {
                for (std::size_t i = b; i < e; ++i) {
                    QCOMPARE(fromMapping[i], TileId::none());
                    fromMapping[i] = TileId{t};
                }
            }
        }
        QCOMPARE(fromMapping, ref);
    }
}

void TestEngineGraph::initialValuesAndConstants() {
    Graph g(Target::preset("tiles:4"));
    const std::vector<double> values{1.5, -2, 3.25, 4};
    Tensor c = g.addConstant(Type::Float, {4}, values, "c");
    QVERIFY(g.variables()[0].isConstant);
    QCOMPARE(g.variables()[0].initialValue.size(), std::size_t{16});
    float stored[4];
    std::memcpy(stored, g.variables()[0].initialValue.data(), sizeof stored);
    QCOMPARE(stored[0], 1.5f);
    QCOMPARE(stored[1], -2.0f);
    QCOMPARE(stored[2], 3.25f);
    QCOMPARE(stored[3], 4.0f);
    // Initial value through a reversed view lands reversed in the variable.
    Tensor v = g.addVariable(Type::Int, {3}, "v");
    g.setInitialValue(v.reverse(0), std::vector<double>{10, 20, 30});
    std::int32_t ints[3];
    std::memcpy(ints, g.variables()[1].initialValue.data(), sizeof ints);
    QCOMPARE(ints[0], 30);
    QCOMPARE(ints[1], 20);
    QCOMPARE(ints[2], 10);
    Tensor filled = g.addConstant(Type::Half, {2}, 0.5, "");
    QCOMPARE(g.variables()[2].name, std::string("const2"));
    std::uint16_t halves[2];
    std::memcpy(halves, g.variables()[2].initialValue.data(), sizeof halves);
    QCOMPARE(halves[0], std::uint16_t{0x3800});
    QCOMPARE(halves[1], std::uint16_t{0x3800});
    QVERIFY(filled.valid() && c.valid());
}

void TestEngineGraph::codeletRegistry() {
    const CodeletRegistry& builtins = CodeletRegistry::builtins();
    for (const char* name :
         {"Add<float>", "Add<half>", "AddScalar<float>", "Exp<float>", "ReduceAdd<float>",
          "ReduceMax<half>", "ReducePartials<float,float>", "MatMulPartial<float,float>",
          "Fill<bool>", "ScaledAdd<float>", "Cast<float,half>"}) {
        QVERIFY2(builtins.find(name) != nullptr, name);
    }
    const CodeletInfo& add = builtins.get("Add<float>");
    QCOMPARE(add.fields.size(), std::size_t{3});
    QCOMPARE(add.fields[0].name, std::string("in1"));
    QCOMPARE(add.fields[2].direction, FieldDirection::Output);
    QCOMPARE(add.fields[2].shape, FieldShape::Vector);
    const CodeletInfo& partials = builtins.get("ReducePartials<float,float>");
    QCOMPARE(partials.field("partials")->shape, FieldShape::VectorList);
    QCOMPARE(builtins.get("AddScalar<float>").field("scalar")->shape, FieldShape::Scalar);
    QCOMPARE(builtins.get("ScaledAdd<float>").field("data")->direction, FieldDirection::InOut);
    TESSERA_EXPECT_ERROR(Error, builtins.get("Missing<float>"), QStringList{"Missing<float>"});
    TESSERA_EXPECT_ERROR(Error, add.fieldIndex("zz"), (QStringList{"zz", "Add<float>"}));

    // A user codelet; adding a second one of the same name keeps the first.
    Graph g(Target::preset("tiles:4"));
    g.addCodelet(CodeletBuilder<Doubler>("Doubler")
                     .field("in", &Doubler::in)
                     .field("out", &Doubler::out)
                     .codeBytes(40)
                     .build());
    g.addCodelet(
        CodeletBuilder<Doubler>("Doubler").field("in", &Doubler::in).codeBytes(99).build());
    QCOMPARE(g.codelet("Doubler").codeBytes, std::uint32_t{40});
    QCOMPARE(g.codelet("Doubler").fields.size(), std::size_t{2});
    QCOMPARE(g.codelet("Add<float>").name, std::string("Add<float>"));
    // A second graph does not see it.
    Graph other(Target::preset("tiles:4"));
    TESSERA_EXPECT_ERROR(Error, other.codelet("Doubler"), QStringList{"'Doubler'"});
}

void TestEngineGraph::engineMisuse() {
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {4}, "x");
    g.setTileMapping(x, TileId{1u});
    DataStream in = g.addHostToDeviceFIFO("feed", Type::Float, 4);
    g.createHostWrite("xw", x);
    g.createHostRead("xr", x);
    Engine engine(g, {prog::Sequence({prog::Copy(in, x, "load")}), prog::Sequence()},
                  EngineOptions{1, false, nullptr, nullptr});
    TESSERA_EXPECT_ERROR(Error, engine.run(), (QStringList{"'feed'", "'load'", "not connected"}));
    TESSERA_EXPECT_ERROR(Error, engine.run(2), (QStringList{"program index 2", "2 programs"}));
    TESSERA_EXPECT_ERROR(Error, engine.connectStream("nosuch", nullptr, nullptr),
                         QStringList{"'nosuch'"});
    float buffer[4] = {};
    TESSERA_EXPECT_ERROR(Error, engine.connectStream("feed", buffer, buffer),
                         QStringList{"'feed'"});
    TESSERA_EXPECT_ERROR(Error, engine.connectStreamToCallback("nosuch", {}),
                         QStringList{"'nosuch'"});
    TESSERA_EXPECT_ERROR(Error, engine.writeTensor("nope", buffer, buffer + 4),
                         QStringList{"'nope'"});
    TESSERA_EXPECT_ERROR(Error, engine.readTensor("xw", buffer, buffer + 4), QStringList{"'xw'"});
    TESSERA_EXPECT_ERROR(Error, engine.writeTensor("xw", buffer, buffer + 3),
                         (QStringList{"'x'", "16 bytes", "12"}));
    const std::vector<double> three{1, 2, 3};
    TESSERA_EXPECT_ERROR(Error, engine.writeValues(x, three), (QStringList{"'x'", "3 values"}));
    std::vector<float> small(2);
    TESSERA_EXPECT_ERROR(Error,
                         engine.readTensor(x, std::as_writable_bytes(std::span<float>(small))),
                         QStringList{"'x'"});

    // A program executing a compute set of another graph.
    Graph other(Target::preset("tiles:4"));
    other.addComputeSet("a");
    const ComputeSet foreignCs = other.addComputeSet("b");
    TESSERA_EXPECT_ERROR(Error, Engine e(g, prog::Execute(foreignCs)),
                         QStringList{"compute set id 1"});

    // Tensors of another graph, or made after the engine, are refused by name.
    Tensor foreign = other.addVariable(Type::Float, {4}, "foreign");
    other.setTileMapping(foreign, TileId{0u});
    const std::vector<double> four{1, 2, 3, 4};
    TESSERA_EXPECT_ERROR(Error, (void)engine.readValues(foreign),
                         (QStringList{"'foreign'", "another graph"}));
    TESSERA_EXPECT_ERROR(Error, engine.writeValues(foreign, four),
                         (QStringList{"'foreign'", "another graph"}));
    Tensor late = g.addVariable(Type::Float, {4}, "late");
    g.setTileMapping(late, TileId{0u});
    TESSERA_EXPECT_ERROR(Error, (void)engine.read<float>(late),
                         (QStringList{"'late'", "after the engine"}));
    TESSERA_EXPECT_ERROR(ValidationError, Engine e(g, prog::Copy(x, foreign, "cross")),
                         (QStringList{"'cross'", "'foreign'", "another graph"}));

    // Stream copies through a DataStream of another graph: unknown here, or
    // known by name but of another size. Refused at compile time (they used
    // to crash or overflow the staging buffer at run time).
    const DataStream elsewhere = other.addHostToDeviceFIFO("elsewhere", Type::Float, 4);
    TESSERA_EXPECT_ERROR(ValidationError, Engine e(g, prog::Copy(elsewhere, late)),
                         (QStringList{"'elsewhere'", "not a stream of this graph"}));
    g.addHostToDeviceFIFO("shared", Type::Float, 1);
    const DataStream sameName = other.addHostToDeviceFIFO("shared", Type::Float, 4);
    TESSERA_EXPECT_ERROR(ValidationError, Engine e(g, prog::Copy(sameName, late)),
                         (QStringList{"'shared'", "'late'", "does not match"}));
    const DataStream outward = other.addDeviceToHostFIFO("outward", Type::Float, 4);
    TESSERA_EXPECT_ERROR(ValidationError, Engine e(g, prog::Copy(late, outward)),
                         QStringList{"'outward'"});
}

void TestEngineGraph::validatedTargetRejectedByGraph() {
    // Fields assigned directly (set() refuses these values itself).
    Target t = Target::preset("tiles:4");
    t.bytesPerTile = 512;
    t.regions.clear();
    TESSERA_EXPECT_ERROR(Error, Graph{t},
                         (QStringList{"tiles:4", "bytesPerTile", "from 1024 to", "not 512"}));
    Target u = Target::preset("mk1");
    u.set("minAlignment", "12");
    TESSERA_EXPECT_ERROR(Error, Graph{u}, (QStringList{"mk1", "minAlignment", "power of two"}));
    Target w = Target::preset("mk2");
    w.numWorkerContexts = 0;
    TESSERA_EXPECT_ERROR(Error, Graph{w}, QStringList{"numWorkerContexts"});
    Target huge = Target::preset("tiles:4");
    huge.numIPUs = 1073741824; // x 4 tiles wraps a 32-bit tile count to 0
    TESSERA_EXPECT_ERROR(Error, Graph{huge}, (QStringList{"tiles:4", "numIPUs", "1 to 64"}));
    Target r = Target::preset("mk2");
    r.regions = {{"a", 0, 1000}, {"b", 2000, 637976}};
    TESSERA_EXPECT_ERROR(Error, Graph{r}, QStringList{"regions"});
}

void TestEngineGraph::presets_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("name");
    QTest::addColumn<uint>("tiles");
    QTest::addColumn<uint>("bytes");
    QTest::addColumn<double>("clock");
    QTest::addColumn<uint>("fp32");
    QTest::addColumn<uint>("fp16");
    // From the design brief's table (GC2 / GC200 / Bow public figures).
    QTest::newRow("mk1") << "mk1"
                         << "mk1" << 1216u << 256u * 1024u << 1.6e9 << 16u << 64u;
    QTest::newRow("mk2") << "mk2"
                         << "mk2" << 1472u << 624u * 1024u << 1.325e9 << 32u << 128u;
    QTest::newRow("bow") << "bow"
                         << "bow" << 1472u << 624u * 1024u << 1.85e9 << 32u << 128u;
    QTest::newRow("tiles:4") << "tiles:4"
                             << "tiles:4" << 4u << 624u * 1024u << 1.325e9 << 32u << 128u;
    QTest::newRow("tiles:16") << "tiles:16"
                              << "tiles:16" << 16u << 624u * 1024u << 1.325e9 << 32u << 128u;
    QTest::newRow("custom:3") << "custom:3"
                              << "tiles:3" << 3u << 624u * 1024u << 1.325e9 << 32u << 128u;
}

void TestEngineGraph::presets() {
    QFETCH(QString, preset);
    QFETCH(QString, name);
    QFETCH(uint, tiles);
    QFETCH(uint, bytes);
    QFETCH(double, clock);
    QFETCH(uint, fp32);
    QFETCH(uint, fp16);
    const Target t = Target::preset(preset.toStdString());
    QCOMPARE(QString::fromStdString(t.name), name);
    QCOMPARE(t.numIPUs, 1u);
    QCOMPARE(t.tilesPerIPU, tiles);
    QCOMPARE(t.numTiles(), tiles);
    QCOMPARE(t.bytesPerTile, bytes);
    QCOMPARE(t.clockHz, clock);
    QCOMPARE(t.numWorkerContexts, 6u);
    QCOMPARE(t.fp32FlopsPerCycle, fp32);
    QCOMPARE(t.fp16FlopsPerCycle, fp16);
    QCOMPARE(t.exchangeBytesPerCycle, 4u);
    t.validate();
}

void TestEngineGraph::presetRegions() {
    const auto mk2 = Target::preset("mk2").memoryRegions();
    QCOMPARE(mk2.size(), std::size_t{2});
    QCOMPARE(mk2[0].offset, 0u);
    QCOMPARE(mk2[0].bytes, 64u * 1024u);
    QCOMPARE(mk2[1].offset, 64u * 1024u);
    QCOMPARE(mk2[1].bytes, 560u * 1024u);
    const auto mk1 = Target::preset("mk1").memoryRegions();
    QCOMPARE(mk1.size(), std::size_t{1});
    QCOMPARE(mk1[0].bytes, 256u * 1024u);
    // Overriding the size drops the preset's split.
    Target t = Target::preset("mk2");
    t.set("bytesPerTile", "100000");
    QCOMPARE(t.memoryRegions().size(), std::size_t{1});
    QCOMPARE(t.memoryRegions()[0].bytes, 100000u);
    t.validate();
}

void TestEngineGraph::overrides() {
    Target t = Target::preset("mk2");
    t.set("tilesPerIPU", "8");
    t.set("numIPUs", "2");
    t.set("clockHz", "1e9");
    t.set("exchangeLatencyCycles", "0");
    t.set("name", "my-target");
    QCOMPARE(t.tilesPerIPU, 8u);
    QCOMPARE(t.numTiles(), 16u);
    QCOMPARE(t.clockHz, 1e9);
    QCOMPARE(t.exchangeLatencyCycles, 0u);
    QCOMPARE(t.name, std::string("my-target"));
    QCOMPARE(t.get("tilesPerIPU"), std::string("8"));
    QCOMPARE(t.get("clockHz"), std::string("1e+09"));
    QCOMPARE(t.get("name"), std::string("my-target"));
    // Untouched parameters keep the preset's values.
    QCOMPARE(t.bytesPerTile, 624u * 1024u);
    QCOMPARE(t.get("fp32FlopsPerCycle"), std::string("32"));
}

void TestEngineGraph::overrideErrors_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("unknown key") << "tilesPerIpu"
                                 << "4";
    QTest::newRow("another unknown key") << "sramBytes"
                                         << "4";
    QTest::newRow("negative count") << "tilesPerIPU"
                                    << "-3";
    QTest::newRow("not a number") << "numWorkerContexts"
                                  << "six";
    QTest::newRow("trailing junk") << "bytesPerTile"
                                   << "1024kb";
    QTest::newRow("too large") << "bytesPerTile"
                               << "4294967296";
    QTest::newRow("empty") << "exchangeBytesPerCycle"
                           << "";
    QTest::newRow("clock not a number") << "clockHz"
                                        << "fast";
    QTest::newRow("clock zero") << "clockHz"
                                << "0";
    QTest::newRow("clock negative") << "clockHz"
                                    << "-1e9";
}

void TestEngineGraph::overrideErrors() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    Target t = Target::preset("tiles:4");
    const Target before = t;
    TESSERA_EXPECT_ERROR(Error, t.set(key.toStdString(), value.toStdString()),
                         QStringList{"'" + key + "'"});
    QCOMPARE(t.tilesPerIPU, before.tilesPerIPU);
    QCOMPARE(t.clockHz, before.clockHz);
    QCOMPARE(t.bytesPerTile, before.bytesPerTile);
    if (key.startsWith("sram") || key.startsWith("tilesPerIpu")) {
        TESSERA_EXPECT_ERROR(Error, (void)t.get(key.toStdString()), QStringList{"'" + key + "'"});
    }
    TESSERA_EXPECT_ERROR(Error, Target::preset("mk3"), QStringList{"'mk3'"});
    TESSERA_EXPECT_ERROR(Error, Target::preset("tiles:0"), QStringList{"tiles:0"});
    TESSERA_EXPECT_ERROR(Error, Target::preset("tiles:many"), QStringList{"many"});
}

void TestEngineGraph::everyParameterRoundTrips() {
    const std::vector<std::string> names = Target::parameterNames();
    QCOMPARE(names.size(), std::size_t{21});
    for (const char* expected :
         {"numIPUs", "tilesPerIPU", "bytesPerTile", "clockHz", "numWorkerContexts",
          "exchangeBytesPerCycle", "exchangeLatencyCycles", "ipuSyncCycles", "globalSyncCycles",
          "hostSyncCycles", "minAlignment"}) {
        QVERIFY2(std::find(names.begin(), names.end(), expected) != names.end(), expected);
    }
    const Target mk1 = Target::preset("mk1");
    Target copy = Target::preset("bow");
    copy.regions.clear();
    for (const std::string& key : names) {
        copy.set(key, mk1.get(key));
    }
    for (const std::string& key : names) {
        QCOMPARE(copy.get(key), mk1.get(key));
    }
    QCOMPARE(copy.clockHz, 1.6e9);
    QCOMPARE(copy.tilesPerIPU, 1216u);
}

void TestEngineGraph::multiIpuTiles() {
    Target t = Target::preset("tiles:4");
    t.set("numIPUs", "3");
    QCOMPARE(t.numTiles(), 12u);
    QCOMPARE(t.ipuOfTile(TileId{0u}), 0u);
    QCOMPARE(t.ipuOfTile(TileId{3u}), 0u);
    QCOMPARE(t.ipuOfTile(TileId{4u}), 1u);
    QCOMPARE(t.ipuOfTile(TileId{11u}), 2u);
    Graph g(t);
    Tensor v = g.addVariable(Type::Float, {1}, "v");
    g.setTileMapping(v, TileId{11u});
    TESSERA_EXPECT_ERROR(Error, g.setTileMapping(v, TileId{12u}),
                         (QStringList{"'v'", "tile 12", "12 tiles"}));
}

// connectRows gives entry i the elements of row i, in order, as connecting
// the list of rows does: here the rows of a transpose, each gathering one
// element of every row of a 6 x 5 variable (entry i: elements 5j + i).
void TestEngineGraph::connectRowsEntriesAreTheRows() {
    Graph g(Target::preset("tiles:4"));
    const Tensor a = g.addVariable(Type::Float, {6, 5}, "a");
    const Tensor rows = a.transpose(); // {5, 6}
    const ComputeSet cs = g.addComputeSet("sums");
    const VertexRef byRows = g.addVertex(cs, "ReducePartials<float,float>");
    g.connectRows(byRows["partials"], rows);
    const VertexRef byList = g.addVertex(cs, "ReducePartials<float,float>");
    std::vector<Tensor> list;
    for (std::size_t i = 0; i < 5; ++i) {
        list.push_back(rows[i]);
    }
    g.connect(byList["partials"], list);

    const auto& fields = g.vertex(byRows.id).codelet->fields;
    const auto field = static_cast<std::size_t>(
        std::find_if(fields.begin(), fields.end(),
                     [](const FieldInfo& f) { return f.name == "partials"; }) -
        fields.begin());
    const auto elements = [&](VertexId v, std::size_t entry) {
        std::vector<std::uint64_t> out;
        for (const VariableRegion r : g.connection(v, field, entry).regions) {
            for (std::uint64_t e = r.begin; e < r.end; ++e) {
                out.push_back(e);
            }
        }
        return out;
    };
    QCOMPARE(g.entryCount(byRows.id, field), std::size_t{5});
    for (std::size_t i = 0; i < 5; ++i) {
        std::vector<std::uint64_t> expected;
        for (std::uint64_t j = 0; j < 6; ++j) {
            expected.push_back(5 * j + i);
        }
        QCOMPARE(elements(byRows.id, i), expected);
        QCOMPARE(elements(byList.id, i), expected);
    }
}

QTEST_APPLESS_MAIN(TestEngineGraph)
#include "tst_engine_graph.moc"
