// Consecutive steps run tile by tile (runtime/StepGroups.h): which steps the
// planner groups, and that a grouped run gives what the steps one after the
// other give, checked against values worked out on the host, against the
// same program run with grouping off (bytes, step records, cycles, prints),
// and for a failure inside a group. The programs that must not be grouped
// are run on one thread, where grouping them would read a neighbour's data
// before or after the step that writes it and give other values.
#include "EngineRunSupport.h"
#include "HostProducts.h"
#include "Tiles8.h"
#include "engine/codelets/Vertex.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/ByteRanges.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/StepGroups.h"
#include "engine/runtime/VertexPrint.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace tessera;
namespace prog = tessera::program;

namespace {

using namespace test::tiles8;

// A compute set whose vertex on tile t computes out[t] = in1[t + s1] op in2[t + s2]
// (indices in blocks, wrapping): a remote operand where the shift is not 0.
ComputeSet combine(Graph& g, const char* codelet, const Tensor& in1, std::size_t s1,
                   const Tensor& in2, std::size_t s2, const Tensor& out, const std::string& name) {
    const ComputeSet cs = g.addComputeSet(name);
    onEveryTile(g, cs, codelet, [&](std::size_t t) -> Connections {
        return {
            {"in1", blockOf(in1, t + s1)}, {"in2", blockOf(in2, t + s2)}, {"out", blockOf(out, t)}};
    });
    return cs;
}

// Element e of block t + shift.
float at(const std::vector<float>& v, std::size_t t, std::size_t shift, std::size_t e) {
    return v[((t + shift) % kTiles) * kBlock + e];
}

// The steps planned from each instruction of program 0.
std::vector<std::size_t> planOf(const Graph& g, const Engine& engine) {
    runtime::StepGroups groups(g, engine.compiled());
    std::vector<std::size_t> out;
    for (std::size_t pc = 0; pc < engine.compiled().programs[0].size(); ++pc) {
        out.push_back(groups.stepsFrom(0, pc));
    }
    return out;
}

// Fails on tile `failOn` (after printing), prints its tile otherwise.
class FailsOnTile : public Vertex {
public:
    InOut<Vector<float>> data;
    Input<int> tileNumber;
    Input<int> failOn;
    Input<int> stepNumber;
    bool compute() {
        runtime::appendVertexPrint("step " + std::to_string(int(stepNumber)) + " tile " +
                                   std::to_string(int(tileNumber)) + "\n");
        data[0] += 1.0f;
        return int(tileNumber) != int(failOn);
    }
};

} // namespace

class TestEngineStepGroups : public QObject {
    Q_OBJECT

private slots:
    void stepsReadingOnlyWhatNoStepWritesAreGrouped();
    void aStepReadingWhatAnEarlierOneWroteElsewhereIsNot();
    void tilesReadingEachOthersNewBytesRunAsOneUnit();
    void aMatMulsReductionRunsInUnitsLikeTheStepsApart();
    void memoryReusedByALaterVariableSplitsTheGroup();
    void aGroupedMatMulMatchesTheHostAndTheStepsApart();
    void aFailureInsideAGroupIsTheOneStepsApartReport();
    void byteRangesMergeOnlyWithinTheirOwner();
    void cleanup() { runtime::setGrouping(runtime::Grouping::Auto); }
};

void TestEngineStepGroups::stepsReadingOnlyWhatNoStepWritesAreGrouped() {
    // y[t] = x[t] + x[t+1], then z[t] = y[t] * x[t+3]: both read x remotely,
    // nothing writes x.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y"), z = tiled(g, "z");
    const ComputeSet first = combine(g, "Add<float>", x, 0, x, 1, y, "first");
    const ComputeSet second = combine(g, "Mul<float>", y, 0, x, 3, z, "second");
    Engine engine(g, prog::Sequence({prog::Execute(first), prog::Execute(second)}),
                  test::options(1));
    QCOMPARE(planOf(g, engine), (std::vector<std::size_t>{2, 0}));
    const std::vector<float> hx = inputs();
    engine.write<float>(x, hx);
    engine.run();
    const std::vector<float> got = engine.read<float>(z);
    for (std::size_t t = 0; t < kTiles; ++t) {
        for (std::size_t e = 0; e < kBlock; ++e) {
            QCOMPARE(got[t * kBlock + e], (at(hx, t, 0, e) + at(hx, t, 1, e)) * at(hx, t, 3, e));
        }
    }
}

