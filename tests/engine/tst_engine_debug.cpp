// The engine's debug interface: breakpoints on steps, compute sets and
// blocks; stepping a superstep or into a compute set; pausing; tensor values
// and owners while paused checked against host computations of the program
// up to that point; stops on errors and out-of-memory steps.
#include "engine/codelets/Vertex.h"
#include "engine/core/Error.h"
#include "engine/debug/DebugSession.h"
#include "engine/ops/Mapping.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"
#include "engine/workloads/Workload.h"

#include <QObject>
#include <QTest>

#include <cmath>
#include <future>
#include <thread>

using namespace tessera;
using debug::DebugSession;
using debug::StopReason;

namespace {

// A workload built for stepping: graph, engine and inputs written.
struct Prepared {
    Prepared(const std::string& name, const std::string& target,
             std::map<std::string, std::string> params = {}, bool allowOutOfMemory = false)
        : graph(Target::preset(target)) {
        const auto& w = workloads::find(name);
        built = w.build(graph, workloads::Parameters(w.parameters(), params));
        EngineOptions options;
        options.recorder = &recorder;
        options.allowOutOfMemory = allowOutOfMemory;
        engine = std::make_unique<Engine>(graph, built.programs, options);
        if (built.setUp) {
            built.setUp(*engine);
        }
    }
    Graph graph;
    workloads::Built built;
    record::InMemoryRecorder recorder;
    std::unique_ptr<Engine> engine;
};

std::string stepName(const DebugSession& s) {
    return s.nextPlan() ? s.nextPlan()->name : std::string("<end>");
}

// A codelet that fails when its input is negative, to stop on an error.
class FailsOnNegative : public Vertex {
public:
    Input<Vector<float>> in;
    bool compute() {
        for (float v : in) {
            if (v < 0) {
                return false;
            }
        }
        return true;
    }
};

} // namespace

class TestEngineDebug : public QObject {
    Q_OBJECT

private slots:
    // mul/out is written by step "mul" and read only by step "add": its bytes
    // are its own from after "mul" until "add" has run, and may hold another
    // variable's data before and after. Inputs and the host-read output are
    // always live.
    void livenessOfTensorsAtThePausedStep() {
        Prepared p("elementwise", "tiles:16", {{"n", "1024"}});
        DebugSession s(*p.engine);
        const Tensor mul = p.graph.findTensor("mul/out");
        const Tensor a = p.graph.findTensor("a");
        QCOMPARE(stepName(s), std::string("mul"));
        QVERIFY(!s.isLive(mul)); // not written yet
        QVERIFY(s.isLive(a));
        QVERIFY(s.isLive(a.slice(0, 10)));
        QCOMPARE(s.stepOver().reason, StopReason::Stepped);
        QCOMPARE(stepName(s), std::string("add"));
        QVERIFY(s.isLive(mul));
        QVERIFY(s.isLive(mul.slice(5, 9)));
        QVERIFY(s.stepInto().reason == StopReason::Stepped && s.insideStep());
        QVERIFY(s.isLive(mul)); // "add" is still to compute with it
        QCOMPARE(s.stepOver().reason, StopReason::Stepped);
        QCOMPARE(stepName(s), std::string("relu"));
        QVERIFY(!s.isLive(mul));              // its last use has run
        QVERIFY(!s.isLive(concat({a, mul}))); // a view over a dead variable is not live either
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        QVERIFY(!s.isLive(mul));
        QVERIFY(s.isLive(p.graph.findTensor("a")));
        QVERIFY_THROWS_EXCEPTION(Error, s.isVariableLive(VariableId{1u << 30}));
    }

