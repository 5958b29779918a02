// The Debugger's tensor inspector fits its share of a 1200 px wide window:
// its row of controls (tensor, Watch) and the heatmap's options show no
// horizontal scroll bar once a tensor is inspected, and the tensor box does
// not grow with the longest tensor name.
#include "DebugFixtures.h"
#include "views/panes/DebugPane.h"
#include "views/panes/debug/HeatmapWidget.h"

#include <QComboBox>
#include <QDir>
#include <QScrollArea>
#include <QScrollBar>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using testing::waitIdle;

class TestDebugInspector : public QObject {
    Q_OBJECT

private slots:
    void fitsA1200PixelWindow() {
        DebugPane pane;
        pane.setReportsEnabled(false);
        pane.resize(1188, 800); // a 1200 px window less its frame and margins
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(
            pane.start(testing::debugConfig("elementwise", "tiles:4", {{"n", "64"}}, {"relu"})));
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.controller()->continueRun());
        QVERIFY(waitIdle(pane));
        pane.inspect("add/out");
        QVERIFY(waitIdle(pane));
        QCoreApplication::processEvents();

        QScrollArea* row = pane.inspectorRow();
        QVERIFY(row->isVisible());
        QVERIFY2(!row->horizontalScrollBar()->isVisible(),
                 qPrintable(QString("inspector %1 px wide, its row needs %2 px")
                                .arg(pane.inspector()->width())
                                .arg(row->widget()->minimumSizeHint().width())));
        QVERIFY(row->widget()->width() <= row->viewport()->width());
        // The heatmap's options (colour, pixel reduction) over the heatmap fit too.
        auto* options = qobject_cast<QScrollArea*>(
            pane.heatmapReduceBox()->parentWidget()->parentWidget()->parentWidget());
        QVERIFY(options);
        QVERIFY(!options->horizontalScrollBar()->isVisible());
        // The tensor box is sized by its minimum contents length, not by names.
        auto* tensors = pane.findChild<QComboBox*>("debugTensor");
        QVERIFY(tensors);
        QCOMPARE(tensors->sizeAdjustPolicy(), QComboBox::AdjustToMinimumContentsLengthWithIcon);
        QVERIFY(
            pane.grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("debug_inspector_1200.png")));
    }
};

QTEST_MAIN(TestDebugInspector)
#include "tst_debug_inspector.moc"
