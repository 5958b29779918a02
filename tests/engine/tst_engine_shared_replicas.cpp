// Replicas a Copy step makes of the same bytes on many tiles, made once by
// Engine::run (runtime/SharedReplicas.h): which are shared and which are
// still copied, that a run gives the values worked out on the host and the
// same step records and cycles as copying every replica, and that the
// debugger's stepping copies them all.
#include "EngineRunSupport.h"
#include "SmallMatMul.h"
#include "Tiles8.h"
#include "engine/graph/Graph.h"
#include "engine/ops/MatMul.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/SharedReplicas.h"
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

constexpr std::uint64_t kBlockBytes = kBlock * sizeof(float);

std::uint64_t notCopied(const Engine& engine) {
    std::uint64_t total = 0;
    for (std::size_t s = 0; s < engine.compiled().steps.size(); ++s) {
        total += engine.replicaBytesNotCopied(record::idAt<compiler::StepId>(s));
    }
    return total;
}

// x (one block, on tile 0) copied to a block of `rep` on every tile, then
// out[t] = rep[t] + y[t] on each tile.
struct Broadcast {
    Graph g{Target::preset("tiles:8")};
    Tensor x = g.addVariable(Type::Float, {kBlock}, "x");
    Tensor rep = tiled(g, "rep");
    Tensor y = tiled(g, "y");
    Tensor out = tiled(g, "out");
    ComputeSet add = g.addComputeSet("add");
    std::vector<float> hx{1.5f, -2.0f, 3.25f, 8.0f}, hy = ramp(0.5f);

    Broadcast() {
        g.setTileMapping(x, tile(0));
        onEveryTile(g, add, "Add<float>", [&](std::size_t t) -> Connections {
            return {{"in1", blockOf(rep, t)}, {"in2", blockOf(y, t)}, {"out", blockOf(out, t)}};
        });
    }
    prog::Copy copy() const {
        return prog::Copy(concat(std::vector<Tensor>(kTiles, x)), rep, "broadcast");
    }
    void write(Engine& e) const {
        e.write<float>(x, hx);
        e.write<float>(y, hy);
    }
    void checkOut(const Engine& e) const {
        const std::vector<float> got = e.read<float>(out);
        for (std::size_t i = 0; i < got.size(); ++i) {
            QVERIFY2(got[i] == hx[i % kBlock] + hy[i],
                     qPrintable(QString("out[%1] = %2, expected %3")
                                    .arg(i)
                                    .arg(got[i])
                                    .arg(hx[i % kBlock] + hy[i])));
        }
    }
};

} // namespace

class TestEngineSharedReplicas : public QObject {
    Q_OBJECT

private slots:
    void replicasOnlyVerticesReadAreCopiedOnce();
    void aReplicaReadByACopyOrWrittenIsCopied();
    void aReplicaUsedPastALoopStartIsCopied();
    void theDebuggersStepsCopyEveryReplica();
    void aMatMulCopiesEachOperandBlockOnceWithTheSameBytesAndRecords();
    void cleanup() {
        runtime::setShareReplicas(runtime::ShareReplicas::Auto);
        runtime::setGrouping(runtime::Grouping::Auto);
    }
};

void TestEngineSharedReplicas::replicasOnlyVerticesReadAreCopiedOnce() {
    Broadcast b;
    Engine engine(b.g, prog::Sequence({b.copy(), prog::Execute(b.add)}), test::options(2));
    // One replica made, seven read from it.
    QCOMPARE(notCopied(engine), (kTiles - 1) * kBlockBytes);
    b.write(engine);
    engine.run();
    b.checkOut(engine);
}

