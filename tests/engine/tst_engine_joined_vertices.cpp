// Consecutive vertices of one tile run as one compute() call where their
// codelet joins them (runtime/JoinedVertices.h): which are joined, and that
// joined or not a run gives the values worked out on the host, and the same
// bytes, step records and cycles.
#include "EngineRunSupport.h"
#include "HostProducts.h"
#include "SmallMatMul.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/JoinedVertices.h"
#include "engine/runtime/StepGroups.h"

#include <QObject>
#include <QTest>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace tessera;

using tessera::test::integers;
using tessera::test::product;

namespace {

std::uint64_t joined(const Engine& engine) {
    std::uint64_t total = 0;
    for (std::size_t s = 0; s < engine.compiled().steps.size(); ++s) {
        total += engine.verticesJoined(record::idAt<compiler::StepId>(s));
    }
    return total;
}

constexpr std::size_t kK = 5, kCols = 11;

// One MatMulPartial<float,float> vertex of `cs` on tile 0: out rows
// [r0, r1) of `out` from the same rows of `a`, times `b`.
void rowBlock(Graph& g, ComputeSet cs, const Tensor& a, const Tensor& b, const Tensor& out,
              std::size_t r0, std::size_t r1) {
    VertexRef v =
        g.addVertex(cs, "MatMulPartial<float,float>", {{"a", a.slice(r0 * kK, r1 * kK)}, {"b", b}});
    std::vector<Tensor> rows;
    for (std::size_t r = r0; r < r1; ++r) {
        rows.push_back(out[r]);
    }
    g.connect(v["out"], rows);
    g.setTileMapping(v, TileId{0u});
}

} // namespace

class TestEngineJoinedVertices : public QObject {
    Q_OBJECT

private slots:
    void rowBlocksOfOneProductRunAsOne();
    void blocksThatDoNotFollowOnRunAlone();
    void anotherCodeletsBlockRunsAlone();
    void reductionsOfFollowingRowsRunAsOne();
    void aMatMulJoinsWithTheSameBytesAndRecords();
    void cleanup() {
        runtime::setJoinVertices(runtime::JoinVertices::Auto);
        runtime::setGrouping(runtime::Grouping::Auto);
    }
};

void TestEngineJoinedVertices::rowBlocksOfOneProductRunAsOne() {
    // Rows 0-1, 2, 3-6 of one 7-row block, in that order: one call.
    const std::size_t rows = 7;
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {rows * kK}, "a");
    Tensor b = g.addVariable(Type::Float, {kK * kCols}, "b");
    Tensor out = g.addVariable(Type::Float, {rows, kCols}, "out");
    for (const Tensor& t : {a, b, out}) {
        g.setTileMapping(t, TileId{0u});
    }
    const ComputeSet cs = g.addComputeSet("products");
    rowBlock(g, cs, a, b, out, 0, 2);
    rowBlock(g, cs, a, b, out, 2, 3);
    rowBlock(g, cs, a, b, out, 3, 7);
    const std::vector<float> ha = integers(rows * kK, 7, 3), hb = integers(kK * kCols, 5, 2);
    for (const auto mode : {runtime::JoinVertices::Never, runtime::JoinVertices::Auto}) {
        runtime::setJoinVertices(mode);
        Engine engine(g, program::Execute(cs));
        QCOMPARE(joined(engine), std::uint64_t{mode == runtime::JoinVertices::Auto ? 2u : 0u});
        engine.write<float>(a, ha);
        engine.write<float>(b, hb);
        engine.run();
        CHECK_EQUAL(engine.read<float>(out), product(ha, hb, rows, kK, kCols));
    }
}

