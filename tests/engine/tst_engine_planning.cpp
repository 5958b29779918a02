// How matMul and convolution plan their data movement: a transposed operand
// copied to many tiles is rearranged once into rows, a small one is not; the
// convolution's patches are built from runs of input rows. Results against
// host references; copy counts against hand-derived figures. And the runs a
// tensor's regions become, against a lookup of each element on its own.
#include "EngineTestSupport.h"
#include "engine/compiler/ByTile.h"
#include "engine/compiler/Compiled.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Convolution.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

using namespace tessera;
namespace prog = tessera::program;

namespace {

// Small integers, so every product and sum below is exact in float.
std::vector<double> smallIntegers(std::size_t n, int seed) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] =
            static_cast<double>(static_cast<int>((i * 7 + static_cast<std::size_t>(seed)) % 5) - 2);
    }
    return v;
}

const compiler::StepPlan* stepNamed(const Engine& engine, const std::string& name) {
    for (const compiler::StepPlan& s : engine.compiled().steps) {
        if (s.name == name) {
            return &s;
        }
    }
    return nullptr;
}

// c = a . bt^T for a {m,k} and bt {n,k} on `target`, checked against the host
// product; returns the engine for inspection of its plan.
std::unique_ptr<Engine> multiplyByTranspose(Graph& g, std::size_t m, std::size_t k, std::size_t n) {
    Tensor a = g.addVariable(Type::Float, {m, k}, "a");
    Tensor bt = g.addVariable(Type::Float, {n, k}, "bt");
    ops::mapLinearly(g, a, k);
    ops::mapLinearly(g, bt, k);
    prog::Sequence seq;
    const Tensor c = ops::matMul(g, seq, a, bt.transpose(), "mm");
    auto engine = std::make_unique<Engine>(g, std::vector<prog::Program>{seq});
    const std::vector<double> av = smallIntegers(m * k, 1), bv = smallIntegers(n * k, 3);
    engine->writeValues(a, av);
    engine->writeValues(bt, bv);
    engine->run(0);
    const std::vector<double> got = engine->readValues(c);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            double want = 0;
            for (std::size_t l = 0; l < k; ++l) {
                want += av[i * k + l] * bv[j * k + l];
            }
            if (got[i * n + j] != want) {
                qFatal("c[%zu][%zu] = %g, want %g", i, j, got[i * n + j], want);
            }
        }
    }
    return engine;
}

} // namespace

class TestEnginePlanning : public QObject {
    Q_OBJECT
private slots:
    void largeTransposedOperandIsRearrangedOnce();
    void smallTransposedOperandIsCopiedAsBefore();
    void convolutionPatchesAreCopiedInRuns();
    void runsFollowThePlacementInAnyRegionOrder();
    void itemsGroupedByTileKeepTheirOrder();
};

void TestEnginePlanning::largeTransposedOperandIsRearrangedOnce() {
    // tiles:64, 256 x 300 by 300 x 1024: the plan is pm 4, pn 8, pk 2, so the
    // 307200 one-element regions of bt^T would be copied 4 times (1228800 >
    // 2^20 copies): bt^T is rearranged once, one copy per element.
    Graph g(Target::preset("tiles:64"));
    const ops::MatMulPlan plan =
        ops::planMatMulOnTiles(g.getTarget(), 64, 256, 300, 1024, Type::Float);
    QCOMPARE(plan.pm, std::size_t(4));
    QCOMPARE(plan.pn, std::size_t(8));
    QCOMPARE(plan.pk, std::size_t(2));
    const auto engine = multiplyByTranspose(g, 256, 300, 1024);
    const compiler::StepPlan* rearrange = stepNamed(*engine, "mm/rearrangeB");
    QVERIFY(rearrange);
    QCOMPARE(rearrange->gather.size(), std::size_t(300 * 1024));
    // Then each of the 4 * 8 * 2 B blocks (150 rows of 128) moves as its rows.
    const compiler::StepPlan* copyB = stepNamed(*engine, "mm/copyB");
    QVERIFY(copyB);
    QCOMPARE(copyB->gather.size(), std::size_t(4 * 8 * 2 * 150));
    QVERIFY(!stepNamed(*engine, "mm/rearrangeA"));
}