    void breakOnComputeSetShowsValuesSoFar() {
        Prepared p("elementwise", "tiles:16", {{"n", "4096"}});
        DebugSession s(*p.engine);
        QCOMPARE(s.breakAt("add"),
                 std::size_t{3}); // the step, its compute set and its Block are all "add"
        const auto stop = s.continueRun();
        QCOMPARE(stop.reason, StopReason::Breakpoint);
        QCOMPARE(stepName(s), std::string("add"));
        // mul ran, add did not: mul/out = a * b; add/out still untouched (zero).
        const auto a = s.read(p.graph.findTensor("a"));
        const auto b = s.read(p.graph.findTensor("b"));
        const auto mul = s.read(p.graph.findTensor("mul/out"));
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(mul[i], double(float(a[i]) * float(b[i])));
        }
        QCOMPARE(s.stepsExecuted(), std::uint64_t{1});
        QCOMPARE(s.cycles(), p.recorder.compiled.programSteps[0].totalCycles);
        // One more superstep: add/out = mul + c.
        QCOMPARE(s.stepOver().reason, StopReason::Stepped);
        const auto c = s.read(p.graph.findTensor("c"));
        const auto add = s.read(p.graph.findTensor("add/out"));
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(add[i], double(float(mul[i]) + float(c[i])));
        }
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        QVERIFY(p.built.verify(*p.engine).passed);
        QVERIFY(p.recorder.runEnds.back().completed);
    }

    void stepIntoStopsBetweenExchangeAndCompute() {
        Prepared p("matmul", "tiles:4", {{"m", "8"}, {"k", "8"}, {"n", "8"}});
        DebugSession s(*p.engine);
        QVERIFY(s.breakAt("matmul/products") >= 1);
        QCOMPARE(s.continueRun().reason, StopReason::Breakpoint);
        const Tensor out = p.graph.findTensor("matmul/out");
        const auto before = s.read(out);
        QCOMPARE(s.stepInto().reason, StopReason::Stepped);
        QVERIFY(s.insideStep());
        QCOMPARE(s.read(out), before); // exchanged, not computed yet
        const auto afterCompute = s.stepOver();
        QCOMPARE(afterCompute.reason, s.finished() ? StopReason::Finished : StopReason::Stepped);
        QVERIFY(!s.insideStep());
        s.runToEnd();
        // C = A.B from the device's own inputs.
        const auto a = s.read(p.graph.findTensor("A"));
        const auto b = s.read(p.graph.findTensor("B"));
        const auto c = s.read(out);
        for (std::size_t i = 0; i < 8; ++i) {
            for (std::size_t j = 0; j < 8; ++j) {
                double ref = 0;
                for (std::size_t x = 0; x < 8; ++x) {
                    ref += a[i * 8 + x] * b[x * 8 + j];
                }
                QVERIFY(std::fabs(c[i * 8 + j] - ref) < 1e-4);
            }
        }
    }

    void blockBreakpointsStopInEveryIteration() {
        Prepared p("mlp-train", "tiles:16", {{"iterations", "3"}});
        DebugSession s(*p.engine);
        QVERIFY(s.breakAt("sgd/w2") >= 1);
        const Tensor w2 = p.graph.findTensor("w2");
        std::vector<double> previous = s.read(w2);
        for (int iteration = 0; iteration < 3; ++iteration) {
            const auto stop = s.continueRun();
            QCOMPARE(stop.reason, StopReason::Breakpoint);
            QCOMPARE(stepName(s), std::string("sgd/w2"));
            QCOMPARE(s.read(w2), previous); // not yet updated in this iteration
            s.stepOver();
            const auto now = s.read(w2);
            QVERIFY(now != previous); // the update step changed the weights
            previous = now;
        }
        QCOMPARE(s.continueRun().reason, StopReason::Finished);
        QVERIFY(p.built.verify(*p.engine).passed);
    }

    void stepNumbersAndStepping() {
        Prepared p("softmax", "tiles:4", {{"rows", "4"}, {"cols", "32"}});
        DebugSession s(*p.engine);
        QCOMPARE(s.breakAt("99999"), std::size_t{0});
        QCOMPARE(s.breakAt("nothing-is-called-this"), std::size_t{0});
        QCOMPARE(s.breakAt("2"), std::size_t{1});
        QCOMPARE(s.nextStep(), compiler::StepId{0u});
        QCOMPARE(s.continueRun().reason, StopReason::Breakpoint);
        QCOMPARE(s.nextStep(), compiler::StepId{2u});
        std::uint64_t cycles = s.cycles();
        const auto& steps = p.recorder.compiled.programSteps;
        while (!s.finished()) {
            const auto step = s.nextStep();
            s.stepOver();
            cycles += steps[step.value()].totalCycles;
            QCOMPARE(s.cycles(), cycles);
        }
        QCOMPARE(s.lastStop().reason, StopReason::Finished);
        QCOMPARE(s.stepsExecuted(), std::uint64_t{steps.size()});
    }

    void ownersFollowTheTileMapping() {
        Prepared p("reduce", "tiles:4", {{"rows", "4"}, {"cols", "64"}});
        DebugSession s(*p.engine);
        const Tensor x = p.graph.findTensor("x");
        const auto owners = s.owners(x);
        QCOMPARE(owners.size(), x.numElements());
        const auto mapping = p.graph.getTileMapping(x);
        for (std::uint32_t t = 0; t < mapping.size(); ++t) {
            for (const auto& [b, e] : mapping[t]) {
                for (std::size_t i = b; i < e; ++i) {
                    QCOMPARE(owners[i], TileId{t});
                }
            }
        }
        // Live memory: what is resident plus the step's not-always-live bytes.
        const auto live = s.liveBytes();
        const auto& tile0 = p.recorder.compiled.tileMemory[0];
        QCOMPARE(live[0],
                 tile0.alwaysLiveBytes + p.recorder.compiled.programSteps[0].notAlwaysLiveBytes[0]);
    }

    void pauseFromAnotherThread() {
        Prepared p("stress", "tiles:8", {{"steps", "200000"}});
        DebugSession s(*p.engine);
        auto result = std::async(std::launch::async, [&] { return s.continueRun(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        s.pause();
        const auto stop = result.get();
        QCOMPARE(stop.reason, StopReason::Paused);
        QVERIFY(s.stepsExecuted() > 0);
        QVERIFY(s.stepsExecuted() < 200000);
        QVERIFY(!s.finished());
    }

    void stopsOnAnErrorAtTheFailingStep() {
        Graph g(Target::preset("tiles:4"));
        g.addCodelet(CodeletBuilder<FailsOnNegative>("FailsOnNegative")
                         .field("in", &FailsOnNegative::in)
                         .build());
        Tensor x = g.addVariable(Type::Float, {8}, "x");
        ops::mapLinearly(g, x);
        g.createHostWrite("x", x);
        const ComputeSet ok = g.addComputeSet("fine");
        const ComputeSet bad = g.addComputeSet("checks");
        for (std::uint32_t t = 0; t < 4; ++t) {
            VertexRef v = g.addVertex(ok, "Fill<float>", {{"out", x.slice(2 * t, 2 * t + 2)}});
            g.setInitialValue(v["value"], t == 2 ? -1.0 : 1.0);
            g.setTileMapping(v, record::idAt<TileId>(t));
            VertexRef c = g.addVertex(bad, "FailsOnNegative", {{"in", x.slice(2 * t, 2 * t + 2)}});
            g.setTileMapping(c, record::idAt<TileId>(t));
        }
        record::InMemoryRecorder rec;
        EngineOptions options;
        options.recorder = &rec;
        Engine engine(
            g, program::Sequence{program::Execute(ok), program::Execute(bad), program::Execute(ok)},
            options);
        DebugSession s(engine);
        const auto stop = s.continueRun();
        QCOMPARE(stop.reason, StopReason::Error);
        QCOMPARE(stop.step, compiler::StepId{1u});
        QVERIFY2(QString::fromStdString(stop.message).contains("FailsOnNegative#5"),
                 stop.message.c_str());
        QVERIFY(QString::fromStdString(stop.message).contains("tile 2"));
        QVERIFY(s.finished());
        QCOMPARE(s.read(x)[4], -1.0); // state at the failure is still readable
        QVERIFY(!rec.runEnds.back().completed);
    }

    void stopsAtTheStepThatRunsOutOfMemory() {
        Prepared p("matmul", "tiles:4", {{"m", "512"}, {"k", "512"}, {"n", "512"}}, true);
        QVERIFY(p.recorder.compiled.outOfMemory);
        DebugSession s(*p.engine);
        const auto stop = s.continueRun();
        QCOMPARE(stop.reason, StopReason::OutOfMemory);
        QVERIFY2(QString::fromStdString(stop.message).contains("out of memory at step"),
                 stop.message.c_str());
        // The named tile really is over capacity at that step.
        const auto live = s.liveBytes();
        const auto capacity = p.graph.getTarget().bytesPerTile;
        QVERIFY(
            std::any_of(live.begin(), live.end(), [&](std::uint64_t b) { return b > capacity; }));
        // Continuing runs on (the simulation does not need the memory to fit).
        while (!s.finished()) {
            s.continueRun();
        }
        QVERIFY(p.built.verify(*p.engine).passed);
    }

    void leavingEarlyRecordsAnIncompleteRun() {
        Prepared p("softmax", "tiles:4");
        {
            DebugSession s(*p.engine);
            s.stepOver();
        }
        QCOMPARE(p.recorder.runEnds.size(), std::size_t{1});
        QVERIFY(!p.recorder.runEnds[0].completed);
        QCOMPARE(p.recorder.runEnds[0].steps, std::uint64_t{1});
        // The engine can run again afterwards.
        p.engine->run(0);
        QVERIFY(p.recorder.runEnds.back().completed);
    }
};

QTEST_APPLESS_MAIN(TestEngineDebug)
#include "tst_engine_debug.moc"
