// The Debugger pane driven offscreen as a user would: start matmul on 4
// tiles, continue to a breakpoint, step into (exchange only) and over, and
// check what is drawn against C = A.B computed here from the inputs the pane
// shows: the highlighted tree row, the values table (cells, owning tiles,
// change since the previous pause), heatmap pixels and the shared selection.
// Also: a tensor that is not live at the paused step is said to be so, the
// run continues to the end with its verification, and pausing a running
// program works while the window keeps processing events.
#include "DebugFixtures.h"
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/common/Selection.h"
#include "views/models/ModelRoles.h"
#include "views/panes/debug/BreakpointTreeModel.h"
#include "views/panes/debug/HeatmapWidget.h"
#include "views/panes/debug/RunControls.h"
#include "views/panes/debug/TensorValuesModel.h"
#include "views/panes/debug/WatchListModel.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include <cmath>
#include <set>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::debugger;
using testing::waitIdle;

namespace {

bool near(const QColor& a, const QColor& b, int tolerance = 3) {
    return testing::channelsWithin(a, b, tolerance);
}

void save(QWidget* w, const QString& name) {
    w->grab().save(QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath(name));
}

} // namespace

class TestDebugPane : public QObject {
    Q_OBJECT

private slots:
    void breakStepInspectContinue() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        Selection selection;
        pane.setSelection(&selection);
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(pane.start(testing::debugConfig(
            "matmul", "tiles:4", {{"m", "8"}, {"k", "8"}, {"n", "8"}}, {"matmul/products"})));
        QVERIFY(waitIdle(pane));
        QVERIFY2(pane.controller()->hasSession(), qPrintable(pane.controller()->lastError()));
        QCOMPARE(pane.controller()->state()->reason, debug::StopReason::Stepped);
        QCOMPARE(pane.controller()->state()->step, record::StepId{0u});

        // Continue to the breakpoint: the tree highlights that step and the
        // shared selection follows it.
        QVERIFY(pane.controller()->continueRun());
        QVERIFY(waitIdle(pane));
        const PauseState atBreak = *pane.controller()->state();
        QCOMPARE(atBreak.reason, debug::StopReason::Breakpoint);
        QCOMPARE(atBreak.stepName, QStringLiteral("matmul/products"));
        QCOMPARE(selection.step(), atBreak.step);
        QVERIFY(pane.statusLabel()->text().startsWith(QStringLiteral("Breakpoint before step")));
        const QModelIndex current = pane.programModel()->indexOfStep(atBreak.step);
        QVERIFY(current.isValid());
        QCOMPARE(current.data().toString(), QStringLiteral("matmul/products"));
        QVERIFY(current.data(BreakpointTreeModel::kCurrentRole).toBool());
        QCOMPARE(current.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QApplication::processEvents();
        const QRect row = pane.programView()->visualRect(current);
        const QImage tree = pane.programView()->viewport()->grab().toImage();
        QVERIFY(near(tree.pixelColor(row.right() - 3, row.center().y()), selectionColor()));

        // Clicking a step in the tree selects it for the other panes.
        const QModelIndex first = pane.programModel()->indexOfStep(record::StepId{0u});
        QTest::mouseClick(pane.programView()->viewport(), Qt::LeftButton, {},
                          pane.programView()
                              ->visualRect(first.siblingAtColumn(BreakpointTreeModel::Kind))
                              .center());
        QCOMPARE(selection.step(), record::StepId{0u});
        QCOMPARE(first.data(Qt::CheckStateRole).toInt(),
                 int(Qt::Unchecked)); // no breakpoint set by it

        // Inspect C (not computed yet) and watch A and B.
        pane.addWatch("A");
        pane.addWatch("B");
        pane.inspect("matmul/out");
        QVERIFY(waitIdle(pane));
        const auto a = pane.watchModel()->current("A"), b = pane.watchModel()->current("B");
        QVERIFY(a && b && a->live && b->live);
        QCOMPARE(a->values.size(), std::size_t{64});

        // Step into: the exchange ran, C is unchanged; step over: C = A.B.
        QVERIFY(pane.controller()->stepInto());
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.controller()->state()->insideStep);
        QCOMPARE(pane.valuesModel()->changedCount(), 0);
        const std::vector<double> before = pane.valuesModel()->values().values;
        QVERIFY(pane.controller()->stepOver());
        QVERIFY(waitIdle(pane));
        std::vector<double> c(64, 0.0);
        for (int i = 0; i < 8; ++i) {
            for (int j = 0; j < 8; ++j) {
                for (int t = 0; t < 8; ++t) {
                    c[std::size_t(i * 8 + j)] +=
                        a->values[std::size_t(i * 8 + t)] * b->values[std::size_t(t * 8 + j)];
                }
            }
        }
        TensorValuesModel* model = pane.valuesModel();
        QCOMPARE(model->rowCount(), 64);
        int changed = 0;
        for (int e = 0; e < 64; ++e) {
            const double shown =
                model->index(e, TensorValuesModel::Value).data().toString().toDouble();
            QVERIFY2(std::abs(shown - c[std::size_t(e)]) < 1e-5, qPrintable(QString::number(e)));
            const bool differs = before[std::size_t(e)] != model->values().values[std::size_t(e)];
            QCOMPARE(model->changed(e), differs);
            changed += differs ? 1 : 0;
            if (differs) {
                QCOMPARE(model->index(e, 0).data(Qt::BackgroundRole).value<QColor>(),
                         TensorValuesModel::changedColor());
                const double delta =
                    model->index(e, TensorValuesModel::Change).data(kSortRole).toDouble();
                QVERIFY(std::abs(delta - (c[std::size_t(e)] - before[std::size_t(e)])) < 1e-5);
            }
        }
        QVERIFY(changed > 0);
        QCOMPARE(model->changedCount(), changed);
        QCOMPARE(model->index(9, TensorValuesModel::Index).data().toString(),
                 QStringLiteral("[1, 1]"));
        QVERIFY(pane.inspectorLabel()->text().contains(
            QStringLiteral("changed since the previous pause")));
        // Owners: every element on one of the 4 tiles, every tile holding some.
        std::set<QString> tiles;
        for (int e = 0; e < 64; ++e) {
            tiles.insert(model->index(e, TensorValuesModel::Tile).data().toString());
        }
        QCOMPARE(tiles, (std::set<QString>{"0", "1", "2", "3"}));