void TestEngineStepGroups::aStepReadingWhatAnEarlierOneWroteElsewhereIsNot() {
    // z[t] = y[t] + y[t+1] after y is computed: tile 0 would read y[1]
    // before tile 1 computed it. Followed by a step that reads nothing
    // remotely, which may join the second (it reads y too, so nothing it
    // writes can take y's bytes).
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y"), z = tiled(g, "z"), w = tiled(g, "w");
    const ComputeSet first = combine(g, "Add<float>", x, 0, x, 1, y, "first");
    const ComputeSet second = combine(g, "Add<float>", y, 0, y, 1, z, "second");
    const ComputeSet third = combine(g, "Mul<float>", z, 0, y, 0, w, "third");
    Engine engine(
        g, prog::Sequence({prog::Execute(first), prog::Execute(second), prog::Execute(third)}),
        test::options(1));
    QCOMPARE(planOf(g, engine), (std::vector<std::size_t>{0, 2, 0}));
    const std::vector<float> hx = inputs();
    engine.write<float>(x, hx);
    engine.run();
    const std::vector<float> got = engine.read<float>(w);
    for (std::size_t t = 0; t < kTiles; ++t) {
        for (std::size_t e = 0; e < kBlock; ++e) {
            const float yt = at(hx, t, 0, e) + at(hx, t, 1, e);
            const float yn = at(hx, t, 1, e) + at(hx, t, 2, e);
            QCOMPARE(got[t * kBlock + e], (yt + yn) * yt);
        }
    }
}

void TestEngineStepGroups::tilesReadingEachOthersNewBytesRunAsOneUnit() {
    // y[t] = x[t] + x[t+1], then z[t] = y[t] * y[t^1]: tiles 2u and 2u+1
    // read each other's y, so they run as one unit: both compute y before
    // either computes z. On one thread, tile by tile, tile 0 would read
    // tile 1's y before tile 1 made it (zero).
    for (const unsigned threads : {1u, 2u}) {
        Graph g(Target::preset("tiles:8"));
        Tensor x = tiled(g, "x"), y = tiled(g, "y"), z = tiled(g, "z");
        const ComputeSet first = combine(g, "Add<float>", x, 0, x, 1, y, "first");
        const ComputeSet second = g.addComputeSet("second");
        onEveryTile(g, second, "Mul<float>", [&](std::size_t t) -> Connections {
            return {{"in1", blockOf(y, t)}, {"in2", blockOf(y, t ^ 1)}, {"out", blockOf(z, t)}};
        });
        Engine engine(g, prog::Sequence({prog::Execute(first), prog::Execute(second)}),
                      test::options(threads));
        QCOMPARE(planOf(g, engine), (std::vector<std::size_t>{2, 0}));
        runtime::StepGroups groups(g, engine.compiled());
        QCOMPARE(groups.unitsFrom(0, 0), (std::vector<std::uint32_t>{0, 0, 2, 2, 4, 4, 6, 6}));
        const std::vector<float> hx = inputs();
        engine.write<float>(x, hx);
        engine.run();
        const std::vector<float> got = engine.read<float>(z);
        for (std::size_t t = 0; t < kTiles; ++t) {
            for (std::size_t e = 0; e < kBlock; ++e) {
                const std::size_t p = t ^ 1;
                const float yt = at(hx, t, 0, e) + at(hx, t, 1, e);
                const float yp = at(hx, p, 0, e) + at(hx, p, 1, e);
                QCOMPARE(got[t * kBlock + e], yt * yp);
            }
        }
    }
}

