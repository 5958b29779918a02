// Vertices read gathered inputs where the exchange reads them
// (runtime/InPlaceReads.h): which entries are read in place and which are
// still copied, and that either way a run gives the values worked out on the
// host, and the same bytes, step records and cycles as copying everything.
#include "EngineRunSupport.h"
#include "SmallMatMul.h"
#include "Tiles8.h"
#include "engine/graph/Graph.h"
#include "engine/ops/MatMul.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/InPlaceReads.h"
#include "engine/runtime/StepGroups.h"

#include <QObject>
#include <QTest>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

using namespace tessera;
namespace prog = tessera::program;

namespace {

using namespace test::tiles8;

// Elements [t·kBlock + shift, +kBlock) of v, wrapping: block t when shift is 0,
// otherwise straddling two tiles' blocks.
Tensor window(const Tensor& v, std::size_t t, std::size_t shift = 0) {
    t %= kTiles;
    const std::size_t begin = t * kBlock + shift;
    if (begin + kBlock <= kTiles * kBlock) {
        return v.slice(begin, begin + kBlock);
    }
    return concat(v.slice(begin, kTiles * kBlock), v.slice(0, begin + kBlock - kTiles * kBlock));
}

// Element i of v, wrapping.
float at(const std::vector<float>& v, std::size_t i) {
    return v[i % v.size()];
}

std::uint64_t inPlaceBytes(const Engine& engine) {
    std::uint64_t total = 0;
    for (std::size_t s = 0; s < engine.compiled().steps.size(); ++s) {
        total += engine.bytesReadInPlace(record::idAt<compiler::StepId>(s));
    }
    return total;
}

} // namespace

class TestEngineInPlaceReads : public QObject {
    Q_OBJECT

private slots:
    void remoteInputsAreReadWhereTheExchangeReadsThem();
    void anEntryFilledByTwoTransfersIsCopied();
    void anInOutEntryIsCopied();
    void aVertexWritingItsRemoteInputReadsTheValueBeforeTheStep();
    void bytesWrittenBesideARemoteReadDoNotStopIt();
    void aMatMulReadsItsPartialsInPlaceWithTheSameBytesAndRecords();
    void cleanup() {
        runtime::setReadInPlace(runtime::ReadInPlace::Auto);
        runtime::setGrouping(runtime::Grouping::Auto);
    }
};

void TestEngineInPlaceReads::remoteInputsAreReadWhereTheExchangeReadsThem() {
    // y[t] = x[t+1] + x[t+3] (blocks): both inputs come whole from one other
    // tile, so each is one transfer and is read in place.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y");
    const ComputeSet cs = g.addComputeSet("add");
    onEveryTile(g, cs, "Add<float>", [&](std::size_t t) -> Connections {
        return {{"in1", window(x, t + 1)}, {"in2", window(x, t + 3)}, {"out", window(y, t)}};
    });
    Engine engine(g, prog::Execute(cs), test::options(2));
    QCOMPARE(inPlaceBytes(engine), std::uint64_t{2 * kTiles * kBlock * sizeof(float)});
    const std::vector<float> hx = inputs();
    engine.write<float>(x, hx);
    engine.run();
    const std::vector<float> got = engine.read<float>(y);
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i], at(hx, i + kBlock) + at(hx, i + 3 * kBlock));
    }
}

void TestEngineInPlaceReads::anEntryFilledByTwoTransfersIsCopied() {
    // in1 straddles the blocks of tiles t+1 and t+2: two transfers fill it,
    // so it is copied; in2 is one remote block, read in place.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y");
    const ComputeSet cs = g.addComputeSet("add");
    onEveryTile(g, cs, "Add<float>", [&](std::size_t t) -> Connections {
        return {{"in1", window(x, t + 1, 2)}, {"in2", window(x, t + 5)}, {"out", window(y, t)}};
    });
    Engine engine(g, prog::Execute(cs), test::options(2));
    QCOMPARE(inPlaceBytes(engine), std::uint64_t{kTiles * kBlock * sizeof(float)});
    const std::vector<float> hx = inputs();
    engine.write<float>(x, hx);
    engine.run();
    const std::vector<float> got = engine.read<float>(y);
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i], at(hx, i + kBlock + 2) + at(hx, i + 5 * kBlock));
    }
}

void TestEngineInPlaceReads::anInOutEntryIsCopied() {
    // z[t+1] += x[t+2] on tile t (ScaledAdd, scale 1): the vertex writes
    // its exchange buffer, which the step then copies back, so the gathered
    // z is copied; x, only read, is read in place.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), z = tiled(g, "z");
    const ComputeSet cs = g.addComputeSet("accumulate");
    onEveryTile(g, cs, "ScaledAdd<float>", [&](std::size_t t) -> Connections {
        return {{"data", window(z, t + 1)}, {"deltas", window(x, t + 2)}};
    });
    Engine engine(g, prog::Execute(cs), test::options(2));
    QCOMPARE(inPlaceBytes(engine), std::uint64_t{kTiles * kBlock * sizeof(float)});
    const std::vector<float> hx = inputs();
    const std::vector<float> hz = ramp(10.0f);
    engine.write<float>(x, hx);
    engine.write<float>(z, hz);
    engine.run();
    const std::vector<float> got = engine.read<float>(z);
    for (std::size_t i = 0; i < got.size(); ++i) {
        // Tile t adds x's block t+2 to z's block t+1: z's block u gets x's block u+1.
        QCOMPARE(got[i], hz[i] + at(hx, i + kBlock));
    }
}

