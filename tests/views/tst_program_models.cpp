// The Program and Liveness panes' item models without any widget, on
// programs and variables built by hand (OperationsFixture.h,
// VariablesFixture.h, ExecutionFixtures.h): the program tree's rows, sort
// order and colours, the live variables of a step and the comparison of
// steps, compared with literal values worked out in the comments, under
// QAbstractItemModelTester. One test still runs on captured workloads: that
// the engine's reports count executions the way their executed steps and
// runs say.
#include "ExecutionFixtures.h"
#include "ModelRows.h"
#include "OperationsFixture.h"
#include "ReportFixtures.h"
#include "VariablesFixture.h"
#include "reports/ReportReader.h"
#include "views/data/ReportData.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/LiveVariablesModel.h"
#include "views/models/ProgramStats.h"
#include "views/models/ProgramTreeModel.h"
#include "views/models/StepComparisonModel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <map>

using namespace tessera;
using namespace tessera::views;
using record::ProgramKind;
using testing::columnTexts;
using testing::rowTexts;

namespace {

// OperationsFixture.h's program with two loops added under its root:
//   node 9  Repeat x4 "loop"        node 10 Execute step 4 "loop/body"
//   node 11 RepeatWhileTrue "wait"  node 12 Execute step 5 "wait/poll"
//
//   step  total cycles  runs  cycles  FLOPs/run  vertices  peak bytes
//   4     10            8     80      50         1         64
//   5      4            5     20       0         0         2048
// With OperationsFixture.h's steps 0-3 (cycles 390, 135, 240, 110) the
// program's cycles are 975.
struct Program {
    std::shared_ptr<const ReportData> data;
    std::shared_ptr<const ProgramStats> stats;
};

Program loopsProgram() {
    auto data = std::make_shared<ReportData>(*testing::operationsReport());
    auto node = [&](std::uint32_t id, std::uint32_t parent, ProgramKind kind, const char* name,
                    std::uint64_t repeat, record::StepId step) {
        data->programNodes.push_back({record::ProgramNodeId{id}, record::ProgramNodeId{parent}, 0,
                                      kind, name, record::ComputeSetId::none(), repeat, step});
    };
    auto step = [&](std::uint32_t id, std::uint32_t nodeId, const char* name, std::uint64_t cycles,
                    std::uint64_t flops, std::uint64_t vertices, std::uint64_t peak) {
        reports::ProgramStepEntry s;
        s.id = record::StepId{id};
        s.node = record::ProgramNodeId{nodeId};
        s.name = name;
        s.computePhaseCycles = cycles;
        s.totalCycles = cycles;
        s.flops = flops;
        s.vertices = vertices;
        s.notAlwaysLiveBytesMax = peak;
        data->programSteps.push_back(s);
    };
    node(9, 0, ProgramKind::Repeat, "loop", 4, record::StepId::none());
    node(10, 9, ProgramKind::Execute, "", 0, record::StepId{4u});
    node(11, 0, ProgramKind::RepeatWhileTrue, "wait", 0, record::StepId::none());
    node(12, 11, ProgramKind::Execute, "", 0, record::StepId{5u});
    step(4, 10, "loop/body", 10, 50, 1, 64);
    step(5, 12, "wait/poll", 4, 0, 0, 2048);
    auto stats =
        std::make_shared<const ProgramStats>(computeProgramStats(*data, {3, 3, 1, 2, 8, 5}));
    return {data, stats};
}

std::vector<record::VariableId> variableIds(const QList<int>& ids) {
    std::vector<record::VariableId> out;
    for (const int id : ids) {
        out.emplace_back(static_cast<std::uint32_t>(id));
    }
    return out;
}

// Executions per step id, counted straight from the reader's executed steps.
std::map<std::uint32_t, std::uint64_t> executionsFromReader(const reports::ReportReader& reader) {
    std::map<std::uint32_t, std::uint64_t> count;
    for (const auto& run : reader.runs()) {
        for (const auto& e : reader.executedSteps(run.id, 0, run.steps)) {
            ++count[e.programStep.value()];
        }
    }
    return count;
}

} // namespace

