// Finding the example plugin's deliberate bug in the Debugger pane, as
// docs/debugger.md describes: load resources/samples/plugin, start
// scaled-tanh, watch its results and step; after each step compare every
// live result with tanh((x*x + bias) * weight) computed here from the inputs
// the pane shows. The first step after which a value deviates is "shift".
#include "DebugFixtures.h"
#include "views/panes/debug/RunControls.h"
#include "views/panes/debug/WatchListModel.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::debugger;
using testing::waitIdle;

class TestDebugPlugin : public QObject {
    Q_OBJECT

private slots:
    void stepsToTheFirstWrongValue() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        pane.resize(1400, 900);
        pane.show();
        QString error;
        QVERIFY2(pane.controls()->loadPlugin(QStringLiteral(EXAMPLE_PLUGIN), &error),
                 qPrintable(error));
        QCOMPARE(pane.controls()->workloadBox()->currentText(), QStringLiteral("scaled-tanh"));
        QVERIFY(pane.controls()->workloadBox()->findText("matmul") >= 0); // built-ins stay
        DebugConfig config =
            testing::debugConfig("scaled-tanh", "tiles:4", {{"rows", "6"}, {"cols", "10"}});
        config.plugin = QStringLiteral(EXAMPLE_PLUGIN);
        QVERIFY(pane.start(config));
        QVERIFY(waitIdle(pane));
        QVERIFY2(pane.controller()->hasSession(), qPrintable(pane.controller()->lastError()));
        const QStringList results = {"square/out", "shift/out", "scale/out", "activate/out"};
        for (const QString& t : QStringList{"x", "bias", "weight"} + results) {
            pane.addWatch(t);
        }
        QVERIFY(waitIdle(pane));
        const auto x = pane.watchModel()->current("x"), bias = pane.watchModel()->current("bias"),
                   weight = pane.watchModel()->current("weight");
        QVERIFY(x && bias && weight && x->values.size() == 60);
        std::map<QString, std::vector<double>> expected;
        for (std::size_t i = 0; i < 60; ++i) {
            const float sq = float(x->values[i]) * float(x->values[i]);
            const float sh = sq + float(bias->values[i]);
            const float sc = sh * float(weight->values[i]);
            expected["square/out"].push_back(sq);
            expected["shift/out"].push_back(sh);
            expected["scale/out"].push_back(sc);
            expected["activate/out"].push_back(std::tanh(sc));
        }
        QString firstWrongStep, firstWrongTensor;
        std::set<QString> checked;
        while (firstWrongStep.isEmpty() && !pane.controller()->state()->finished) {
            const QString step = pane.controller()->state()->stepName;
            QVERIFY(pane.controller()->stepOver());
            QVERIFY(waitIdle(pane));
            for (const QString& t : results) {
                const auto v = pane.watchModel()->current(t);
                if (!v || !v->live || !t.startsWith(step + "/")) {
                    continue; // not written by this step, or not live here
                }
                checked.insert(t);
                for (std::size_t i = 0; i < v->values.size(); ++i) {
                    if (std::abs(v->values[i] - expected[t][i]) >
                        1e-5 + 1e-5 * std::abs(expected[t][i])) {
                        firstWrongStep = step;
                        firstWrongTensor = t;
                        break;
                    }
                }
            }
        }
        QCOMPARE(firstWrongStep, QStringLiteral("shift"));
        QCOMPARE(firstWrongTensor, QStringLiteral("shift/out"));
        QCOMPARE(checked,
                 (std::set<QString>{"square/out", "shift/out"})); // square was checked and right
        QVERIFY(pane.statusLabel()->text().contains("'scale'"));
        QVERIFY(pane.grab().save(
            QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("debug-plugin.png")));
        // Running on, the workload's own verification fails too.
        QVERIFY(pane.controller()->runToEnd());
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.statusLabel()->text().contains(QStringLiteral("verification FAILED")));
    }
};

QTEST_MAIN(TestDebugPlugin)
#include "tst_debug_plugin.moc"
