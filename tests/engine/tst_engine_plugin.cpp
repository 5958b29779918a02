// Workload plugins: loading the example plugin (resources/samples/plugin) and
// finding its workload by name; clear errors for a missing file, a file that
// is not a shared library, a library without the entry point, an ABI version
// mismatch and a workload name clash; and finding the example's deliberate
// bug by stepping: the first step after which a tensor deviates from a host
// reference computed here from the inputs.
#include "engine/core/Error.h"
#include "engine/debug/DebugSession.h"
#include "engine/runtime/Engine.h"
#include "engine/workloads/Plugin.h"

#include <QObject>
#include <QTest>

#include <cmath>
#include <functional>
#include <map>

using namespace tessera;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestEnginePlugin : public QObject {
    Q_OBJECT

private slots:
    void loadsTheExamplePlugin() {
        const workloads::LoadedPlugin& p = workloads::loadPlugin(EXAMPLE_PLUGIN);
        QCOMPARE(p.name, std::string("tessera-example-plugin"));
        QCOMPARE(p.workloads.size(), std::size_t{1});
        QCOMPARE(&workloads::find("scaled-tanh"), p.workloads.front());
        // Loading again returns the first load instead of a second copy.
        QCOMPARE(&workloads::loadPlugin(EXAMPLE_PLUGIN), &p);
        QCOMPARE(workloads::available().size(), workloads::all().size() + 1);
        // Its verification (the intended formula) catches the bug.
        const auto r = workloads::run(workloads::find("scaled-tanh"), Target::preset("tiles:4"), {},
                                      EngineOptions{});
        QVERIFY(!r.verification.passed);
    }

    void refusesWhatIsNotAPlugin_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << "/nonexistent/libnothing.so"
                                 << "no such file";
        QTest::newRow("not a library")
            << QString(TESSERA_SOURCE_DIR "/README.md") << "cannot be loaded";
        QTest::newRow("no entry point")
            << QString(NO_ENTRY_PLUGIN) << "is not a Tessera workload plugin";
        QTest::newRow("newer ABI")
            << QString(FUTURE_ABI_PLUGIN) << "built for plugin ABI version 3";
        QTest::newRow("name clash")
            << QString(CLASHING_PLUGIN) << "'matmul' has the name of a built-in workload";
    }
    void refusesWhatIsNotAPlugin() {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        const std::string message = errorOf([&] { workloads::loadPlugin(path.toStdString()); });
        QVERIFY2(contains(message, expected.toStdString()), message.c_str());
        QVERIFY2(contains(message, path.toStdString()), message.c_str()); // names the file
        for (const workloads::LoadedPlugin* p : workloads::loadedPlugins()) {
            QVERIFY(p->path != path.toStdString()); // a refused plugin is not registered
        }
    }

    // What docs/debugger.md walks through: step the plugin's program and find
    // the first step after which a tensor differs from the intended formula.
    void steppingFindsTheFirstWrongStep() {
        workloads::loadPlugin(EXAMPLE_PLUGIN);
        const workloads::Workload& w = workloads::find("scaled-tanh");
        Graph graph(Target::preset("tiles:4"));
        workloads::Built built =
            w.build(graph, workloads::Parameters(w.parameters(), {{"rows", "8"}}));
        Engine engine(graph, built.programs);
        built.setUp(engine);
        debug::DebugSession session(engine);
        const auto x = session.read(graph.findTensor("x"));
        const auto bias = session.read(graph.findTensor("bias"));
        const auto weight = session.read(graph.findTensor("weight"));
        QCOMPARE(x.size(), std::size_t{8 * 32});
        // The intended values of each result, in float as the device computes them.
        std::map<std::string, std::vector<double>> expected;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float sq = float(x[i]) * float(x[i]);
            const float sh = sq + float(bias[i]);
            const float sc = sh * float(weight[i]);
            expected["square/out"].push_back(sq);
            expected["shift/out"].push_back(sh);
            expected["scale/out"].push_back(sc);
            expected["activate/out"].push_back(std::tanh(sc));
        }
        std::map<std::string, bool> written; // a result is checked once its step ran
        std::string firstWrongStep, firstWrongTensor;
        while (!session.finished() && firstWrongStep.empty()) {
            const std::string step = session.nextPlan()->name;
            QVERIFY(session.stepOver().reason != debug::StopReason::Error);
            written[step + "/out"] = true;
            for (const auto& [name, values] : expected) {
                const Tensor t = graph.findTensor(name);
                if (!written[name] || (!session.finished() && !session.isLive(t))) {
                    continue;
                }
                const auto device = session.read(t);
                for (std::size_t i = 0; i < device.size(); ++i) {
                    if (std::abs(device[i] - values[i]) > 1e-5 + 1e-5 * std::abs(values[i])) {
                        firstWrongStep = step;
                        firstWrongTensor = name;
                        break;
                    }
                }
            }
        }
        QCOMPARE(firstWrongStep, std::string("shift"));
        QCOMPARE(firstWrongTensor, std::string("shift/out"));
        QVERIFY(written["square/out"]); // square ran before and matched
    }
};

QTEST_GUILESS_MAIN(TestEnginePlugin)
#include "tst_engine_plugin.moc"
