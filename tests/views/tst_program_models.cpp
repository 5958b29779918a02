// The Program and Liveness panes' item models without any widget: checked
// with QAbstractItemModelTester and against figures computed here straight
// from reports::ReportReader (program nodes, program steps, executed steps).
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/data/ReportData.h"
#include "views/data/ReportSource.h"
#include "views/models/LiveVariablesModel.h"
#include "views/models/OperationsModel.h"
#include "views/models/ProgramStats.h"
#include "views/models/ProgramTreeModel.h"
#include "views/models/StepComparisonModel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <map>
#include <set>

using namespace tessera;
using namespace tessera::views;

namespace {

struct Loaded {
    std::shared_ptr<const ReportData> data;
    std::shared_ptr<ReportSource> source;
    std::shared_ptr<const ProgramStats> stats;
    std::unique_ptr<reports::ReportReader> reader;
};

Loaded load(const QString& path) {
    Loaded l;
    l.data = loadReportData(path.toStdString());
    l.source = std::make_shared<ReportSource>(path.toStdString());
    l.stats = std::make_shared<ProgramStats>(
        computeProgramStats(*l.data, countStepExecutions(*l.data, *l.source)));
    l.reader = std::make_unique<reports::ReportReader>(path.toStdString());
    return l;
}

// Executions per step id, counted straight from the reader.
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
    void reports_data() {
        QTest::addColumn<QString>("report");
        for (const char* r : {"mlp-train", "attention", "stress", "oom"}) {
            QTest::newRow(r) << QString(r);
        }
    }

    void treeRowsMatchTheReportsNodes_data() { reports_data(); }
    void treeRowsMatchTheReportsNodes() {
        QFETCH(QString, report);
        const Loaded l = load(testing::namedReport(report));
        ProgramTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(l.data, l.stats);

        const auto nodes = l.reader->programNodes();
        std::map<std::uint32_t, int> childrenOf; // kNone: roots
        for (const auto& n : nodes) {
            ++childrenOf[n.parent.value()];
        }
        QCOMPARE(model.rowCount(), childrenOf[record::kNone]);
        // Walk the whole tree: each node's row count is its number of children.
        std::size_t visited = 0;
        std::vector<QModelIndex> stack{QModelIndex()};
        while (!stack.empty()) {
            const QModelIndex parent = stack.back();
            stack.pop_back();
            for (int r = 0; r < model.rowCount(parent); ++r) {
                const QModelIndex child = model.index(r, 0, parent);
                const auto id = model.data(child, kIdRole).toUInt();
                QCOMPARE(model.rowCount(child), childrenOf[id]);
                QCOMPARE(model.parent(child), parent);
                stack.push_back(child);
                ++visited;
            }
        }
        QCOMPARE(visited, nodes.size());
    }