void TestEnginePlanning::smallTransposedOperandIsCopiedAsBefore() {
    // tiles:16, 32 x 64 by 64 x 64: pm 2, so 64 * 64 * 2 one-element copies,
    // under 2^20: no rearrangement, the plan of every small matMul unchanged.
    Graph g(Target::preset("tiles:16"));
    const ops::MatMulPlan plan = ops::planMatMulOnTiles(g.getTarget(), 16, 32, 64, 64, Type::Float);
    QCOMPARE(plan.pm, std::size_t(2));
    const auto engine = multiplyByTranspose(g, 32, 64, 64);
    QVERIFY(!stepNamed(*engine, "mm/rearrangeB"));
    const compiler::StepPlan* copyB = stepNamed(*engine, "mm/copyB");
    QVERIFY(copyB);
    QCOMPARE(copyB->gather.size(), std::size_t(64 * 64 * 2));
}

void TestEnginePlanning::convolutionPatchesAreCopiedInRuns() {
    // 1 image, 4 -> 4 channels, 16 x 16, 3 x 3 kernel, no padding: 4 * 9 patch
    // rows of 14 x 14 positions, each 14 runs of 14 input elements.
    const std::size_t ci = 4, co = 4, side = 16, out = side - 2;
    ops::ConvSpec spec;
    spec.batchSize = 1;
    spec.inputFieldShape = {side, side};
    spec.kernelShape = {3, 3};
    spec.inputChannelsPerGroup = ci;
    spec.outputChannelsPerGroup = co;
    Graph g(Target::preset("tiles:16"));
    Tensor in = ops::createConvInput(g, spec, "in");
    Tensor w = ops::createConvWeights(g, spec, "w");
    prog::Sequence seq;
    const Tensor result = ops::convolution(g, seq, in, w, spec, "conv");
    Engine engine(g, std::vector<prog::Program>{seq});
    const std::vector<double> iv = smallIntegers(ci * side * side, 2),
                              wv = smallIntegers(co * ci * 9, 4);
    engine.writeValues(in, iv);
    engine.writeValues(w, wv);
    engine.run(0);
    const std::vector<double> got = engine.readValues(result);
    for (std::size_t o = 0; o < co; ++o) {
        for (std::size_t y = 0; y < out; ++y) {
            for (std::size_t x = 0; x < out; ++x) {
                double want = 0;
                for (std::size_t c = 0; c < ci; ++c) {
                    for (std::size_t ky = 0; ky < 3; ++ky) {
                        for (std::size_t kx = 0; kx < 3; ++kx) {
                            want += iv[(c * side + y + ky) * side + x + kx] *
                                    wv[((o * ci + c) * 3 + ky) * 3 + kx];
                        }
                    }
                }
                QCOMPARE(got[(o * out + y) * out + x], want);
            }
        }
    }
    // The patches (the product's B) are 4 * 9 * 14 runs of 14: its block
    // copies are at most those runs cut at each of the plan's column blocks
    // and copied to each of its row blocks, far fewer than one per element.
    const ops::MatMulPlan plan =
        ops::planMatMulOnTiles(g.getTarget(), 16, co, ci * 9, out * out, Type::Float);
    const compiler::StepPlan* copyB = stepNamed(engine, "conv/group0/copyB");
    QVERIFY(copyB);
    const std::size_t runs = ci * 9 * out, cuts = plan.pn - 1;
    QVERIFY2(copyB->gather.size() <= (runs + ci * 9 * cuts) * plan.pm,
             qPrintable(QString::number(copyB->gather.size())));
    QVERIFY(copyB->gather.size() < ci * 9 * out * out * plan.pm / 4);
}

