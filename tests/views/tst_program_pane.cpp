// The Program pane rendered offscreen on captured reports: tree top-level
// rows, one operation per Block node in the operations tree, the dataflow graph's scene items
// and layering, nodes filled with the expected heat colour (checked on the
// grab), search, filter, and the shared selection both ways. Grabs are
// written to the build directory.
#include "ExecutionFixtures.h"
#include "HeaderFixtures.h"
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/common/Export.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/OperationsModel.h"
#include "views/models/ProgramTreeModel.h"
#include "views/panes/ProgramPane.h"
#include "views/panes/program/DataflowView.h"
#include "views/panes/program/GraphCanvas.h"
#include "views/panes/program/GraphItems.h"
#include "views/panes/program/ProgramStatsLoader.h"

#include <QDir>
#include <QGraphicsScene>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

#include <map>
#include <set>

using namespace tessera;
using namespace tessera::views;

namespace {

bool near(const QColor& a, const QColor& b, int tolerance = 24) {
    return testing::colourDistance(a, b) <= tolerance;
}

// The colour drawn inside node `index`, just below its top edge, at zoom 1.
QColor drawnFill(DataflowView* graph, int index) {
    GraphCanvas* canvas = graph->canvas();
    canvas->setTransform(QTransform());
    GraphNodeItem* item = graph->nodeItem(index);
    canvas->centerOn(item);
    const QPointF inside = item->mapToScene(QPointF(0, item->rect().top() + 5));
    const QPoint at = canvas->mapFromScene(inside);
    const QImage image = canvas->viewport()->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    return image.pixelColor(static_cast<int>(at.x() * dpr), static_cast<int>(at.y() * dpr));
}

int maxNode(const DataflowView* graph, double DataflowNode::*metric) {
    int best = -1;
    for (std::size_t i = 0; i < graph->graph().nodes.size(); ++i) {
        const auto& n = graph->graph().nodes[i];
        if (n.kind == DataflowNode::Kind::Step &&
            (best < 0 ||
             n.*metric > graph->graph().nodes[static_cast<std::size_t>(best)].*metric)) {
            best = static_cast<int>(i);
        }
    }
    return best;
}

// Hands the pane a report and waits for its figures (computed on a worker).
bool setReportAndWait(ProgramPane& pane, const LoadedReport& loaded) {
    pane.setReport(loaded.data, loaded.source);
    return QTest::qWaitFor([&] { return pane.isReady(); }, 30000);
}

} // namespace

class TestProgramPane : public QObject {
    Q_OBJECT

private slots:
    void rendersReports_data() {
        QTest::addColumn<QString>("report");
        for (const char* r : {"mlp-train", "attention", "stress", "oom"}) {
            QTest::newRow(r) << QString(r);
        }
    }

    void rendersReports() {
        QFETCH(QString, report);
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport(report));
        QVERIFY2(loaded.error.isEmpty(), qPrintable(loaded.error));
        const ReportData& data = *loaded.data;
        Selection selection;
        ProgramPane pane;
        QCOMPARE(pane.paneName(), QString("program"));
        pane.resize(1400, 900);
        pane.setSelection(&selection);
        QVERIFY(setReportAndWait(pane, loaded));
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const QDir out(TESSERA_TEST_OUTPUT_DIR);

        // Tree: one top-level row per root node.
        int roots = 0, blocks = 0;
        for (const auto& n : data.programNodes) {
            roots += n.parent.isNone() ? 1 : 0;
            blocks += n.kind == record::ProgramKind::Block ? 1 : 0;
        }
        QCOMPARE(pane.treeView()->model()->rowCount(), roots);
        QCOMPARE(pane.treeModel()->rowCount(), roots);

