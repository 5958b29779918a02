// The graph's flat storage (issue 17): tile mappings made in and out of
// element order against a per-element host model, vertex connections read
// back through Graph::connection against the connected tensors' regions, and
// slice descriptions formatted on demand.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/graph/TileMapping.h"

#include <QObject>
#include <QTest>

#include <random>
#include <vector>

using namespace tessera;

namespace {

// The host model: one tile per element, later assignments win.
void checkAgainstModel(const TileMapping& m, const std::vector<TileId>& model) {
    for (std::size_t e = 0; e < model.size(); ++e) {
        QCOMPARE(m.tileOf(e), model[e]);
    }
    std::size_t firstGap = model.size();
    for (std::size_t e = 0; e < model.size(); ++e) {
        if (model[e] == TileId::none()) {
            firstGap = e;
            break;
        }
    }
    QCOMPARE(m.firstUnmapped(model.size()), firstGap);
    // Intervals: sorted, disjoint, merged, and covering exactly the mapped elements.
    std::vector<TileId> fromIntervals(model.size(), TileId::none());
    const auto intervals = m.intervals();
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        const TileInterval& iv = intervals[i];
        QVERIFY(iv.begin < iv.end && iv.end <= model.size());
        if (i > 0) {
            const TileInterval& prev = intervals[i - 1];
            QVERIFY(prev.end <= iv.begin);
            QVERIFY(!(prev.end == iv.begin && prev.tile == iv.tile)); // merged
        }
        for (std::size_t e = iv.begin; e < iv.end; ++e) {
            fromIntervals[e] = iv.tile;
        }
    }
    QCOMPARE(fromIntervals, model);
}

std::vector<VariableRegion> regionsOf(const Tensor& t) {
    const auto r = t.regions();
    return {r.begin(), r.end()};
}

std::vector<VariableRegion> regionsOf(const Connection& c) {
    return {c.regions.begin(), c.regions.end()};
}

} // namespace

class TestEngineStorage : public QObject {
    Q_OBJECT
private slots:
    void tileMappingInElementOrder();
    void tileMappingOutOfOrder();
    void connectionsReadBack();
    void vectorAndBracedConnectionsAgree_data();
    void vectorAndBracedConnectionsAgree();
    void bracedConnectionErrorsNameTheField();
    void connectionsPastFourGiElements();
    void oneRegionHeldInTheSlot();
    void vectorListResizeKeepsEntries();
    void stateValuesAndEstimates();
    void sliceDescriptions();
};

void TestEngineStorage::tileMappingInElementOrder() {
    const std::size_t n = 200;
    TileMapping m;
    std::vector<TileId> model(n, TileId::none());
    // Ascending, with gaps, equal-tile neighbours (merged) and different ones.
    const struct {
        std::size_t b, e;
        TileId tile;
    } steps[] = {{0, 10, TileId{1u}},  {10, 20, TileId{1u}}, {20, 35, TileId{2u}},
                 {40, 50, TileId{2u}}, {50, 51, TileId{3u}}, {60, 200, TileId{0u}}};
    for (const auto& s : steps) {
        m.assign(s.b, s.e, s.tile);
        std::fill(model.begin() + static_cast<std::ptrdiff_t>(s.b),
                  model.begin() + static_cast<std::ptrdiff_t>(s.e), s.tile);
        checkAgainstModel(m, model);
    }
    QCOMPARE(m.intervals().size(), std::size_t{5}); // [0,20) on tile 1 is one interval
}

void TestEngineStorage::tileMappingOutOfOrder() {
    std::mt19937 rng(17);
    for (int round = 0; round < 20; ++round) {
        const std::size_t n = 64;
        TileMapping m;
        std::vector<TileId> model(n, TileId::none());
        // An ordered prefix, then random overriding assignments anywhere.
        for (std::size_t b = 0; b + 8 <= n / 2; b += 8) {
            m.assign(b, b + 8, record::idAt<TileId>(b / 8));
            std::fill(model.begin() + static_cast<std::ptrdiff_t>(b),
                      model.begin() + static_cast<std::ptrdiff_t>(b + 8),
                      record::idAt<TileId>(b / 8));
        }
        for (int k = 0; k < 30; ++k) {
            std::size_t b = rng() % n, e = rng() % (n + 1);
            if (b > e) {
                std::swap(b, e);
            }
            const auto tile = record::idAt<TileId>(rng() % 4);
            m.assign(b, e, tile);
            std::fill(model.begin() + static_cast<std::ptrdiff_t>(b),
                      model.begin() + static_cast<std::ptrdiff_t>(e), tile);
            checkAgainstModel(m, model);
        }
    }
}