void TestEngineInPlaceReads::aVertexWritingItsRemoteInputReadsTheValueBeforeTheStep() {
    // x[t+1] = x[t+1] + y[t], the sum computed on tile t: x's block comes in
    // by the exchange and goes back after the vertices, so reading it in
    // place still gives the value from before the step.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y");
    const ComputeSet cs = g.addComputeSet("add");
    onEveryTile(g, cs, "Add<float>", [&](std::size_t t) -> Connections {
        return {{"in1", window(x, t + 1)}, {"in2", window(y, t)}, {"out", window(x, t + 1)}};
    });
    Engine engine(g, prog::Execute(cs), test::options(2));
    QCOMPARE(inPlaceBytes(engine), std::uint64_t{kTiles * kBlock * sizeof(float)});
    const std::vector<float> hx = inputs();
    const std::vector<float> hy = ramp(0.5f);
    engine.write<float>(x, hx);
    engine.write<float>(y, hy);
    engine.run();
    const std::vector<float> got = engine.read<float>(x);
    for (std::size_t i = 0; i < got.size(); ++i) {
        // x's block u is summed on tile u-1 with y's block u-1.
        QCOMPARE(got[i], hx[i] + at(hy, i + (kTiles - 1) * kBlock));
    }
}

void TestEngineInPlaceReads::bytesWrittenBesideARemoteReadDoNotStopIt() {
    // On tile t: z[t][0..2) = x[t+1][2..4) + y[t][0..2), read from the next
    // tile, while that tile's other vertex writes x[t+1][0..2) =
    // 2·y[t+1][2..4): the same block of x, other bytes.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y"), z = tiled(g, "z");
    const ComputeSet cs = g.addComputeSet("both");
    const auto part = [](const Tensor& v, std::size_t t, std::size_t first) {
        const std::size_t begin = (t % kTiles) * kBlock + first;
        return v.slice(begin, begin + 2);
    };
    onEveryTile(g, cs, "Add<float>", [&](std::size_t t) -> Connections {
        return {{"in1", part(x, t + 1, 2)}, {"in2", part(y, t, 0)}, {"out", part(z, t, 0)}};
    });
    onEveryTile(g, cs, "Add<float>", [&](std::size_t t) -> Connections {
        return {{"in1", part(y, t, 2)}, {"in2", part(y, t, 2)}, {"out", part(x, t, 0)}};
    });
    Engine engine(g, prog::Execute(cs), test::options(2));
    QCOMPARE(inPlaceBytes(engine), std::uint64_t{kTiles * 2 * sizeof(float)});
    const std::vector<float> hx = inputs();
    const std::vector<float> hy = ramp(0.25f);
    engine.write<float>(x, hx);
    engine.write<float>(y, hy);
    engine.run();
    const std::vector<float> gotX = engine.read<float>(x), gotZ = engine.read<float>(z);
    for (std::size_t t = 0; t < kTiles; ++t) {
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(gotZ[t * kBlock + i], at(hx, (t + 1) * kBlock + 2 + i) + hy[t * kBlock + i]);
            QCOMPARE(gotX[t * kBlock + i], 2.0f * hy[t * kBlock + 2 + i]);
            QCOMPARE(gotX[t * kBlock + 2 + i], hx[t * kBlock + 2 + i]);
        }
    }
}

void TestEngineInPlaceReads::aMatMulReadsItsPartialsInPlaceWithTheSameBytesAndRecords() {
    // Sums over k split across tiles: the reduction gathers each partial
    // from the tile that made it, and reads them all in place.
    const test::IntegerProduct p = test::integerProduct(16, 512, 16);
    std::uint64_t inPlace = 0, partials = 0; // read in place; gathered by the reduction
    const auto inspect = [&](const Engine& engine) {
        inPlace = inPlaceBytes(engine);
        partials = 0;
        for (const compiler::StepPlan& step : engine.compiled().steps) {
            if (step.name.ends_with("/reduce")) {
                for (const compiler::Transfer& t : step.gather) {
                    partials += t.bytes;
                }
            }
        }
    };
    runtime::setReadInPlace(runtime::ReadInPlace::Never);
    runtime::setGrouping(runtime::Grouping::Never);
    const test::MatMulRun copied = test::runOnTiles64(p, 1, inspect);
    QCOMPARE(inPlace, std::uint64_t{0});
    CHECK_EQUAL(copied.c, p.c);
    runtime::setReadInPlace(runtime::ReadInPlace::Auto);
    for (const auto grouping : {runtime::Grouping::Never, runtime::Grouping::Auto}) {
        runtime::setGrouping(grouping);
        for (const unsigned threads : {1u, 2u}) {
            const test::MatMulRun r = test::runOnTiles64(p, threads, inspect);
            QVERIFY2(partials > 0, "the product's plan no longer gathers partials");
            QCOMPARE(inPlace, partials); // each partial whole from one tile
            CHECK_EQUAL(r.c, p.c);
            QVERIFY(r.steps == copied.steps);
        }
    }
}

QTEST_GUILESS_MAIN(TestEngineInPlaceReads)
#include "tst_engine_in_place_reads.moc"