        // Selecting a step elsewhere reveals its node in the tree.
        const auto& lastStep = data.programSteps.back();
        selection.setStep(lastStep.id);
        const QModelIndex current = pane.treeProxy()->mapToSource(pane.treeView()->currentIndex());
        QCOMPARE(pane.treeModel()->data(current, kIdRole).toUInt(), lastStep.node.value());
        QVERIFY(pane.details()->text().contains(
            QString::fromLatin1(record::programKindName(lastStep.kind))));
        // Choosing a step node in the tree selects its step and compute set.
        const auto& firstStep = data.programSteps.front();
        pane.treeView()->setCurrentIndex(
            pane.treeProxy()->mapFromSource(pane.treeModel()->indexOfStep(firstStep.id)));
        QCOMPARE(selection.step(), firstStep.id);
        if (!firstStep.computeSet.isNone()) {
            QCOMPARE(selection.computeSet(), firstStep.computeSet);
        }
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(out.filePath("program_" + report + "_tree.png")));

        // The tree's CSV export has every node, depth first, each at its depth.
        const ExportTarget tree = pane.exportTargets().front();
        QCOMPARE(tree.name, QString("program-tree"));
        QVERIFY(tree.model);
        const QStringList lines = toCsv(tree.model).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), static_cast<qsizetype>(data.programNodes.size() + 1));
        QVERIFY(lines.front().startsWith("Depth,"));
        std::map<std::uint32_t, int> depth; // parents come before children in a report
        std::multiset<int> expectedDepths, csvDepths;
        for (const auto& n : data.programNodes) {
            depth[n.id.value()] = n.parent.isNone() ? 0 : depth.at(n.parent.value()) + 1;
            expectedDepths.insert(depth[n.id.value()]);
        }
        for (qsizetype i = 1; i < lines.size(); ++i) {
            csvDepths.insert(lines[i].section(',', 0, 0).toInt());
        }
        QVERIFY(csvDepths == expectedDepths);

        // Operations: every Block node is one operation of the tree; the
        // top level is sorted by cycles.
        pane.tabs()->setCurrentIndex(ProgramPane::OperationsTab);
        QCOMPARE(pane.operationsModel()->tree().operationCount, blocks);
        for (int r = 1; r < pane.operationsProxy()->rowCount(); ++r) {
            QVERIFY(
                pane.operationsProxy()
                    ->data(pane.operationsProxy()->index(r - 1, OperationsModel::Cycles), kSortRole)
                    .toULongLong() >=
                pane.operationsProxy()
                    ->data(pane.operationsProxy()->index(r, OperationsModel::Cycles), kSortRole)
                    .toULongLong());
        }
        if (blocks > 0) {
            pane.operationsView()->setCurrentIndex(pane.operationsProxy()->index(0, 0));
        }
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(out.filePath("program_" + report + "_operations.png")));

        // Dataflow graph: one item per node and per edge; edges go down the layers.
        pane.tabs()->setCurrentIndex(ProgramPane::GraphTab);
        DataflowView* graph = pane.graph();
        const auto& g = graph->graph();
        // Tensor nodes, recounted from the recorded accesses of the drawn steps:
        // one per write, one per variable read before any drawn step writes it,
        // one per exchange buffer.
        std::size_t tensors = 0, executes = 0;
        std::set<std::uint32_t> seen;
        for (const auto& n : g.nodes) {
            if (n.kind != DataflowNode::Kind::Step) {
                continue;
            }
            for (const auto& a : data.variableAccesses) {
                if (a.step == record::StepId{n.id} && a.reads() &&
                    seen.insert(a.variable.value()).second) {
                    ++tensors;
                }
            }
            for (const auto& a : data.variableAccesses) {
                if (a.step == record::StepId{n.id} && a.writes()) {
                    seen.insert(a.variable.value());
                    ++tensors;
                }
            }
            for (const auto& v : data.variables) {
                tensors += v.isExchangeBuffer && v.firstStep == record::StepId{n.id} ? 1 : 0;
            }
        }
        for (const auto& s : data.programSteps) {
            executes += s.kind == record::ProgramKind::Execute ? 1 : 0;
        }
        std::size_t tensorNodes = 0, executeNodes = 0;
        for (const auto& n : g.nodes) {
            tensorNodes += n.kind == DataflowNode::Kind::Tensor ? 1 : 0;
            executeNodes +=
                n.kind == DataflowNode::Kind::Step && n.stepKind == record::ProgramKind::Execute
                    ? 1
                    : 0;
        }
        QCOMPARE(tensorNodes, tensors);
        QCOMPARE(executeNodes, executes);
        QCOMPARE(graph->scene()->items().size(),
                 static_cast<qsizetype>(g.nodes.size() + g.edges.size()));
        QCOMPARE(graph->edgeItemCount(), g.edges.size());
        for (const auto& [from, to] : g.edges) {
            QVERIFY(graph->layout().layer[static_cast<std::size_t>(from)] <
                    graph->layout().layer[static_cast<std::size_t>(to)]);
        }
        graph->fitAll();
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(out.filePath("program_" + report + "_graph.png")));

        // Colours: the busiest compute set is the top of the heat ramp.
        const int busiest = maxNode(graph, &DataflowNode::cycles);
        QVERIFY(busiest >= 0);
        QCOMPARE(graph->nodeItem(busiest)->fill(), heatColor(1.0));
        QVERIFY2(near(drawnFill(graph, busiest), heatColor(1.0)),
                 "busiest node not drawn in the hottest colour");
        graph->setMetric(DataflowView::Metric::Memory);
        const int fullest = maxNode(graph, &DataflowNode::memory);
        QCOMPARE(graph->nodeItem(fullest)->fill(), heatColor(1.0));
        QVERIFY(near(drawnFill(graph, fullest), heatColor(1.0)));
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            QCOMPARE(graph->nodeItem(static_cast<int>(i))->fill(),
                     graph->colorFor(static_cast<int>(i)));
        }
        graph->setMetric(DataflowView::Metric::Cycles);

        // Selecting a step marks its node and centres it; search finds nodes.
        selection.setStep(record::StepId{g.nodes[static_cast<std::size_t>(busiest)].id});
        QVERIFY(graph->canvas()->viewport()->rect().contains(
            graph->canvas()->mapFromScene(graph->nodeItem(busiest)->scenePos())));
        const QString name =
            QString::fromStdString(g.nodes[static_cast<std::size_t>(busiest)].name);
        QVERIFY(graph->search(name) >= 1);
        QCoreApplication::processEvents();
        QVERIFY(pane.grab().save(out.filePath("program_" + report + "_graph_selected.png")));
        QCOMPARE(graph->search("no such node"), 0);

        // Dark palette: the canvas follows it.
        pane.setPalette(darkPalette());
        QCoreApplication::processEvents();
        QVERIFY(isDarkPalette(graph->canvas()->viewport()->palette()));
        QVERIFY(pane.grab().save(out.filePath("program_" + report + "_graph_dark.png")));
    }

    // The figures are computed in the background, not in setReport: checked on
    // the hand-built report (ExecutionFixtures.h), whose figures follow from
    // kOrder. That the work runs on a pool thread is BackgroundTask's own
    // test (tst_background_task::resultComesBackFromAWorker); the hand-over
    // is checked by this suite's ThreadSanitizer run (preset tsan).
    void figuresComeFromAWorker() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::handBuiltExecutionReport(1));
        QVERIFY2(loaded.error.isEmpty(), qPrintable(loaded.error));
        ProgramPane pane;
        QSignalSpy computed(pane.statsLoader(), &ProgramStatsLoader::computed);
        pane.setReport(loaded.data, loaded.source);
        QVERIFY(!pane.isReady());
        QVERIFY(pane.stats() == nullptr);
        QCOMPARE(pane.treeModel()->rowCount(), 0);
        QVERIFY(QTest::qWaitFor([&] { return pane.isReady(); }, 30000));
        QCOMPARE(computed.size(), 1);
        QVERIFY(computed.at(0).at(0).value<ComputedProgramStats>().problem.isEmpty());
        const auto stats = pane.stats();
        QVERIFY(stats);

        // Hand-derived: each step runs 3 times in kOrder.
        std::vector<std::uint64_t> executions(testing::kStepCycles.size(), 0);
        for (const std::uint32_t id : testing::kOrder) {
            ++executions[id];
        }
        QCOMPARE(stats->stepExecutions, (std::vector<std::uint64_t>{3, 3, 3, 3}));
        QCOMPARE(stats->stepExecutions, executions);
        const std::uint64_t all = 3 * (100000 + 50000 + 30000 + 60000);
        QCOMPARE(stats->totalCycles, all);
        const NodeStats& root =
            stats->nodes[static_cast<std::size_t>(stats->nodePosition(record::ProgramNodeId{0u}))];
        QCOMPARE(root.cycles, all);
        QCOMPARE(root.steps, 4u);
        QCOMPARE(root.stepExecutions, std::uint64_t(12));
        // "encoder": steps 0 (sync 10000, exchange 20000) and 1 (5000, 5000), 3 times each.
        const NodeStats& encoder =
            stats->nodes[static_cast<std::size_t>(stats->nodePosition(record::ProgramNodeId{1u}))];
        QCOMPARE(encoder.executions, std::uint64_t(3));
        QCOMPARE(encoder.cycles, std::uint64_t(3 * (100000 + 50000)));
        QCOMPARE(encoder.syncCycles, std::uint64_t(3 * (10000 + 5000)));
        QCOMPARE(encoder.exchangeCycles, std::uint64_t(3 * (20000 + 5000)));
        QCOMPARE(encoder.computeCycles, std::uint64_t(3 * (70000 + 40000)));
        QCOMPARE(encoder.steps, 2u);
        // The pane draws them: one root, and the encoder's figures in the details.
        QCOMPARE(pane.treeModel()->rowCount(), 1);
        pane.treeView()->setCurrentIndex(
            pane.treeProxy()
                ->mapFromSource(pane.treeModel()->indexOfStep(record::StepId{0u}))
                .parent());
        QVERIFY2(pane.details()->text().contains("450,000 cycles"),
                 qPrintable(pane.details()->text()));

        // A newer report replaces one still computing; none: cleared at once.
        pane.setReport(loaded.data, loaded.source);
        pane.setReport(nullptr, nullptr);
        QVERIFY(pane.isReady());
        QVERIFY(pane.stats() == nullptr);
        QTest::qWait(50);
        QVERIFY(pane.stats() == nullptr);
        QCOMPARE(pane.treeModel()->rowCount(), 0);
    }

    // The names take the width the figures leave (no empty band on the right
    // of a wide pane), and give it back when the pane narrows.
    void namesColumnFillsTheWidth() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        ProgramPane pane;
        pane.resize(1400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(setReportAndWait(pane, loaded));
        QCoreApplication::processEvents();
        QTreeView* view = pane.treeView();
        QHeaderView* header = view->header();
        const auto rightEdge = [&] { return testing::rightEdgeOfColumns(*header); };
        QCOMPARE(rightEdge(), view->viewport()->width());
        const int wide = header->sectionSize(ProgramTreeModel::Name);
        pane.resize(1200, 900);
        QCoreApplication::processEvents();
        QCOMPARE(rightEdge(), view->viewport()->width());
        QCOMPARE(header->sectionSize(ProgramTreeModel::Name), wide - 200);
    }

    void largeProgramsAreDrawnInWindows() {
        const LoadedReport loaded = ReportLoader::loadNow(
            testing::capturedReport("stress", "tiles:16", {{"steps", "900"}, {"phases", "900"}}));
        QCOMPARE(loaded.data->programSteps.size(), std::size_t(900));
        Selection selection;
        ProgramPane pane;
        pane.resize(1400, 900);
        pane.setSelection(&selection);
        QVERIFY(setReportAndWait(pane, loaded));
        DataflowView* graph = pane.graph();
        QCOMPARE(graph->graph().stepsInScope, std::size_t(900));
        QCOMPARE(graph->graph().stepsShown, std::size_t(400));
        // Selecting a step beyond the first window draws its window.
        const auto last = loaded.data->programSteps.back().id;
        selection.setStep(last);
        QVERIFY(graph->graph().stepNode(last.value()) >= 0);
        QCOMPARE(graph->graph().stepsInScope, std::size_t(100)); // steps 800..899
        QCOMPARE(pane.treeModel()->rowCount(), 1);
    }

    void operationsFilterAndGraphScope() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        ProgramPane pane;
        pane.resize(1400, 900);
        QVERIFY(setReportAndWait(pane, loaded));
        int softmax = 0;
        for (const auto& n : loaded.data->programNodes) {
            softmax +=
                n.kind == record::ProgramKind::Block && n.name.find("softmax") != std::string::npos
                    ? 1
                    : 0;
        }
        pane.operationsFilter()->setText("SoftMax");
        // The first operation row the filter keeps, depth first.
        QModelIndex first;
        std::vector<QModelIndex> stack{QModelIndex()};
        while (!stack.empty() && !first.isValid()) {
            const QModelIndex parent = stack.back();
            stack.pop_back();
            for (int r = pane.operationsProxy()->rowCount(parent); r-- > 0;) {
                stack.push_back(pane.operationsProxy()->index(r, 0, parent));
            }
            if (parent.isValid() && pane.operationsProxy()->data(parent, kIdRole).isValid() &&
                pane.operationsProxy()
                    ->data(parent, OperationsModel::kFilterTextRole)
                    .toString()
                    .contains("softmax", Qt::CaseInsensitive)) {
                first = parent;
            }
        }
        QVERIFY(softmax > 0 && first.isValid());
        // The graph of one operation has only that operation's steps.
        const std::uint32_t op = pane.operationsProxy()->data(first, kIdRole).toUInt();
        const int position =
            pane.stats()->nodePosition(record::ProgramNodeId{static_cast<std::uint32_t>(op)});
        pane.graph()->setScope(position);
        QCOMPARE(pane.graph()->graph().stepsInScope,
                 static_cast<std::size_t>(
                     pane.stats()->nodes[static_cast<std::size_t>(position)].steps));
        QCOMPARE(pane.exportTargets().size(), 3);
        pane.setReport(nullptr, nullptr);
        QCOMPARE(pane.treeModel()->rowCount(), 0);
        QCOMPARE(pane.operationsModel()->rowCount(), 0);
        QCOMPARE(pane.graph()->scene()->items().size(), 0);
    }
};

QTEST_MAIN(TestProgramPane)
#include "tst_program_pane.moc"