void TestEngineJoinedVertices::blocksThatDoNotFollowOnRunAlone() {
    // On one tile, in this order: rows 2-3, then 0-1 (a goes backwards), 4-5
    // (after 2-3 in memory, but 0-1 comes between), 6-7 with another b, a
    // Fill, and 8-9 with that b (after 6-7, but the Fill comes between): no
    // vertex joins the one before it.
    const std::size_t rows = 10;
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {rows * kK}, "a");
    Tensor b = g.addVariable(Type::Float, {kK * kCols}, "b");
    Tensor b2 = g.addVariable(Type::Float, {kK * kCols}, "b2");
    Tensor out = g.addVariable(Type::Float, {rows, kCols}, "out");
    Tensor x = g.addVariable(Type::Float, {4}, "x");
    for (const Tensor& t : {a, b, b2, out, x}) {
        g.setTileMapping(t, TileId{0u});
    }
    const ComputeSet cs = g.addComputeSet("products");
    rowBlock(g, cs, a, b, out, 2, 4);
    rowBlock(g, cs, a, b, out, 0, 2);
    rowBlock(g, cs, a, b, out, 4, 6);
    rowBlock(g, cs, a, b2, out, 6, 8);
    VertexRef fill = g.addVertex(cs, "Fill<float>", {{"out", x}});
    g.setInitialValue(fill["value"], 2.5);
    g.setTileMapping(fill, TileId{0u});
    rowBlock(g, cs, a, b2, out, 8, 10);
    Engine engine(g, program::Execute(cs));
    QCOMPARE(joined(engine), std::uint64_t{0});
    const std::vector<float> ha = integers(rows * kK, 9, 4), hb = integers(kK * kCols, 5, 2),
                             hb2 = integers(kK * kCols, 3, 1);
    engine.write<float>(a, ha);
    engine.write<float>(b, hb);
    engine.write<float>(b2, hb2);
    engine.run();
    std::vector<float> want = product(ha, hb, rows, kK, kCols);
    const std::vector<float> with2 = product(ha, hb2, rows, kK, kCols);
    std::copy(with2.begin() + 6 * kCols, with2.end(), want.begin() + 6 * kCols);
    CHECK_EQUAL(engine.read<float>(out), want);
    CHECK_EQUAL(engine.read<float>(x), std::vector<float>(4, 2.5f));
}

void TestEngineJoinedVertices::anotherCodeletsBlockRunsAlone() {
    // Rows 0-1 to halves, rows 2-3 to floats: the same a (following on) and
    // b, the same fields, but two codelets.
    const std::size_t rows = 4;
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Half, {rows * kK}, "a");
    Tensor b = g.addVariable(Type::Half, {kK * kCols}, "b");
    Tensor outH = g.addVariable(Type::Half, {2, kCols}, "outH");
    Tensor outF = g.addVariable(Type::Float, {2, kCols}, "outF");
    for (const Tensor& t : {a, b, outH, outF}) {
        g.setTileMapping(t, TileId{0u});
    }
    const ComputeSet cs = g.addComputeSet("products");
    for (const auto& [codelet, out, r0] : {std::tuple{"MatMulPartial<half,half>", outH, 0},
                                           std::tuple{"MatMulPartial<half,float>", outF, 2}}) {
        VertexRef v = g.addVertex(cs, codelet, {{"a", a.slice(r0 * kK, (r0 + 2) * kK)}, {"b", b}});
        g.connect(v["out"], {out[0], out[1]});
        g.setTileMapping(v, TileId{0u});
    }
    Engine engine(g, program::Execute(cs));
    QCOMPARE(joined(engine), std::uint64_t{0});
    const std::vector<float> ha = integers(rows * kK, 7, 3), hb = integers(kK * kCols, 5, 2);
    engine.write<half>(a, std::vector<half>(ha.begin(), ha.end()));
    engine.write<half>(b, std::vector<half>(hb.begin(), hb.end()));
    engine.run();
    const std::vector<float> want = product(ha, hb, rows, kK, kCols); // small integers: exact
    std::vector<float> gotH;
    for (const half h : engine.read<half>(outH)) {
        gotH.push_back(float(h));
    }
    CHECK_EQUAL(gotH, std::vector<float>(want.begin(), want.begin() + 2 * kCols));
    CHECK_EQUAL(engine.read<float>(outF), std::vector<float>(want.begin() + 2 * kCols, want.end()));
}

