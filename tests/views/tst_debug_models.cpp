// The Debugger's item models, checked with QAbstractItemModelTester, on a
// real paused run of elementwise (a*b + c, ...) on 4 tiles driven through the
// DebugController on its worker thread. Values are compared with a host
// reference computed here from the workload's documented inputs
// (randomValues with seeds 11, 12, 13); the program tree against the steps
// and blocks the workload builds; the watch list across pauses.
#include "DebugFixtures.h"
#include "engine/workloads/Library.h"
#include "views/models/ModelRoles.h"
#include "views/panes/debug/BreakpointTreeModel.h"
#include "views/panes/debug/TensorValuesModel.h"
#include "views/panes/debug/WatchListModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace tessera;
using namespace tessera::views::debugger;

namespace {

// Runs the controller's next command to its pause.
bool settle(DebugController& c, QSignalSpy& paused, int before) {
    return QTest::qWaitFor([&] { return paused.count() > before && !c.busy(); }, 60000);
}

QVector<TensorValues> readNow(DebugController& c, const QStringList& names) {
    QSignalSpy spy(&c, &DebugController::valuesRead);
    c.requestValues(names);
    if (!spy.wait(30000)) {
        return {};
    }
    return spy.takeFirst().at(0).value<QVector<TensorValues>>();
}

} // namespace