void TestEngineStepGroups::aMatMulsReductionRunsInUnitsLikeTheStepsApart() {
    // A long k splits each output over several tiles, whose partial sums one
    // tile of each cluster adds: the products and that reduction run as one
    // group in units of the cluster's tiles. Small integers keep every sum
    // exact: the host's product is the reference bit for bit.
    const std::size_t m = 32, k = 256, n = 32; // on tiles:128: clusters of 4 tiles
    const std::vector<float> ha = test::integers(m * k, 13, 6), hb = test::integers(k * n, 5, 2);
    struct Result {
        std::vector<float> c;
        std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> steps;
        bool inUnits = false;
    };
    const auto runWith = [&](runtime::Grouping mode, unsigned threadCount) {
        runtime::setGrouping(mode);
        Graph g(Target::preset("tiles:128"));
        Tensor a = g.addVariable(Type::Float, {m, k}, "a");
        Tensor b = g.addVariable(Type::Float, {k, n}, "b");
        ops::mapLinearly(g, a, k);
        ops::mapLinearly(g, b, n);
        prog::Sequence seq;
        Tensor c = ops::matMul(g, seq, a, b, "mm");
        record::InMemoryRecorder recorder;
        Engine engine(g, seq, test::options(threadCount, &recorder));
        Result r;
        runtime::StepGroups groups(g, engine.compiled());
        for (std::size_t pc = 0; pc < engine.compiled().programs[0].size(); ++pc) {
            const std::vector<std::uint32_t>& units = groups.unitsFrom(0, pc);
            r.inUnits = r.inUnits || std::any_of(units.begin(), units.end(), [&](std::uint32_t u) {
                            return u != static_cast<std::uint32_t>(&u - units.data());
                        });
        }
        engine.write<float>(a, ha);
        engine.write<float>(b, hb);
        engine.run();
        r.c = engine.read<float>(c);
        for (const record::StepExecutionRecord& s : recorder.steps) {
            r.steps.emplace_back(s.programStep.value(), s.startCycle, s.cycles);
        }
        return r;
    };
    const Result grouped = runWith(runtime::Grouping::Auto, 2);
    const Result apart = runWith(runtime::Grouping::Never, 2);
    QVERIFY(grouped.inUnits);
    QCOMPARE(grouped.c, test::product(ha, hb, m, k, n));
    QCOMPARE(grouped.c, apart.c);
    QCOMPARE(grouped.steps, apart.steps);
    QCOMPARE(runWith(runtime::Grouping::Auto, 1).c, grouped.c);
}

void TestEngineStepGroups::memoryReusedByALaterVariableSplitsTheGroup() {
    // x is made by a step, read remotely by the next, and dead after it;
    // w, first written by the third step, may then take x's bytes. The
    // second and third steps name different variables, so only the bytes
    // tell that tile 7's read of x[0] must come before tile 0 writes w.
    Graph g(Target::preset("tiles:8"));
    Tensor x = tiled(g, "x"), y = tiled(g, "y"), w = tiled(g, "w"), one = tiled(g, "one");
    prog::Sequence seq;
    ops::fill(g, seq, one, 1.0, "one");
    const std::vector<float> hx = inputs();
    const std::vector<double> values(hx.begin(), hx.end());
    Tensor source = g.addConstant(Type::Float, {kTiles * kBlock}, values, "source");
    for (std::size_t t = 0; t < kTiles; ++t) {
        g.setTileMapping(blockOf(source, t), tile(t));
    }
    seq.add(prog::Execute(combine(g, "Mul<float>", source, 0, one, 0, x, "makeX")));
    seq.add(prog::Execute(combine(g, "Add<float>", x, 0, x, 1, y, "readX")));
    seq.add(prog::Execute(combine(g, "Add<float>", one, 0, one, 0, w, "makeW")));
    seq.add(prog::Execute(combine(g, "Add<float>", w, 0, y, 0, y, "useW")));
    Engine engine(g, seq, test::options(1));
    // The layout gave w the bytes of x on at least one tile.
    const compiler::CompiledGraph& c = engine.compiled();
    bool shared = false;
    for (const compiler::PlacedInterval& px : c.placements[x.regions()[0].var.value()]) {
        for (const compiler::PlacedInterval& pw : c.placements[w.regions()[0].var.value()]) {
            const compiler::DataBlock& bx = c.blocks[px.block];
            const compiler::DataBlock& bw = c.blocks[pw.block];
            shared = shared || (bx.tile == bw.tile && bx.storeOffset < bw.storeOffset + bw.bytes &&
                                bw.storeOffset < bx.storeOffset + bx.bytes);
        }
    }
    QVERIFY2(shared, "the layout no longer reuses x's memory for w: this test needs a new case");
    const std::vector<std::size_t> plan = planOf(g, engine);
    const auto& code = c.programs[0];
    const auto stepAt = [&](const std::string& name) {
        for (std::size_t pc = 0; pc < code.size(); ++pc) {
            if (c.step(code[pc].step).name.find(name) != std::string::npos) {
                return pc;
            }
        }
        return code.size();
    };
    QCOMPARE(plan[stepAt("readX")], std::size_t{0});
    engine.run();
    const std::vector<float> got = engine.read<float>(y);
    for (std::size_t t = 0; t < kTiles; ++t) {
        for (std::size_t e = 0; e < kBlock; ++e) {
            QCOMPARE(got[t * kBlock + e], at(hx, t, 0, e) + at(hx, t, 1, e) + 2.0f);
        }
    }
}