        // The heatmap: an 8 x 8 grid whose cells have the ramp colour of C,
        // scaled between C's own minimum and maximum.
        HeatmapWidget* heat = pane.heatmap();
        QCOMPARE(heat->rows(), 8);
        QCOMPARE(heat->columns(), 8);
        const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
        const QImage image = heat->grab().toImage();
        for (int e : {0, 9, 27, 63}) {
            const QRect cell = heat->cellRect(e / 8, e % 8);
            const QColor expected = heatColor((c[std::size_t(e)] - *lo) / (*hi - *lo));
            const QColor drawn = image.pixelColor(cell.center());
            // A changed cell is outlined; its centre keeps the value colour.
            QVERIFY2(
                near(drawn, expected),
                qPrintable(
                    QStringLiteral("cell %1: %2 vs %3").arg(e).arg(drawn.name(), expected.name())));
        }
        heat->setMode(HeatmapWidget::Mode::Tiles);
        const QImage byTile = heat->grab().toImage();
        QCOMPARE(byTile.pixelColor(heat->cellRect(0, 0).center()).rgb(),
                 HeatmapWidget::tileColor(
                     record::TileId{model->index(0, TensorValuesModel::Tile).data().toUInt()})
                     .rgb());
        heat->setMode(HeatmapWidget::Mode::Values);
        save(&pane, QStringLiteral("debug-pane-matmul.png"));