class TestProgramModels : public QObject {
    Q_OBJECT

private slots:
    // Depth first, "name | kind | executions | cycles | % cycles | memory |
    // vertices | FLOPs | steps"; a node's figures sum its steps' (cycles x
    // runs), its memory is their largest peak. Executions: a step node's are
    // its step's runs, a Repeat's its body's over the count (8 / 4), other
    // nodes take their first child's, and a RepeatWhileTrue (not known from
    // its steps) inherits its parent's, marked "~". Shares are of 975 cycles
    // (525 / 975 = 53.8%). An unnamed step node shows its step's name.
    void treeOutline() {
        const Program p = loopsProgram();
        ProgramTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(p.data, p.stats);
        const QStringList expected = {
            "Sequence | Sequence | 3 | 975 | 100.0% | 2.0 KiB | 11 | 6,000 | 6",
            "  fwd | Block | 3 | 525 | 53.8% | 512 B | 6 | 3,600 | 2",
            "    fwd/layer1/matmul | Block | 3 | 390 | 40.0% | 512 B | 4 | 3,000 | 1",
            "      fwd/layer1/matmul/products | Execute | 3 | 390 | 40.0% | 512 B | 4 | 3,000 | 1",
            "    fwd/layer1/add | Block | 3 | 135 | 13.8% | 256 B | 2 | 600 | 1",
            "      fwd/layer1/add/add | Execute | 3 | 135 | 13.8% | 256 B | 2 | 600 | 1",
            "  bwd/matmul | Block | 1 | 240 | 24.6% | 1.0 KiB | 4 | 2,000 | 1",
            "    bwd/matmul/products | Execute | 1 | 240 | 24.6% | 1.0 KiB | 4 | 2,000 | 1",
            "  copy | Copy | 2 | 110 | 11.3% | 100 B |  |  | 1",
            "  ×4 loop | Repeat | 2 | 80 | 8.2% | 64 B | 1 | 400 | 1",
            "    loop/body | Execute | 8 | 80 | 8.2% | 64 B | 1 | 400 | 1",
            "  wait | RepeatWhileTrue | ~3 | 20 | 2.1% | 2.0 KiB |  |  | 1",
            "    wait/poll | Execute | 5 | 20 | 2.1% | 2.0 KiB |  |  | 1",
        };
        QCOMPARE(testing::treeRows(model), expected);
        // Raw: the share as a fraction (390 / 975 = 0.4), zeros where nothing is shown.
        QCOMPARE(rowTexts(model, kSortRole, model.index(0, 0)).at(2).section(" | ", 5),
                 QString("100 | 0 | 0 | 1"));
        QCOMPARE(rowTexts(model, kSortRole, model.index(0, 0, model.index(0, 0))).at(0),
                 QString("fwd/layer1/matmul | Block | 3 | 390 | 0.4 | 512 | 4 | 3000 | 1"));
        // Swatches by kind (ProgramKinds.cpp): Sequence quiet grey, Block
        // purple, Execute compute green, Copy exchange blue, loops orange.
        QCOMPARE(testing::treeRows(model, Qt::DecorationRole, ProgramTreeModel::Name),
                 (QStringList{"#9aa5b1", "  #9467bd", "    #9467bd", "      #3ba55c", "    #9467bd",
                              "      #3ba55c", "  #9467bd", "    #3ba55c", "  #3d7ed6", "  #e09b2d",
                              "    #3ba55c", "  #e09b2d", "    #3ba55c"}));
        QVERIFY(!model.index(0, ProgramTreeModel::Kind).data(Qt::DecorationRole).isValid());
        // Blocks (operations) in bold, nothing else.
        const QModelIndex root = model.index(0, 0);
        QVERIFY(model.index(0, 0, root).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(2, 0, root).data(Qt::FontRole).isValid());
        QVERIFY(!model.index(0, ProgramTreeModel::Kind, root).data(Qt::FontRole).isValid());
        model.setProgram(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // Nodes and steps found by id, with the ids a row carries.
    void treeFindsNodesAndSteps() {
        const Program p = loopsProgram();
        ProgramTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(p.data, p.stats);
        // Step 2 runs in node 7, under "bwd/matmul" (node 6, the root's row 1).
        const QModelIndex products = model.indexOfStep(record::StepId{2u});
        QCOMPARE(products.data(kIdRole).toUInt(), 7u);
        QCOMPARE(products.data(kStepIdRole).toInt(), 2);
        QCOMPARE(products.data(kComputeSetRole).toInt(), 2);
        QCOMPARE(products.parent().row(), 1);
        QCOMPARE(products.parent().data().toString(), QString("bwd/matmul"));
        QCOMPARE(products.parent().data(kStepIdRole).toInt(), -1);
        // The Copy: a step without a compute set.
        const QModelIndex copy = model.indexOfNode(record::ProgramNodeId{8u});
        QCOMPARE(copy.row(), 2);
        QCOMPARE(copy.data(kStepIdRole).toInt(), 3);
        QCOMPARE(copy.data(kComputeSetRole).toInt(), -1);
        const QModelIndex poll = model.indexOfNode(record::ProgramNodeId{12u});
        QCOMPARE(poll.data().toString(), QString("wait/poll"));
        QCOMPARE(poll.parent().row(), 4);
        QVERIFY(!model.indexOfNode(record::ProgramNodeId{99u}).isValid());
        QVERIFY(!model.indexOfStep(record::StepId{99u}).isValid());
        QCOMPARE(
            model.headerData(ProgramTreeModel::CyclesShare, Qt::Horizontal, kUnitRole).toString(),
            QString("fraction of all cycles"));
    }

    // The root's five children as a proxy on kSortRole orders them; ties
    // keep program order (fwd, bwd/matmul, copy, x4 loop, wait).
    void treeSort_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<Qt::SortOrder>("order");
        QTest::addColumn<QStringList>("children");
        // 525, 240, 110, 80, 20.
        QTest::newRow("cycles ascending")
            << int(ProgramTreeModel::Cycles) << Qt::AscendingOrder
            << QStringList{"wait", "×4 loop", "copy", "bwd/matmul", "fwd"};
        // 2,048, 1,024, 512, 100, 64 (as text "1.0 KiB" and "100 B" would lead).
        QTest::newRow("memory descending")
            << int(ProgramTreeModel::Memory) << Qt::DescendingOrder
            << QStringList{"wait", "bwd/matmul", "fwd", "copy", "×4 loop"};
        // 3, 3 (~3), 2, 2, 1.
        QTest::newRow("executions descending")
            << int(ProgramTreeModel::Executions) << Qt::DescendingOrder
            << QStringList{"fwd", "wait", "copy", "×4 loop", "bwd/matmul"};
        // 3,600, 2,000, 400, 0, 0 (as text "400" would lead).
        QTest::newRow("FLOPs descending")
            << int(ProgramTreeModel::Flops) << Qt::DescendingOrder
            << QStringList{"fwd", "bwd/matmul", "×4 loop", "copy", "wait"};
        QTest::newRow("name ascending")
            << int(ProgramTreeModel::Name) << Qt::AscendingOrder
            << QStringList{"bwd/matmul", "copy", "fwd", "wait", "×4 loop"};
    }

    void treeSort() {
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, order);
        QFETCH(QStringList, children);
        const Program p = loopsProgram();
        ProgramTreeModel model;
        model.setProgram(p.data, p.stats);
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(kSortRole);
        proxy.sort(column, order);
        QCOMPARE(columnTexts(proxy, ProgramTreeModel::Name, Qt::DisplayRole, proxy.index(0, 0)),
                 children);
    }