void TestEngineStepGroups::aGroupedMatMulMatchesTheHostAndTheStepsApart() {
    // The block copies and the products form one group; small integers keep
    // every sum exact, so the host's product is the reference bit for bit.
    const std::size_t m = 24, k = 40, n = 20;
    const std::vector<float> ha = test::integers(m * k, 11, 5), hb = test::integers(k * n, 7, 3);
    struct Result {
        std::vector<float> c;
        std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>>
            steps; // id, start, cycles
        std::uint64_t cycles = 0;
        std::vector<std::size_t> plan;
    };
    const auto runWith = [&](runtime::Grouping mode, unsigned threadCount) {
        runtime::setGrouping(mode);
        Graph g(Target::preset("tiles:16"));
        Tensor a = g.addVariable(Type::Float, {m, k}, "a");
        Tensor b = g.addVariable(Type::Float, {k, n}, "b");
        for (std::size_t r = 0; r < m; ++r) {
            g.setTileMapping(a[r], tile(r));
        }
        for (std::size_t r = 0; r < k; ++r) {
            g.setTileMapping(b[r], record::idAt<TileId>(static_cast<std::uint32_t>(15 - r % 16)));
        }
        prog::Sequence seq;
        Tensor c = ops::matMul(g, seq, a, b, "mm");
        record::InMemoryRecorder recorder;
        Engine engine(g, seq, test::options(threadCount, &recorder));
        Result r;
        r.plan = planOf(g, engine);
        engine.write<float>(a, ha);
        engine.write<float>(b, hb);
        engine.run();
        r.c = engine.read<float>(c);
        for (const record::StepExecutionRecord& s : recorder.steps) {
            r.steps.emplace_back(s.programStep.value(), s.startCycle, s.cycles);
        }
        r.cycles = engine.cyclesSoFar();
        return r;
    };
    const Result grouped = runWith(runtime::Grouping::Auto, 2);
    const Result apart = runWith(runtime::Grouping::Never, 2);
    QVERIFY(std::find_if(grouped.plan.begin(), grouped.plan.end(),
                         [](std::size_t s) { return s >= 3; }) != grouped.plan.end());
    QCOMPARE(apart.plan, std::vector<std::size_t>(apart.plan.size(), 0));
    QCOMPARE(grouped.c, test::product(ha, hb, m, k, n));
    QCOMPARE(grouped.c, apart.c);
    QCOMPARE(grouped.steps, apart.steps);
    QCOMPARE(grouped.cycles, apart.cycles);
    QCOMPARE(runWith(runtime::Grouping::Auto, 1).c, grouped.c);
}