        // Run on: the program finishes and its verification passes.
        if (!pane.controller()->state()->finished) { // a reduction may follow the products
            QVERIFY(pane.controller()->continueRun());
            QVERIFY(waitIdle(pane));
        }
        QCOMPARE(pane.controller()->state()->reason, debug::StopReason::Finished);
        QVERIFY(pane.statusLabel()->text().contains(QStringLiteral("verification passed")));
        QVERIFY(!pane.controller()->continueRun()); // nothing left to run
    }

    void notLiveTensorsAreSaidSo() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        pane.resize(1200, 800);
        pane.show();
        QVERIFY(
            pane.start(testing::debugConfig("elementwise", "tiles:4", {{"n", "64"}}, {"relu"})));
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.controller()->continueRun());
        QVERIFY(waitIdle(pane));
        QCOMPARE(pane.controller()->state()->stepName, QStringLiteral("relu"));
        pane.inspect("mul/out"); // last used by "add", which has run
        pane.addWatch("mul/out");
        QVERIFY(waitIdle(pane));
        QCOMPARE(pane.valuesModel()->rowCount(), 0);
        QVERIFY(pane.inspectorLabel()->text().contains(QStringLiteral("not live at this step")));
        QVERIFY(pane.heatmap()->message().contains(QStringLiteral("not live at this step")));
        QCOMPARE(pane.watchModel()->index(0, WatchListModel::Values).data().toString(),
                 QStringLiteral("not live at this step"));
        // add/out is live here (relu reads it): shown.
        pane.inspect("add/out");
        QVERIFY(waitIdle(pane));
        QCOMPARE(pane.valuesModel()->rowCount(), 64);
        save(&pane, QStringLiteral("debug-pane-not-live.png"));
    }

    // A block breakpoint inside a Repeat stops in every iteration; the
    // weights w1 change between two stops (one SGD update), and the buttons
    // follow the state: Pause only while running.
    void breakpointInsideALoop() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        QVERIFY(pane.start(testing::debugConfig("mlp-train", "tiles:16", {}, {"sgd/w1"})));
        QVERIFY(waitIdle(pane));
        auto* pause = pane.findChild<QToolButton*>(QStringLiteral("debugPause"));
        auto* cont = pane.findChild<QToolButton*>(QStringLiteral("debugContinue"));
        QVERIFY(pause && cont);
        QVERIFY(!pause->isEnabled() && cont->isEnabled());
        QVERIFY(pane.controller()->continueRun());
        QVERIFY(pause->isEnabled() && !cont->isEnabled());
        QVERIFY(waitIdle(pane));
        QVERIFY(!pause->isEnabled() && cont->isEnabled());
        const PauseState first = *pane.controller()->state();
        QCOMPARE(first.stepName, QStringLiteral("sgd/w1"));
        pane.inspect("w1");
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.controller()->continueRun());
        QVERIFY(waitIdle(pane));
        const PauseState second = *pane.controller()->state();
        QCOMPARE(second.step, first.step);
        QVERIFY(second.stepsExecuted > first.stepsExecuted);
        QVERIFY(second.cycles > first.cycles);
        QVERIFY(pane.valuesModel()->hasPrevious());
        QVERIFY(pane.valuesModel()->changedCount() > 0); // the previous iteration's update
        QVERIFY(!pause->isEnabled());
    }

    // The tool bar as a user fills it: workload, target, parameters, Start,
    // then the Step button and its F10 shortcut.
    void startAndStepFromTheToolBar() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        pane.show();
        RunControls* controls = pane.controls();
        controls->workloadBox()->setCurrentText(QStringLiteral("elementwise"));
        controls->targetEdit()->setText(QStringLiteral("tiles:2"));
        controls->parametersEdit()->setText(QStringLiteral("n=48 oops"));
        auto* start = pane.findChild<QToolButton*>(QStringLiteral("debugStart"));
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(pane.statusLabel()->text().contains(QStringLiteral("'oops' is not NAME=VALUE")));
        QVERIFY(!pane.controller()->hasSession());
        controls->parametersEdit()->setText(QStringLiteral("n=48, type=float"));
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(waitIdle(pane));
        QVERIFY2(pane.controller()->hasSession(), qPrintable(pane.controller()->lastError()));
        QCOMPARE(pane.controller()->info()->numTiles, 2u);
        QTest::mouseClick(pane.findChild<QToolButton*>(QStringLiteral("debugStep")),
                          Qt::LeftButton);
        QVERIFY(waitIdle(pane));
        QCOMPARE(pane.controller()->state()->stepName, QStringLiteral("add"));
        pane.activateWindow();
        pane.programView()->setFocus();
        QTest::keyClick(pane.programView(), Qt::Key_F10);
        QVERIFY(waitIdle(pane));
        QCOMPARE(pane.controller()->state()->stepName, QStringLiteral("relu"));
        pane.inspect(QStringLiteral("add/out"));
        QVERIFY(waitIdle(pane));
        QCOMPARE(pane.valuesModel()->values().shape, std::vector<std::size_t>{48});
    }

    void badInputIsAnErrorNotACrash() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        QVERIFY(pane.start(testing::debugConfig("no-such-workload", "tiles:4", {})));
        QVERIFY(waitIdle(pane));
        QVERIFY(!pane.controller()->hasSession());
        QVERIFY(pane.controller()->lastError().contains(
            QStringLiteral("unknown workload 'no-such-workload'")));
        QVERIFY(pane.statusLabel()->text().contains(QStringLiteral("unknown workload")));
        QVERIFY(pane.start(
            testing::debugConfig("elementwise", "tiles:4", {{"n", "64"}}, {"no-such-step"})));
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.controller()->lastError().contains(
            QStringLiteral("'no-such-step' matches no step")));
        QVERIFY(pane.start(testing::debugConfig("elementwise", "tiles:0", {})));
        QVERIFY(waitIdle(pane));
        QVERIFY(!pane.controller()->hasSession());
    }

    // Continue on a long run, then Pause: the GUI thread keeps running
    // (a timer fires) while the engine works, and the run stops at a step.
    void pauseWhileRunning() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        // A million supersteps take seconds: the run cannot finish before the pause.
        QVERIFY(pane.start(testing::debugConfig("stress", "tiles:16", {{"steps", "1000000"}})));
        QVERIFY(waitIdle(pane));
        QVERIFY2(pane.controller()->hasSession(), qPrintable(pane.controller()->lastError()));
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        timer.start(5);
        QVERIFY(pane.controller()->continueRun());
        QTest::qWait(100);
        QVERIFY(pane.controller()->busy());
        pane.controller()->pause();
        QVERIFY(waitIdle(pane));
        QVERIFY(ticks > 3);
        QCOMPARE(pane.controller()->state()->reason, debug::StopReason::Paused);
        QVERIFY(pane.controller()->state()->stepsExecuted > 0);
        QVERIFY(pane.controller()->state()->stepsExecuted < 1000000);
        QVERIFY(pane.statusLabel()->text().startsWith(QStringLiteral("Paused by you")));
    }
};

QTEST_MAIN(TestDebugPane)
#include "tst_debug_pane.moc"