void TestEngineSharedReplicas::aReplicaReadByACopyOrWrittenIsCopied() {
    // Tile 3's vertex writes its replica (rep[3] = rep[3] + y[3]) and the
    // next step reads it back (again = rep[3] + y[3]); tile 5's replica is
    // copied on to z by a later Copy: both must be made.
    Broadcast b;
    Graph& g = b.g;
    Tensor z = g.addVariable(Type::Float, {kBlock}, "z");
    Tensor again = g.addVariable(Type::Float, {kBlock}, "again");
    g.setTileMapping(z, tile(6));
    g.setTileMapping(again, tile(3));
    // Read by the host at the end, so live to the end (no other variable
    // takes their bytes).
    g.createHostRead("out", b.out);
    g.createHostRead("z", z);
    g.createHostRead("again", again);
    const ComputeSet bump = g.addComputeSet("bump");
    g.setTileMapping(
        g.addVertex(
            bump, "Add<float>",
            {{"in1", blockOf(b.rep, 3)}, {"in2", blockOf(b.y, 3)}, {"out", blockOf(b.rep, 3)}}),
        tile(3));
    const ComputeSet reread = g.addComputeSet("reread");
    g.setTileMapping(
        g.addVertex(reread, "Add<float>",
                    {{"in1", blockOf(b.rep, 3)}, {"in2", blockOf(b.y, 3)}, {"out", again}}),
        tile(3));
    Engine engine(g,
                  prog::Sequence({b.copy(), prog::Execute(b.add), prog::Execute(bump),
                                  prog::Execute(reread), prog::Copy(blockOf(b.rep, 5), z)}),
                  test::options(2));
    QCOMPARE(notCopied(engine), (kTiles - 3) * kBlockBytes);
    b.write(engine);
    engine.run();
    b.checkOut(engine);
    QCOMPARE(engine.read<float>(z), b.hx);
    const std::vector<float> got = engine.read<float>(again);
    for (std::size_t i = 0; i < kBlock; ++i) {
        QCOMPARE(got[i], b.hx[i] + 2.0f * b.hy[3 * kBlock + i]);
    }
}

void TestEngineSharedReplicas::aReplicaUsedPastALoopStartIsCopied() {
    // The vertices read the replicas inside a loop: a jump lands between
    // the copy and them, so every replica is made.
    Broadcast b;
    Engine engine(b.g, prog::Sequence({b.copy(), prog::Repeat(2, prog::Execute(b.add))}),
                  test::options(2));
    QCOMPARE(notCopied(engine), std::uint64_t{0});
    b.write(engine);
    engine.run();
    b.checkOut(engine);
}

void TestEngineSharedReplicas::theDebuggersStepsCopyEveryReplica() {
    Broadcast b;
    Engine engine(b.g, prog::Sequence({b.copy(), prog::Execute(b.add)}), test::options(2));
    QVERIFY(notCopied(engine) > 0);
    b.write(engine);
    engine.beginRun(0);
    engine.advance(); // the copy
    const std::vector<float> rep = engine.read<float>(b.rep);
    for (std::size_t i = 0; i < rep.size(); ++i) {
        QCOMPARE(rep[i], b.hx[i % kBlock]);
    }
    while (!engine.nextStep().isNone()) {
        engine.advance();
    }
    engine.endRun();
    b.checkOut(engine);
}

void TestEngineSharedReplicas::aMatMulCopiesEachOperandBlockOnceWithTheSameBytesAndRecords() {
    // Every block of a and b goes to several tiles; shared, each is copied
    // once, so the copies make |a| + |b| elements.
    const test::IntegerProduct p = test::integerProduct(48, 64, 40);
    std::uint64_t skipped = 0, copies = 0; // bytes: not copied; the Copy steps move
    const auto inspect = [&](const Engine& engine) {
        skipped = notCopied(engine);
        copies = 0;
        for (const compiler::StepPlan& step : engine.compiled().steps) {
            if (step.kind == record::ProgramKind::Copy) {
                for (const compiler::Transfer& t : step.gather) {
                    copies += t.bytes;
                }
            }
        }
    };
    const std::uint64_t operands = (p.m * p.k + p.k * p.n) * sizeof(float);
    runtime::setShareReplicas(runtime::ShareReplicas::Never);
    runtime::setGrouping(runtime::Grouping::Never);
    const test::MatMulRun copied = test::runOnTiles64(p, 1, inspect);
    QCOMPARE(skipped, std::uint64_t{0});
    CHECK_EQUAL(copied.c, p.c);
    QVERIFY2(copies > operands, "the product's plan no longer sends a block to several tiles");
    runtime::setShareReplicas(runtime::ShareReplicas::Auto);
    for (const auto grouping : {runtime::Grouping::Never, runtime::Grouping::Auto}) {
        runtime::setGrouping(grouping);
        for (const unsigned threads : {1u, 2u}) {
            const test::MatMulRun r = test::runOnTiles64(p, threads, inspect);
            QCOMPARE(copies - skipped, operands);
            CHECK_EQUAL(r.c, p.c);
            QVERIFY(r.steps == copied.steps);
        }
    }
}

QTEST_GUILESS_MAIN(TestEngineSharedReplicas)
#include "tst_engine_shared_replicas.moc"