void TestEngineStorage::connectionsReadBack() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {4, 6}, "a");
    Tensor b = g.addVariable(Type::Float, {24}, "b");
    const ComputeSet cs = g.addComputeSet("cs");
    // A one-region slice, a strided (multi-region) view and a concat of two variables.
    const Tensor in1 = b.slice(3, 9);
    const Tensor in2 = a.transpose()[2];
    const Tensor out = concat(a[0].slice(0, 3), b.slice(20, 23));
    QCOMPARE(in2.regions().size(), std::size_t{4});
    VertexRef v = g.addVertex(cs, "Add<float>", {{"in1", in1}, {"in2", in2}, {"out", out}});
    VertexRef w = g.addVertex(cs, "Add<float>", {{"in1", in2}});
    QCOMPARE(g.entryCount(v.id, 0), std::size_t{1});
    QCOMPARE(regionsOf(g.connection(v.id, 0)), regionsOf(in1));
    QCOMPARE(regionsOf(g.connection(v.id, 1)), regionsOf(in2));
    QCOMPARE(regionsOf(g.connection(v.id, 2)), regionsOf(out));
    QCOMPARE(g.connection(v.id, 2).numElements(), std::size_t{6});
    QCOMPARE(regionsOf(g.connection(w.id, 0)), regionsOf(in2));
    QCOMPARE(g.entryCount(w.id, 1), std::size_t{0}); // unconnected
    QVERIFY(!g.connection(w.id, 1).connected);
    // Reconnecting replaces what the field points at.
    g.connect(v["in1"], a[3]);
    QCOMPARE(regionsOf(g.connection(v.id, 0)),
             (std::vector<VariableRegion>{{VariableId{0u}, 18, 24}}));
    QCOMPARE(regionsOf(g.connection(v.id, 1)), regionsOf(in2)); // the others unchanged
}

// addVertex takes its connections as a vector (what ops build in loops) or
// as a braced list (what most code writes); both connect the same regions.
void TestEngineStorage::vectorAndBracedConnectionsAgree_data() {
    QTest::addColumn<bool>("braced");
    QTest::newRow("vector") << false;
    QTest::newRow("braced list") << true;
}

void TestEngineStorage::vectorAndBracedConnectionsAgree() {
    QFETCH(bool, braced);
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {4, 6}, "a");
    Tensor b = g.addVariable(Type::Float, {24}, "b");
    const ComputeSet cs = g.addComputeSet("cs");
    const Tensor in1 = b.slice(3, 9);
    const Tensor in2 = a.transpose()[2]; // column 2 of a: elements 2, 8, 14, 20
    const Tensor out = concat(a[0].slice(0, 3), b.slice(20, 23));
    VertexRef v;
    if (braced) {
        v = g.addVertex(cs, "Add<float>", {{"out", out}, {"in1", in1}, {"in2", in2}});
    } else {
        const std::vector<std::pair<std::string, Tensor>> list = {
            {"out", out}, {"in1", in1}, {"in2", in2}};
        v = g.addVertex(cs, "Add<float>", list);
    }
    const VariableId va{0u}, vb{1u};
    QCOMPARE(regionsOf(g.connection(v.id, 0)), (std::vector<VariableRegion>{{vb, 3, 9}}));
    QCOMPARE(regionsOf(g.connection(v.id, 1)),
             (std::vector<VariableRegion>{{va, 2, 3}, {va, 8, 9}, {va, 14, 15}, {va, 20, 21}}));
    QCOMPARE(regionsOf(g.connection(v.id, 2)),
             (std::vector<VariableRegion>{{va, 0, 3}, {vb, 20, 23}}));
    QCOMPARE(g.vertices().size(), std::size_t{1});
    QCOMPARE(g.computeSet(cs.id).vertices.size(), std::size_t{1});
}

void TestEngineStorage::bracedConnectionErrorsNameTheField() {
    Graph g(Target::preset("tiles:4"));
    Tensor f = g.addVariable(Type::Float, {4}, "f");
    Tensor i = g.addVariable(Type::Int, {4}, "i");
    const ComputeSet cs = g.addComputeSet("cs");
    TESSERA_EXPECT_ERROR(Error, g.addVertex(cs, "Add<float>", {{"in3", f}}),
                         (QStringList{"connect", "no field 'in3'", "Add<float>"}));
    TESSERA_EXPECT_ERROR(Error, g.addVertex(cs, "Add<float>", {{"in1", f}, {"in2", i}}),
                         (QStringList{"field 'in2'", "type float", "'i'", "type int"}));
    TESSERA_EXPECT_ERROR(Error, g.addVertex(cs, "ReducePartials<float,float>", {{"partials", f}}),
                         (QStringList{"'partials'", "vector list"}));
    TESSERA_EXPECT_ERROR(Error, g.addVertex(ComputeSet{}, "Add<float>", {{"in1", f}}),
                         (QStringList{"unknown compute set", "Add<float>"}));
}