void TestEnginePlanning::runsFollowThePlacementInAnyRegionOrder() {
    // x's intervals on tiles 3, 1, 3, 0, 2 (tile 3 twice: one block, two
    // pieces); y on two tiles. The view jumps forwards, backwards, between
    // the variables and across interval ends, one element or many at a time.
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {100}, "x");
    Tensor y = g.addVariable(Type::Half, {40}, "y");
    const std::pair<std::size_t, std::size_t> xIntervals[] = {
        {0, 10}, {10, 25}, {25, 26}, {26, 60}, {60, 100}};
    const unsigned xTiles[] = {3, 1, 3, 0, 2};
    for (std::size_t i = 0; i < 5; ++i) {
        g.setTileMapping(x.slice(xIntervals[i].first, xIntervals[i].second),
                         record::idAt<TileId>(xTiles[i]));
    }
    g.setTileMapping(y.slice(0, 17), record::idAt<TileId>(2));
    g.setTileMapping(y.slice(17, 40), record::idAt<TileId>(0));
    const std::vector<Tensor> xParts = {x.slice(50, 70), x.slice(5, 30),   x.slice(90, 100),
                                        x.slice(0, 5),   x.slice(24, 25),  x.slice(26, 27),
                                        x.slice(25, 26), x.slice(59, 61),  x.slice(30, 31),
                                        x.slice(0, 100), x.slice(99, 100), x.slice(10, 11)};
    const std::vector<Tensor> yParts = {y.slice(16, 18), y.slice(0, 3), y.slice(30, 40),
                                        y.slice(3, 17)};
    const compiler::CompiledGraph compiled = compiler::compile(g, {});
    for (const std::vector<Tensor>* parts : {&xParts, &yParts}) {
        const Tensor view = concat(*parts);
        // Reference: every element located on its own, neighbours merged.
        std::vector<compiler::Run> want;
        const std::size_t size = sizeOf(view.elementType());
        for (const VariableRegion& r : view.regions()) {
            for (std::size_t e = r.begin; e < r.end; ++e) {
                const compiler::Location l = compiled.locate(r.var, e);
                if (!want.empty() && want.back().location.block == l.block &&
                    want.back().location.offset + want.back().elements * size == l.offset) {
                    ++want.back().elements;
                } else {
                    want.push_back({l, compiled.blocks[l.block].tile, 1});
                }
            }
        }
        const auto check = [&](const LargeVector<compiler::Run>& got) {
            QCOMPARE(got.size(), want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                QCOMPARE(got[i].location.block, want[i].location.block);
                QCOMPARE(got[i].location.offset, want[i].location.offset);
                QCOMPARE(got[i].tile, want[i].tile);
                QCOMPARE(got[i].elements, want[i].elements);
            }
        };
        check(compiled.runsOf(view));
        // With per-variable hints of where the last call ended: fresh, in the
        // middle, and past every interval; and carried from part to part.
        for (const std::uint32_t start : {0u, 3u, 1000u}) {
            std::vector<std::uint32_t> hints(g.variables().size(), start);
            LargeVector<compiler::Run> got;
            compiled.appendRuns(view.regions(), got, &hints);
            check(got);
        }
        std::vector<std::uint32_t> carried(g.variables().size(), 0);
        LargeVector<compiler::Run> partByPart;
        for (const Tensor& part : *parts) {
            compiled.appendRuns(part.regions(), partByPart, &carried);
        }
        check(partByPart);
    }
}

void TestEnginePlanning::itemsGroupedByTileKeepTheirOrder() {
    // Tiles from a small linear congruential sequence, with tiles 0 and 6 of
    // 7 left empty; reference: a vector per tile, filled in item order.
    constexpr std::size_t kTiles = 7;
    std::vector<std::size_t> tileOf;
    std::vector<std::vector<std::uint32_t>> want(kTiles);
    std::uint32_t x = 12345;
    for (std::uint32_t i = 0; i < 1000; ++i) {
        x = x * 1103515245u + 12345u;
        const std::size_t tile = 1 + (x >> 16) % (kTiles - 2);
        tileOf.push_back(tile);
        want[tile].push_back(i);
    }
    const compiler::ByTile<std::uint32_t> got(kTiles, tileOf.size(),
                                              [&](std::size_t i) { return tileOf[i]; });
    for (std::size_t t = 0; t < kTiles; ++t) {
        const std::span<const std::uint32_t> items = got.of(t);
        QCOMPARE(std::vector<std::uint32_t>(items.begin(), items.end()), want[t]);
    }
    QVERIFY(got.of(0).empty() && got.of(kTiles - 1).empty());
    // Strong ids too, and nothing at all.
    const compiler::ByTile<VertexId> none(3, 0, [](std::size_t) { return std::size_t{0}; });
    QVERIFY(none.of(0).empty() && none.of(2).empty());
}

QTEST_GUILESS_MAIN(TestEnginePlanning)
#include "tst_engine_planning.moc"