    // ExecutionFixtures.h's report, written and read back: its run executes
    // each of the four steps three times (kOrder), so every node ran 3 times
    // and the program's cycles are 3 x (100,000 + 50,000 + 30,000 + 60,000).
    void executionsOfAWrittenReport() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::handBuiltExecutionReport(1));
        QVERIFY2(loaded.error.isEmpty(), qPrintable(loaded.error));
        const auto executions = countStepExecutions(*loaded.data, *loaded.source);
        QCOMPARE(executions, (std::vector<std::uint64_t>{3, 3, 3, 3}));
        const auto stats =
            std::make_shared<const ProgramStats>(computeProgramStats(*loaded.data, executions));
        QCOMPARE(stats->totalCycles, std::uint64_t{720000});
        ProgramTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(loaded.data, stats);
        // The unnamed Execute (node 5) has an unnamed step: it reads as its
        // compute set's name, as PopVision shows an unnamed step's operation.
        QCOMPARE(testing::treeRows(model),
                 (QStringList{
                     "Sequence | Sequence | 3 | 720,000 | 100.0% | 0 B |  |  | 4",
                     "  encoder | Block | 3 | 450,000 | 62.5% | 0 B |  |  | 2",
                     "    conv | Execute | 3 | 300,000 | 41.7% | 0 B |  |  | 1",
                     "    act | Execute | 3 | 150,000 | 20.8% | 0 B |  |  | 1",
                     "  copyOut | Copy | 3 | 90,000 | 12.5% | 0 B |  |  | 1",
                     "  softmax/exp | Execute | 3 | 180,000 | 25.0% | 0 B |  |  | 1",
                 }));
    }

    // On the engine's own reports, the executions the views count (stored
    // per step) agree with the executed steps the reader lists, and their
    // cycles with the runs' recorded totals: a property of captured reports a
    // hand-built one cannot show.
    void executionsComeFromTheExecutedSteps_data() {
        QTest::addColumn<QString>("report");
        for (const char* r : {"mlp-train", "attention", "stress", "oom"}) {
            QTest::newRow(r) << QString(r);
        }
    }

    void executionsComeFromTheExecutedSteps() {
        QFETCH(QString, report);
        const QString path = testing::namedReport(report);
        const auto data = loadReportData(path.toStdString());
        const ReportSource source(path.toStdString());
        const ProgramStats stats = computeProgramStats(*data, countStepExecutions(*data, source));
        const reports::ReportReader reader(path.toStdString());
        const auto expected = executionsFromReader(reader);
        const auto steps = reader.programSteps();
        std::uint64_t cycles = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto it = expected.find(steps[i].id.value());
            QCOMPARE(stats.stepExecutions[i], it == expected.end() ? 0 : it->second);
            cycles += steps[i].totalCycles * stats.stepExecutions[i];
        }
        QCOMPARE(stats.totalCycles, cycles);
        std::uint64_t runCycles = 0;
        for (const auto& r : reader.runs()) {
            runCycles += r.cycles;
        }
        QCOMPARE(cycles, runCycles);
    }

    // The variables live at a step, largest first, ties by name; unknown ids
    // are skipped. Rows of VariablesFixture.h's varied table: "name | bytes |
    // type | shape | live steps | tiles | kind"; the name's swatch is
    // always-live red (constants are always live) or not-always-live orange.
    void liveVariables_data() {
        QTest::addColumn<QList<int>>("ids");
        QTest::addColumn<QStringList>("rows");
        QTest::addColumn<QStringList>("swatches");
        QTest::addColumn<qulonglong>("total");
        // Step 1: weights, matmul/out, worklists a and b (1000 + 500 + 30 + 20).
        QTest::newRow("step 1") << QList<int>{4, 3, 1, 0}
                                << QStringList{"layer1/matmul/weights | 1000 B | float | [250] | "
                                               "always | 4 | always-live",
                                               "layer1/matmul/out | 500 B | float | [125] | 1 – 3 "
                                               "| 2 | not-always-live",
                                               "m4/Conv_1/worklists/a | 30 B | char | [30] | 0 – 1 "
                                               "| 1 | exchange buffer",
                                               "m4/Conv_1/worklists/b | 20 B | float | [5] | 0 – 3 "
                                               "| 1 | not-always-live"}
                                << QStringList{"#d62728", "#ff7f0e", "#ff7f0e", "#ff7f0e"}
                                << qulonglong(1550);
        // 500 bytes each: by name, "layer1/..." before "layer2/...".
        QTest::newRow("a tie")
            << QList<int>{6, 1}
            << QStringList{"layer1/matmul/out | 500 B | float | [125] | 1 – 3 | 2 | "
                           "not-always-live",
                           "layer2/out | 500 B | float | [125] | 3 | 3 | not-always-live"}
            << QStringList{"#ff7f0e", "#ff7f0e"} << qulonglong(1000);
        QTest::newRow("unknown id skipped")
            << QList<int>{42, 5, 2}
            << QStringList{"layer1/relu/out | 200 B | half | [10, 10] | 2 | 1 | not-always-live",
                           "controlId | 8 B | int | [2] | always | 1 | constant"}
            << QStringList{"#ff7f0e", "#d62728"} << qulonglong(208);
        QTest::newRow("none") << QList<int>{} << QStringList{} << QStringList{} << qulonglong(0);
    }

    void liveVariables() {
        QFETCH(QList<int>, ids);
        QFETCH(QStringList, rows);
        QFETCH(QStringList, swatches);
        QFETCH(qulonglong, total);
        const auto data = testing::variedVariablesReport();
        const auto lookup = std::make_shared<const VariableLookup>(*data);
        LiveVariablesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setVariables(data, lookup, variableIds(ids));
        QCOMPARE(rowTexts(model), rows);
        QCOMPARE(columnTexts(model, LiveVariablesModel::Name, Qt::DecorationRole), swatches);
        QCOMPARE(qulonglong(model.totalBytes()), total);
        for (int r = 0; r < model.rowCount(); ++r) {
            QCOMPARE(
                model.rowOfVariable(record::VariableId{model.index(r, 0).data(kIdRole).toUInt()}),
                r);
        }
        model.setVariables(nullptr, lookup, variableIds(ids));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.totalBytes(), std::uint64_t{0});
    }

    // Steps 1, 2 and 3 of the varied table, live sets as its live steps give
    // them (weights always; matmul/out 1-3; relu/out 2; worklists/a 0-1;
    // worklists/b 0-3; layer2/out 3). Step 1's list names weights twice and
    // step 2's an unknown id: counted once, skipped.
    //   step 1: 1000 + 500 + 30 + 20 = 1,550 bytes
    //   step 2: 1000 + 500 + 200 + 20 = 1,720
    //   step 3: 1000 + 500 + 20 + 500 = 2,020
    // From step 1 to 3: layer2/out became live, worklists/a dead, relu/out
    // lived only between; the rest at both. Rows: born, died, transient,
    // then by size.
    void comparingSteps() {
        const auto data = testing::variedVariablesReport();
        const auto lookup = std::make_shared<const VariableLookup>(*data);
        StepComparisonModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(data, lookup,
                            {record::StepId{1u}, record::StepId{2u}, record::StepId{3u}},
                            {variableIds({0, 1, 3, 4, 0}), variableIds({0, 1, 2, 4, 42}),
                             variableIds({0, 1, 4, 6})});
        QCOMPARE(model.columnCount(), 6);
        QCOMPARE(rowTexts(model),
                 (QStringList{
                     "layer2/out | 500 B |  |  | ● live | became live",
                     "m4/Conv_1/worklists/a | 30 B | ● live |  |  | became dead",
                     "layer1/relu/out | 200 B |  | ● live |  | live only between",
                     "layer1/matmul/weights | 1000 B | ● live | ● live | ● live | live at both",
                     "layer1/matmul/out | 500 B | ● live | ● live | ● live | live at both",
                     "m4/Conv_1/worklists/b | 20 B | ● live | ● live | ● live | live at both",
                 }));
        // Raw: live 1 / 0; the change as Change (Both 0, Born 1, Died 2, Transient 3).
        QCOMPARE(rowTexts(model, kSortRole).at(2),
                 QString("layer1/relu/out | 200 | 0 | 1 | 0 | 3"));
        QCOMPARE(columnTexts(model, model.changeColumn(), kSortRole),
                 (QStringList{"1", "2", "3", "0", "0", "0"}));
        QCOMPARE(model.changeAt(1), StepComparisonModel::Change::Died);
        // Headers: each step's total (1,550 / 1,024 = 1.5 KiB, 1.7, 2.0).
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c) {
            headers << model.headerData(c, Qt::Horizontal).toString();
        }
        QCOMPARE(headers, (QStringList{"Variable", "Bytes", "Step 1\n1.5 KiB", "Step 2\n1.7 KiB",
                                       "Step 3\n2.0 KiB", "Change 1 → 3"}));
        QCOMPARE(model.totals().bytesAt, (std::vector<std::uint64_t>{1550, 1720, 2020}));
        QCOMPARE(model.totals().born, std::size_t{1});
        QCOMPARE(model.totals().bornBytes, std::uint64_t{500});
        QCOMPARE(model.totals().died, std::size_t{1});
        QCOMPARE(model.totals().diedBytes, std::uint64_t{30});
        // Colours: a live cell is the not-always-live orange at alpha 60; the
        // change of a variable born is divergingColor(0.35), 0.35 of the way
        // from #f7f7f7 to #b2182b = (222.85, 168.95, 175.6); died
        // divergingColor(-0.35), towards #2166ac = (172.1, 196.25, 220.75);
        // both in black text.
        QCOMPARE(model.index(0, model.stepColumn(2)).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(0xff, 0x7f, 0x0e, 60));
        QVERIFY(!model.index(0, model.stepColumn(0)).data(Qt::BackgroundRole).isValid());
        QCOMPARE(columnTexts(model, model.changeColumn(), Qt::BackgroundRole),
                 (QStringList{"#dfa9b0", "#acc4dd", "", "", "", ""}));
        QCOMPARE(columnTexts(model, model.changeColumn(), Qt::ForegroundRole),
                 (QStringList{"#000000", "#000000", "", "", "", ""}));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
    }
};

QTEST_MAIN(TestProgramModels)
#include "tst_program_models.moc"