// The graph keeps a connected region in 16 bytes: its start stays 64-bit,
// its size is 32-bit, and a region of 2^32 elements (no tile holds one) is
// refused by name instead of cut short.
void TestEngineStorage::connectionsPastFourGiElements() {
    Graph g(Target::preset("tiles:4"));
    const std::size_t n = std::size_t{3} << 32; // not allocated: the graph holds no data
    Tensor big = g.addVariable(Type::Float, {n}, "big");
    Tensor small = g.addVariable(Type::Float, {8}, "small");
    const ComputeSet cs = g.addComputeSet("cs");
    const std::size_t at = (std::size_t{1} << 33) + 5;
    VertexRef v = g.addVertex(cs, "Add<float>",
                              {{"in1", big.slice(at, at + 8)}, {"in2", small}, {"out", small}});
    QCOMPARE(regionsOf(g.connection(v.id, 0)),
             (std::vector<VariableRegion>{{VariableId{0u}, at, at + 8}}));
    QCOMPARE(g.connection(v.id, 0).numElements(), std::size_t{8});
    const std::size_t justFits = (std::size_t{1} << 32) - 1;
    VertexRef w = g.addVertex(cs, "Add<float>", {{"in1", big.slice(1, 1 + justFits)}});
    QCOMPARE(g.connection(w.id, 0).numElements(), justFits);
    TESSERA_EXPECT_ERROR(Error,
                         g.addVertex(cs, "Add<float>", {{"in1", big.slice(1, 2 + justFits)}}),
                         (QStringList{"not supported", "4294967296 elements", "big", "2^32"}));
}

// A field of one region holds it in its slot; one of several or of none
// keeps an index. Each reads back the same, through every change of shape.
void TestEngineStorage::oneRegionHeldInTheSlot() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {4, 6}, "a");
    Tensor o = g.addVariable(Type::Float, {6}, "o");
    const ComputeSet cs = g.addComputeSet("cs");
    const Tensor one = a[1];                 // elements 6..12: one region
    const Tensor several = a.transpose()[0]; // elements 0, 6, 12, 18
    const Tensor none = a.flatten().slice(5, 5);
    QCOMPARE(several.regions().size(), std::size_t{4});
    QCOMPARE(none.regions().size(), std::size_t{0});
    VertexRef v = g.addVertex(cs, "Add<float>", {{"in1", one}, {"in2", several}, {"out", none}});
    const VariableId va{0u};
    QCOMPARE(regionsOf(g.connection(v.id, 0)), (std::vector<VariableRegion>{{va, 6, 12}}));
    QCOMPARE(g.connection(v.id, 0).numElements(), std::size_t{6});
    QCOMPARE(regionsOf(g.connection(v.id, 1)),
             (std::vector<VariableRegion>{{va, 0, 1}, {va, 6, 7}, {va, 12, 13}, {va, 18, 19}}));
    // Connected to an empty tensor: connected, one entry, no regions.
    QVERIFY(g.connection(v.id, 2).connected);
    QCOMPARE(g.entryCount(v.id, 2), std::size_t{1});
    QCOMPARE(g.connection(v.id, 2).regions.size(), std::size_t{0});
    QCOMPARE(g.connection(v.id, 2).numElements(), std::size_t{0});
    // Swapped: the held region becomes an index and the index a held region.
    g.connect(v["in1"], several);
    g.connect(v["in2"], o);
    QCOMPARE(regionsOf(g.connection(v.id, 0)), regionsOf(several));
    QCOMPARE(regionsOf(g.connection(v.id, 1)),
             (std::vector<VariableRegion>{{VariableId{1u}, 0, 6}}));
    // Region and element 0 of variable 0: held, not mistaken for an index.
    VertexRef w = g.addVertex(cs, "Add<float>", {{"in1", a.flatten().slice(0, 1)}});
    QCOMPARE(regionsOf(g.connection(w.id, 0)), (std::vector<VariableRegion>{{va, 0, 1}}));
    QCOMPARE(g.entryCount(w.id, 1), std::size_t{0});
    QVERIFY(!g.connection(w.id, 1).connected);
    // Vector-list entries are slots too.
    Tensor p = g.addVariable(Type::Float, {3, 4}, "p");
    VertexRef r = g.addVertex(cs, "ReducePartials<float,float>", {{"out", o.slice(0, 4)}});
    const std::size_t partials = g.codelet("ReducePartials<float,float>").fieldIndex("partials");
    g.setFieldSize(r["partials"], 3);
    g.connect(r["partials"][0], p[2]);
    g.connect(r["partials"][1], concat(p[0].slice(0, 2), p[1].slice(2, 4)));
    QCOMPARE(g.entryCount(r.id, partials), std::size_t{3});
    QCOMPARE(regionsOf(g.connection(r.id, partials, 0)),
             (std::vector<VariableRegion>{{VariableId{2u}, 8, 12}}));
    QCOMPARE(regionsOf(g.connection(r.id, partials, 1)),
             (std::vector<VariableRegion>{{VariableId{2u}, 0, 2}, {VariableId{2u}, 6, 8}}));
    QVERIFY(!g.connection(r.id, partials, 2).connected);
}