class TestDebugModels : public QObject {
    Q_OBJECT

private slots:
    void modelsOnAPausedRun() {
        constexpr std::size_t n = 64;
        DebugController controller;
        QSignalSpy started(&controller, &DebugController::started);
        QSignalSpy paused(&controller, &DebugController::paused);
        QVERIFY(controller.start(
            testing::debugConfig("elementwise", "tiles:4", {{"n", "64"}}, {"relu"})));
        QVERIFY(settle(controller, paused, 0));
        QCOMPARE(started.count(), 1);
        const SessionInfo info = *controller.info();

        // The program tree: a Block per operation, each holding its one step.
        BreakpointTreeModel tree;
        QAbstractItemModelTester treeTester(&tree,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy toggled(&tree, &BreakpointTreeModel::breakpointToggled);
        tree.setProgram(info.nodes, info.breakpoints);
        const QStringList ops = {"mul", "add", "relu", "sub", "sigmoid"};
        for (int s = 0; s < ops.size(); ++s) {
            const QModelIndex step = tree.indexOfStep(record::idAt<record::StepId>(std::size_t(s)));
            QVERIFY(step.isValid());
            QCOMPARE(step.data().toString(), ops[s]);
            QCOMPARE(step.siblingAtColumn(BreakpointTreeModel::Step).data().toInt(), s);
            // Its enclosing Block carries the operation's name too.
            QModelIndex up = step.parent();
            while (up.isValid() &&
                   up.siblingAtColumn(BreakpointTreeModel::Kind).data().toString() != "Block") {
                up = up.parent();
            }
            QCOMPARE(up.data().toString(), ops[s]);
            // "relu" was the --break: its step and Block are checked.
            const int expected = ops[s] == "relu" ? Qt::Checked : Qt::Unchecked;
            QCOMPARE(step.data(Qt::CheckStateRole).toInt(), expected);
            QCOMPARE(up.data(Qt::CheckStateRole).toInt(), expected);
        }
        QVERIFY(
            tree.setData(tree.indexOfStep(record::StepId{3u}), Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.at(0).at(0).value<debug::Breakpoint>(),
                 (debug::Breakpoint{debug::BreakpointKind::Step, 3}));
        QVERIFY(toggled.at(0).at(1).toBool());
        QVERIFY(!tree.setData(tree.index(0, BreakpointTreeModel::Kind), Qt::Checked,
                              Qt::CheckStateRole));
        tree.setCurrentStep(record::StepId{2u});
        QVERIFY(
            tree.indexOfStep(record::StepId{2u}).data(BreakpointTreeModel::kCurrentRole).toBool());
        QVERIFY(
            !tree.indexOfStep(record::StepId{1u}).data(BreakpointTreeModel::kCurrentRole).toBool());
        controller.setBreakpoint(toggled.at(0).at(0).value<debug::Breakpoint>(), true); // sub too

        // Continue to "relu": add/out = a*b + c, computed in float as the device does.
        int before = int(paused.count());
        QVERIFY(controller.continueRun());
        QVERIFY(settle(controller, paused, before));
        QCOMPARE(controller.state()->stepName, QStringLiteral("relu"));
        const auto av = workloads::randomValues(n, 11, Type::Float),
                   bv = workloads::randomValues(n, 12, Type::Float),
                   cv = workloads::randomValues(n, 13, Type::Float);
        const auto values = readNow(controller, {"add/out", "mul/out", "no/such"});
        QCOMPARE(values.size(), 3);
        TensorValuesModel table;
        QAbstractItemModelTester tableTester(
            &table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.setValues(values[0], std::nullopt);
        QCOMPARE(table.rowCount(), int(n));
        for (std::size_t i = 0; i < n; ++i) {
            const float expected = av[i] * bv[i] + cv[i];
            QCOMPARE(
                table.index(int(i), TensorValuesModel::Value).data(views::kSortRole).toDouble(),
                double(expected));
            QCOMPARE(table.index(int(i), TensorValuesModel::Value).data().toString(),
                     QString::number(expected, 'g', 7));
        }
        QVERIFY(!table.hasPrevious());
        QVERIFY(!values[1].live); // mul/out: its last use ("add") has run
        table.setValues(values[1], values[0]);
        QCOMPARE(table.rowCount(), 0); // never shows another variable's bytes
        QVERIFY(!values[2].error.isEmpty());

        // Watch list across pauses: relu/out is live once "relu" ran; the
        // input a does not change; the next breakpoint is "sub".
        WatchListModel watch;
        QAbstractItemModelTester watchTester(
            &watch, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(watch.add("a"));
        QVERIFY(watch.add("relu/out"));
        QVERIFY(!watch.add("a"));
        for (const TensorValues& v : readNow(controller, watch.names())) {
            watch.update(v);
        }
        QCOMPARE(watch.index(1, WatchListModel::Values).data().toString(),
                 QStringLiteral("not live at this step"));
        before = int(paused.count());
        QVERIFY(controller.continueRun());
        QVERIFY(settle(controller, paused, before));
        QCOMPARE(controller.state()->stepName, QStringLiteral("sub"));
        for (const TensorValues& v : readNow(controller, watch.names())) {
            watch.update(v);
        }
        QCOMPARE(watch.index(0, WatchListModel::Changed).data().toInt(), 0);
        QCOMPARE(watch.index(0, WatchListModel::Tiles).data().toInt(), 4);
        QCOMPARE(watch.index(0, WatchListModel::Shape).data().toString(), QStringLiteral("[64]"));
        const auto relu = watch.current("relu/out");
        QVERIFY(relu && relu->live);
        for (std::size_t i = 0; i < n; ++i) {
            const float sum = av[i] * bv[i] + cv[i];
            QCOMPARE(relu->values[i], double(sum > 0 ? sum : 0.0f));
        }
        QVERIFY(watch.index(1, WatchListModel::Values)
                    .data()
                    .toString()
                    .startsWith(QString::number(relu->values[0], 'g', 5)));
        QVERIFY(watch.remove("a"));
        QCOMPARE(watch.rowCount(), 1);
    }

    void changesSincePreviousPause() {
        const record::TileId t0{0u}, t1{1u};
        TensorValues before{"t", {}, {2, 3}, {1, 2, 3, 4, 5, 6}, {t0, t0, t0, t1, t1, t1}, true, 0};
        TensorValues after = before;
        after.values[4] = 7;
        after.pause = 1;
        TensorValuesModel table;
        QAbstractItemModelTester tester(&table,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.setValues(after, before);
        QCOMPARE(table.changedCount(), 1);
        QVERIFY(table.changed(4) && !table.changed(3));
        QCOMPARE(table.index(4, TensorValuesModel::Index).data().toString(),
                 QStringLiteral("[1, 1]"));
        QCOMPARE(table.index(4, TensorValuesModel::Change).data().toString(), QStringLiteral("2"));
        QCOMPARE(table.index(4, TensorValuesModel::Tile).data().toInt(), 1);
        QVERIFY(!table.index(3, TensorValuesModel::Change).data().toString().size());
        before.live = false; // a not-live earlier read is no baseline
        table.setValues(after, before);
        QVERIFY(!table.hasPrevious());
        QCOMPARE(table.changedCount(), 0);
    }
};

QTEST_MAIN(TestDebugModels)
#include "tst_debug_models.moc"