    void executionsComeFromTheExecutedSteps_data() { reports_data(); }
    void executionsComeFromTheExecutedSteps() {
        QFETCH(QString, report);
        const Loaded l = load(testing::namedReport(report));
        const auto expected = executionsFromReader(*l.reader);
        const auto steps = l.reader->programSteps();
        std::uint64_t cycles = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto it = expected.find(steps[i].id.value());
            QCOMPARE(l.stats->stepExecutions[i], it == expected.end() ? 0 : it->second);
            cycles += steps[i].totalCycles * l.stats->stepExecutions[i];
        }
        QCOMPARE(l.stats->totalCycles, cycles);
        // Every executed step's cycles are its program step's: the runs agree.
        std::uint64_t runCycles = 0;
        for (const auto& r : l.reader->runs()) {
            runCycles += r.cycles;
        }
        QCOMPARE(cycles, runCycles);
    }

    void repeatExecutions() {
        const Loaded l = load(testing::namedReport("mlp-train"));
        ProgramTreeModel model;
        model.setProgram(l.data, l.stats);
        const QModelIndex root = model.index(0, 0);
        const QModelIndex repeat = model.index(0, 0, root);
        QCOMPARE(model.data(model.index(0, ProgramTreeModel::Kind, root)).toString(),
                 QString("Repeat"));
        QCOMPARE(
            model.data(model.index(0, ProgramTreeModel::Executions, root), kSortRole).toULongLong(),
            1ull);
        const QModelIndex body = model.index(0, ProgramTreeModel::Executions, repeat);
        const auto iterations =
            l.data->node(record::ProgramNodeId{model.data(repeat, kIdRole).toUInt()})->repeatCount;
        QCOMPARE(model.data(body, kSortRole).toULongLong(), iterations);
        // The root holds all cycles: 100%.
        QCOMPARE(model.data(model.index(0, ProgramTreeModel::Cycles), kSortRole).toULongLong(),
                 l.stats->totalCycles);
    }

    void operationsAggregateTheirSteps_data() { reports_data(); }
    void operationsAggregateTheirSteps() {
        QFETCH(QString, report);
        const Loaded l = load(testing::namedReport(report));
        OperationsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(l.data, l.stats);

        const auto nodes = l.reader->programNodes();
        const auto steps = l.reader->programSteps();
        const auto executions = executionsFromReader(*l.reader);
        std::map<std::uint32_t, const record::ProgramNodeRecord*> nodeById;
        int blocks = 0;
        for (const auto& n : nodes) {
            nodeById[n.id.value()] = &n;
            blocks += n.kind == record::ProgramKind::Block ? 1 : 0;
            // Captured reports record who opened each Block.
            QCOMPARE(n.layer != record::OperationLayer::Unknown,
                     n.kind == record::ProgramKind::Block);
        }
        // Independent sums: a step counts for every Block enclosing it.
        std::map<std::uint32_t, std::uint64_t> cycles, self, flops;
        std::uint64_t allCycles = 0;
        for (const auto& s : steps) {
            const auto it = executions.find(s.id.value());
            const std::uint64_t runs = it == executions.end() ? 0 : it->second;
            if (!s.operation.isNone()) {
                self[s.operation.value()] += s.totalCycles * runs;
            }
            bool inOperation = false;
            for (auto n = s.node; !n.isNone(); n = nodeById[n.value()]->parent) {
                if (nodeById[n.value()]->kind == record::ProgramKind::Block) {
                    cycles[n.value()] += s.totalCycles * runs;
                    flops[n.value()] += s.flops * runs;
                    inOperation = true;
                }
            }
            allCycles += inOperation ? s.totalCycles * runs : 0;
        }
        QCOMPARE(model.tree().total.cycles, allCycles);
        // Walk the tree: one operation row per Block; a leaf operation's figures
        // are its node's; a row holds at least each child's cycles.
        int operations = 0;
        std::vector<QModelIndex> stack{QModelIndex()};
        while (!stack.empty()) {
            const QModelIndex parent = stack.back();
            stack.pop_back();
            for (int r = 0; r < model.rowCount(parent); ++r) {
                const QModelIndex index = model.index(r, 0, parent);
                stack.push_back(index);
                const auto rowCycles =
                    model.data(index.siblingAtColumn(OperationsModel::Cycles), kSortRole)
                        .toULongLong();
                if (parent.isValid()) {
                    QVERIFY(model.data(parent.siblingAtColumn(OperationsModel::Cycles), kSortRole)
                                .toULongLong() >= rowCycles);
                }
                const auto id = model.nodeIdAt(index);
                if (id.isNone()) {
                    continue;
                }
                ++operations;
                QCOMPARE(nodeById[id.value()]->kind, record::ProgramKind::Block);
                QCOMPARE(model.data(index.siblingAtColumn(OperationsModel::DebugName)).toString(),
                         QString::fromStdString(nodeById[id.value()]->name));
                QCOMPARE(model.data(index.siblingAtColumn(OperationsModel::SelfCycles), kSortRole)
                             .toULongLong(),
                         self[id.value()]);
                if (model.rowCount(index) == 0) {
                    QCOMPARE(rowCycles, cycles[id.value()]);
                    QCOMPARE(model.data(index.siblingAtColumn(OperationsModel::Flops), kSortRole)
                                 .toULongLong(),
                             flops[id.value()]);
                }
            }
        }
        QCOMPARE(operations, blocks);
        QCOMPARE(model.tree().operationCount, blocks);
    }

    void operationsSortAndFilter() {
        const Loaded l = load(testing::namedReport("mlp-train"));
        OperationsModel model;
        model.setProgram(l.data, l.stats);
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(kSortRole);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setFilterRole(OperationsModel::kFilterTextRole);
        proxy.setRecursiveFilteringEnabled(true);
        proxy.sort(OperationsModel::Cycles, Qt::DescendingOrder);
        QVERIFY(proxy.rowCount() > 1);
        for (int r = 1; r < proxy.rowCount(); ++r) {
            QVERIFY(
                proxy.data(proxy.index(r - 1, OperationsModel::Cycles), kSortRole).toULongLong() >=
                proxy.data(proxy.index(r, OperationsModel::Cycles), kSortRole).toULongLong());
        }
        proxy.sort(OperationsModel::Name, Qt::AscendingOrder);
        for (int r = 1; r < proxy.rowCount(); ++r) {
            QVERIFY(proxy.data(proxy.index(r - 1, 0)).toString() <=
                    proxy.data(proxy.index(r, 0)).toString());
        }
        int expected = 0;
        for (const auto& n : l.data->programNodes) {
            expected += n.kind == record::ProgramKind::Block &&
                        QString::fromStdString(n.name + " " + n.libraryFunction)
                            .contains("SOFTMAX", Qt::CaseInsensitive);
        }
        QVERIFY(expected > 0);
        proxy.setFilterFixedString("SOFTMAX");
        // Operations that match, anywhere in the tree.
        int matching = 0;
        std::vector<QModelIndex> stack{QModelIndex()};
        while (!stack.empty()) {
            const QModelIndex parent = stack.back();
            stack.pop_back();
            for (int r = 0; r < proxy.rowCount(parent); ++r) {
                const QModelIndex index = proxy.index(r, 0, parent);
                stack.push_back(index);
                matching += proxy.data(index, kIdRole).isValid() &&
                            proxy.data(index, OperationsModel::kFilterTextRole)
                                .toString()
                                .contains("softmax", Qt::CaseInsensitive);
            }
        }
        QCOMPARE(matching, expected);
        proxy.setFilterFixedString("no such operation");
        QCOMPARE(proxy.rowCount(), 0);
    }

    void liveVariablesAtAStep() {
        const Loaded l = load(testing::namedReport("mlp-train"));
        auto lookup = std::make_shared<const VariableLookup>(*l.data);
        LiveVariablesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const auto& step : l.data->programSteps) {
            const auto ids = l.reader->liveVariables(step.id);
            model.setVariables(l.data, lookup, ids);
            QCOMPARE(model.rowCount(), static_cast<int>(ids.size()));
            QCOMPARE(static_cast<std::uint64_t>(model.rowCount()), step.liveVariableCount);
            std::set<record::VariableId> shown;
            std::uint64_t bytes = 0;
            for (int r = 0; r < model.rowCount(); ++r) {
                shown.insert(record::VariableId{model.data(model.index(r, 0), kIdRole).toUInt()});
                bytes +=
                    model.data(model.index(r, LiveVariablesModel::Bytes), kSortRole).toULongLong();
                if (r > 0) {
                    QVERIFY(model.data(model.index(r - 1, LiveVariablesModel::Bytes), kSortRole)
                                .toULongLong() >=
                            model.data(model.index(r, LiveVariablesModel::Bytes), kSortRole)
                                .toULongLong());
                }
            }
            QCOMPARE(shown, std::set<record::VariableId>(ids.begin(), ids.end()));
            QCOMPARE(model.totalBytes(), bytes);
        }
    }

    void comparingSteps() {
        const Loaded l = load(testing::namedReport("mlp-train"));
        auto lookup = std::make_shared<const VariableLookup>(*l.data);
        StepComparisonModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const std::vector<record::StepId> steps{record::StepId{2u}, record::StepId{9u},
                                                record::StepId{24u}};
        std::vector<std::vector<record::VariableId>> live;
        for (const auto s : steps) {
            live.push_back(l.reader->liveVariables(s));
        }
        model.setComparison(l.data, lookup, steps, live);
        QCOMPARE(model.columnCount(), 2 + 3 + 1);
        const std::set<record::VariableId> first(live.front().begin(), live.front().end());
        const std::set<record::VariableId> last(live.back().begin(), live.back().end());
        std::set<record::VariableId> all;
        for (const auto& ids : live) {
            all.insert(ids.begin(), ids.end());
        }
        QCOMPARE(model.rowCount(), static_cast<int>(all.size()));
        std::size_t born = 0, died = 0;
        for (const auto id : last) {
            born += first.count(id) ? 0 : 1;
        }
        for (const auto id : first) {
            died += last.count(id) ? 0 : 1;
        }
        QCOMPARE(model.totals().born, born);
        QCOMPARE(model.totals().died, died);
        for (int r = 0; r < model.rowCount(); ++r) {
            const record::VariableId id{model.data(model.index(r, 0), kIdRole).toUInt()};
            for (int i = 0; i < 3; ++i) {
                const bool isLive = std::count(live[static_cast<std::size_t>(i)].begin(),
                                               live[static_cast<std::size_t>(i)].end(), id) > 0;
                QCOMPARE(model.data(model.index(r, model.stepColumn(i)), kSortRole).toInt(),
                         isLive ? 1 : 0);
            }
        }
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestProgramModels)
#include "tst_program_models.moc"