void TestEngineStorage::vectorListResizeKeepsEntries() {
    Graph g(Target::preset("tiles:4"));
    Tensor p = g.addVariable(Type::Float, {3, 4}, "p");
    Tensor o = g.addVariable(Type::Float, {4}, "o");
    const ComputeSet cs = g.addComputeSet("cs");
    VertexRef v = g.addVertex(cs, "ReducePartials<float,float>", {{"out", o}});
    const std::size_t partials = g.codelet("ReducePartials<float,float>").fieldIndex("partials");
    QCOMPARE(g.entryCount(v.id, partials), std::size_t{0});
    g.setFieldSize(v["partials"], 2);
    g.connect(v["partials"][0], p[0]);
    g.connect(v["partials"][1], p[1]);
    g.setFieldSize(v["partials"], 3); // grows: entries 0 and 1 kept, 2 unconnected
    QCOMPARE(g.entryCount(v.id, partials), std::size_t{3});
    QCOMPARE(regionsOf(g.connection(v.id, partials, 0)), regionsOf(p[0]));
    QCOMPARE(regionsOf(g.connection(v.id, partials, 1)), regionsOf(p[1]));
    QVERIFY(!g.connection(v.id, partials, 2).connected);
    g.connect(v["partials"][2], p[2]);
    QCOMPARE(regionsOf(g.connection(v.id, partials, 2)), regionsOf(p[2]));
    g.setFieldSize(v["partials"], 1); // shrinks to the first
    QCOMPARE(g.entryCount(v.id, partials), std::size_t{1});
    QCOMPARE(regionsOf(g.connection(v.id, partials, 0)), regionsOf(p[0]));
    g.connect(v["partials"], std::vector<Tensor>{p[2], p[1]}); // a whole list
    QCOMPARE(g.entryCount(v.id, partials), std::size_t{2});
    QCOMPARE(regionsOf(g.connection(v.id, partials, 0)), regionsOf(p[2]));
    QCOMPARE(regionsOf(g.connection(v.id, partials, 1)), regionsOf(p[1]));
    TESSERA_EXPECT_ERROR(Error, g.connect(v["partials"][2], p[0]),
                         (QStringList{"index 2", "'partials'", "size 2"}));
}

void TestEngineStorage::stateValuesAndEstimates() {
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {8}, "x");
    const ComputeSet cs = g.addComputeSet("cs");
    VertexRef f1 = g.addVertex(cs, "Fill<float>", {{"out", x.slice(0, 4)}});
    VertexRef add = g.addVertex(cs, "Add<float>");
    VertexRef f2 = g.addVertex(cs, "Fill<float>", {{"out", x.slice(4, 8)}});
    g.setInitialValue(f2["value"], 2.5);
    QCOMPARE(g.stateValues(f1.id).size(), std::size_t{1});
    QVERIFY(!g.stateValues(f1.id)[0].has_value());
    QCOMPARE(g.stateValues(add.id).size(), std::size_t{0});
    QCOMPARE(g.stateValues(f2.id)[0].value_or(0), 2.5);
    g.setInitialValue(f1["value"], -1.0);
    QCOMPARE(g.stateValues(f1.id)[0].value_or(0), -1.0);
    QCOMPARE(g.stateValues(f2.id)[0].value_or(0), 2.5);
    QVERIFY(!g.perfEstimate(add.id).has_value());
    g.setPerfEstimate(add, 77);
    QCOMPARE(g.perfEstimate(add.id).value_or(0), std::uint64_t{77});
    QVERIFY(!g.perfEstimate(f1.id).has_value());
}

void TestEngineStorage::sliceDescriptions() {
    Graph g(Target::preset("tiles:4"));
    Tensor m = g.addVariable(Type::Float, {4, 6}, "m");
    QCOMPARE(m.slice(1, 3).describe(), std::string("'m'.slice(1,3)"));
    QCOMPARE(m.slice(2, 5, 1).slice(0, 1).describe(), std::string("'m'.slice(2,5,1).slice(0,1)"));
    QCOMPARE(m[2].slice(1, 4).describe(), std::string("'m'[2].slice(1,4)"));
    // Errors name the view so described.
    TESSERA_EXPECT_ERROR(Error, m.slice(1, 3).slice(0, 9),
                         (QStringList{"'m'.slice(1,3)", "[0:9)"}));
}

QTEST_APPLESS_MAIN(TestEngineStorage)
#include "tst_engine_storage.moc"