void TestEngineJoinedVertices::reductionsOfFollowingRowsRunAsOne() {
    // out row o(r) = p0 row r + p1 row q(r) + p2 row r, a vertex a row, rows
    // of 37 (a 32-element block and the rest): rows 0-3 follow on and join;
    // row 4 reads p1's row 0 (q(4) = 0); rows 5 and 6 write out rows 6 and 5
    // (their partials follow on, their outputs go backwards): each alone.
    const std::size_t rows = 7, cols = 37, parts = 3;
    const auto o = [](std::size_t r) { return r == 5 ? 6 : r == 6 ? 5 : r; };
    const auto q = [](std::size_t r) { return r == 4 ? std::size_t{0} : r; };
    Graph g(Target::preset("tiles:4"));
    std::vector<Tensor> p;
    for (std::size_t i = 0; i < parts; ++i) {
        p.push_back(g.addVariable(Type::Float, {rows, cols}, std::array{"p0", "p1", "p2"}[i]));
        g.setTileMapping(p.back(), record::idAt<TileId>(static_cast<std::uint32_t>(i + 1)));
    }
    Tensor out = g.addVariable(Type::Float, {rows, cols}, "out");
    g.setTileMapping(out, TileId{0u});
    const ComputeSet cs = g.addComputeSet("reduce");
    for (std::size_t r = 0; r < rows; ++r) {
        VertexRef v = g.addVertex(cs, "ReducePartials<float,float>", {{"out", out[o(r)]}});
        g.connect(v["partials"], {p[0][r], p[1][q(r)], p[2][r]});
        g.setTileMapping(v, TileId{0u});
    }
    std::vector<std::vector<float>> hp;
    for (std::size_t i = 0; i < parts; ++i) {
        hp.push_back(integers(rows * cols, 13 + int(i), 6));
    }
    std::vector<float> want(rows * cols);
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) {
            want[o(r) * cols + c] =
                hp[0][r * cols + c] + hp[1][q(r) * cols + c] + hp[2][r * cols + c];
        }
    }
    for (const auto mode : {runtime::JoinVertices::Never, runtime::JoinVertices::Auto}) {
        runtime::setJoinVertices(mode);
        Engine engine(g, program::Execute(cs));
        // The partials come from other tiles and are read where they lie, so
        // rows that follow on there follow on for the vertices too.
        QCOMPARE(joined(engine), std::uint64_t{mode == runtime::JoinVertices::Auto ? 3u : 0u});
        for (std::size_t i = 0; i < parts; ++i) {
            engine.write<float>(p[i], hp[i]);
        }
        engine.run();
        CHECK_EQUAL(engine.read<float>(out), want);
    }
}

void TestEngineJoinedVertices::aMatMulJoinsWithTheSameBytesAndRecords() {
    // k split over tiles: a tile's product rows share b and follow on in a,
    // so each tile makes one call for its products.
    const test::IntegerProduct p = test::integerProduct(40, 512, 24);
    std::uint64_t count = 0, productVertices = 0, productTiles = 0, productsJoined = 0;
    const auto inspect = [&](const Engine& engine) {
        count = joined(engine);
        for (std::size_t s = 0; s < engine.compiled().steps.size(); ++s) {
            const compiler::StepPlan& step = engine.compiled().steps[s];
            if (step.name.ends_with("/products")) {
                std::set<std::uint32_t> tiles;
                for (const compiler::VertexPlan& v : step.vertices) {
                    tiles.insert(v.tile.value());
                }
                productVertices = step.vertices.size();
                productTiles = tiles.size();
                productsJoined = engine.verticesJoined(record::idAt<compiler::StepId>(s));
            }
        }
    };
    runtime::setJoinVertices(runtime::JoinVertices::Never);
    runtime::setGrouping(runtime::Grouping::Never);
    const test::MatMulRun apart = test::runOnTiles64(p, 1, inspect);
    QCOMPARE(count, std::uint64_t{0});
    CHECK_EQUAL(apart.c, p.c);
    runtime::setJoinVertices(runtime::JoinVertices::Auto);
    for (const auto grouping : {runtime::Grouping::Never, runtime::Grouping::Auto}) {
        runtime::setGrouping(grouping);
        for (const unsigned threads : {1u, 2u}) {
            const test::MatMulRun r = test::runOnTiles64(p, threads, inspect);
            QVERIFY2(productVertices > productTiles, "the plan no longer splits a tile's rows");
            QCOMPARE(productsJoined, productVertices - productTiles);
            QVERIFY(count >= productsJoined);
            CHECK_EQUAL(r.c, p.c);
            QVERIFY(r.steps == apart.steps);
        }
    }
}

QTEST_GUILESS_MAIN(TestEngineJoinedVertices)
#include "tst_engine_joined_vertices.moc"