void TestEngineStepGroups::aFailureInsideAGroupIsTheOneStepsApartReport() {
    // Two steps of one group: the second fails on tile 2, the first on tile 6.
    // Steps one after the other stop in the first, on tile 6, after it printed
    // every tile's line; the second never runs.
    struct Outcome {
        std::string error, printed;
        std::size_t recordedSteps = 0;
        std::vector<std::size_t> plan;
    };
    const auto runWith = [&](runtime::Grouping mode) {
        runtime::setGrouping(mode);
        Graph g(Target::preset("tiles:8"));
        g.addCodelet(CodeletBuilder<FailsOnTile>("FailsOnTile")
                         .field("data", &FailsOnTile::data)
                         .field("tileNumber", &FailsOnTile::tileNumber)
                         .field("failOn", &FailsOnTile::failOn)
                         .field("stepNumber", &FailsOnTile::stepNumber)
                         .build());
        Tensor d = tiled(g, "d");
        prog::Sequence seq;
        for (int step = 1; step <= 2; ++step) {
            const ComputeSet cs = g.addComputeSet("step" + std::to_string(step));
            for (std::size_t t = 0; t < kTiles; ++t) {
                const auto constant = [&](int v) {
                    Tensor c = g.addConstant(Type::Int, {}, double(v));
                    g.setTileMapping(c, tile(t));
                    return c;
                };
                g.setTileMapping(g.addVertex(cs, "FailsOnTile",
                                             {{"data", blockOf(d, t)},
                                              {"tileNumber", constant(int(t))},
                                              {"failOn", constant(step == 1 ? 6 : 2)},
                                              {"stepNumber", constant(step)}}),
                                 tile(t));
            }
            seq.add(prog::Execute(cs));
        }
        std::ostringstream printed;
        record::InMemoryRecorder recorder;
        Engine engine(g, seq, test::options(2, &recorder, &printed));
        Outcome o;
        o.plan = planOf(g, engine);
        try {
            engine.run();
        } catch (const std::exception& e) {
            o.error = e.what();
        }
        o.printed = printed.str();
        o.recordedSteps = recorder.steps.size();
        return o;
    };
    const Outcome grouped = runWith(runtime::Grouping::Auto);
    const Outcome apart = runWith(runtime::Grouping::Never);
    QCOMPARE(grouped.plan, (std::vector<std::size_t>{2, 0}));
    QVERIFY2(grouped.error.find("FailsOnTile#6") != std::string::npos, grouped.error.c_str());
    QVERIFY2(grouped.error.find("step1") != std::string::npos, grouped.error.c_str());
    QCOMPARE(grouped.error, apart.error);
    std::string expected;
    for (std::size_t t = 0; t < kTiles; ++t) {
        expected += "step 1 tile " + std::to_string(t) + "\n";
    }
    QCOMPARE(grouped.printed, expected);
    QCOMPARE(apart.printed, expected);
    QCOMPARE(grouped.recordedSteps, std::size_t{0});
    QCOMPARE(apart.recordedSteps, std::size_t{0});
}

// The sorted, merged range lists StepGroups and InPlaceReads compare: ranges
// that overlap or touch merge, ranges of two owners never do, whatever
// their byte offsets.
void TestEngineStepGroups::byteRangesMergeOnlyWithinTheirOwner() {
    struct Range {
        int tile;
        std::uint64_t begin, end;
        bool operator==(const Range&) const = default;
    };
    std::vector<Range> ranges{{2, 0, 16},  {1, 8, 24},  {1, 0, 16},
                              {2, 16, 20}, {1, 30, 40}, {3, 4, 8}};
    runtime::coalesce<&Range::tile>(ranges);
    const std::vector<Range> want{{1, 0, 24}, {1, 30, 40}, {2, 0, 20}, {3, 4, 8}};
    QVERIFY(ranges == want);
}

QTEST_APPLESS_MAIN(TestEngineStepGroups)
#include "tst_engine_step_groups.moc"
