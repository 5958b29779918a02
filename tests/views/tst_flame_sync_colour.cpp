// The Execution pane's flame view draws a sync step in the palette's sync
// colour: the quiet grey of the dark theme on a dark palette (the light
// theme's 0xc8c8c8 glared there), the usual one on a light palette. A hand-
// built report of one sync step, drawn over the whole plot.
#include "views/common/Colors.h"
#include "views/data/ReportData.h"
#include "views/panes/execution/FlameWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::execution;

class TestFlameSyncColour : public QObject {
    Q_OBJECT

private slots:
    void syncStepFollowsThePalette_data() {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QColor>("expected");
        // Written out, not asked of Colors.cpp: the dark grey the Execution pane's
        // other sync blocks use, and the light theme's grey.
        QTest::newRow("light") << false << QColor(0xc8, 0xc8, 0xc8);
        QTest::newRow("dark") << true << QColor(0x5e, 0x5e, 0x5e);
    }

    void syncStepFollowsThePalette() {
        QFETCH(bool, dark);
        QFETCH(QColor, expected);
        auto data = std::make_shared<ReportData>();
        reports::ProgramStepEntry step;
        step.id = record::StepId{0u};
        step.node = record::ProgramNodeId{0u};
        step.kind = record::ProgramKind::Sync;
        data->programSteps.push_back(step);
        record::ProgramNodeRecord node;
        node.id = record::ProgramNodeId{0u};
        node.kind = record::ProgramKind::Sync;
        node.step = record::StepId{0u};
        data->programNodes.push_back(node);

        auto flame = std::make_shared<FlameData>();
        FlameSpan span;
        span.startCycle = 0;
        span.endCycle = 1000;
        span.node = record::ProgramNodeId{0u};
        span.programStep = record::StepId{0u};
        span.executions = 1;
        flame->rows.push_back({span});
        auto frame = std::make_shared<TimelineFrame>();
        frame->coveredStart = 0;
        frame->coveredEnd = 1000;
        frame->numTiles = 1;
        frame->stepsComplete = true;
        frame->flame = flame;

        Viewport viewport;
        viewport.setRun(0, 1000, 1);
        FlameWidget widget(&viewport);
        if (dark) {
            widget.setPalette(darkPalette());
        }
        widget.resize(600, 3 * kFlameRowPx + 8);
        viewport.setWidth(widget.plotRect().width());
        widget.setReportData(data, 1);
        widget.setFrame(frame);
        QCOMPARE(widget.spanColor(span), expected);

        const QImage image = widget.grab().toImage();
        const QRect plot = widget.plotRect();
        // Right of the span's label, in the middle of its row.
        const QPoint at(plot.right() - 20, plot.top() + kFlameRowPx / 2);
        QCOMPARE(image.pixelColor(at), expected);
        QVERIFY(
            image.save(QDir(TESSERA_TEST_OUTPUT_DIR)
                           .filePath(QString("flame_sync_%1.png").arg(dark ? "dark" : "light"))));
    }
};

QTEST_MAIN(TestFlameSyncColour)
#include "tst_flame_sync_colour.moc"
