// The Operations model on the hand-built report of OperationsFixture.h:
// rows grouped by debug-name path, per layer, with figures compared against
// the literal values worked out there, under QAbstractItemModelTester; and
// the FLOPs tab's model (OperationFlopsModel) of an operation's steps.
#include "ModelRows.h"
#include "OperationsFixture.h"
#include "views/models/ModelRoles.h"
#include "views/models/OperationFlopsModel.h"
#include "views/models/OperationsModel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using testing::rowTexts;

namespace {

// One line per row, depth first, indented two spaces a level:
// "name | debug name | layer | code bytes | cycles | FLOPs | peak bytes | steps | self cycles".
void outline(const QAbstractItemModel& m, const QModelIndex& parent, int depth, QStringList& out) {
    for (int r = 0; r < m.rowCount(parent); ++r) {
        QStringList cells;
        for (int c : {OperationsModel::Name, OperationsModel::DebugName, OperationsModel::Layer}) {
            cells << m.data(m.index(r, c, parent)).toString();
        }
        for (int c :
             {OperationsModel::CodeSize, OperationsModel::Cycles, OperationsModel::Flops,
              OperationsModel::Memory, OperationsModel::Steps, OperationsModel::SelfCycles}) {
            cells << QString::number(m.data(m.index(r, c, parent), kSortRole).toULongLong());
        }
        out << QString(depth * 2, ' ') + cells.join(" | ");
        outline(m, m.index(r, 0, parent), depth + 1, out);
    }
}

QStringList outline(const QAbstractItemModel& m) {
    QStringList out;
    outline(m, {}, 0, out);
    return out;
}

} // namespace

class TestOperationsModel : public QObject {
    Q_OBJECT

private slots:
    // Headers: titles, units (numeric columns, exported as numbers) and
    // alignment (text left, numbers right), as the columns are documented.
    void headersNameTheirUnits() {
        OperationsModel operations;
        OperationFlopsModel flops;
        struct Expected {
            QAbstractItemModel* model;
            int column;
            const char* title;
            QVariant unit;
        };
        const Expected expected[] = {
            {&operations, OperationsModel::Name, "Operation", QVariant()},
            {&operations, OperationsModel::Layer, "Layer", QVariant()},
            {&operations, OperationsModel::CodeSize, "Code size", QString("bytes")},
            {&operations, OperationsModel::Cycles, "Cycles", QString("cycles")},
            {&operations, OperationsModel::Vertices, "Vertices", QString("")},
            {&flops, OperationFlopsModel::Step, "Step", QVariant()},
            {&flops, OperationFlopsModel::Flops, "FLOPs", QString("")},
            {&flops, OperationFlopsModel::FlopsPerCycle, "FLOPs/cycle", QString("FLOPs per cycle")},
        };
        for (const Expected& e : expected) {
            const auto header = [&](int role) {
                return e.model->headerData(e.column, Qt::Horizontal, role);
            };
            QCOMPARE(header(Qt::DisplayRole).toString(), QString(e.title));
            QCOMPARE(header(kUnitRole), e.unit);
            QVERIFY(!header(Qt::ToolTipRole).toString().isEmpty());
            QCOMPARE(header(Qt::TextAlignmentRole).toInt(),
                     int((e.unit.isValid() ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
        }
        QVERIFY(!operations.headerData(OperationsModel::ColumnCount, Qt::Horizontal).isValid());
    }

    void allLayersGroupByDebugName() {
        const auto data = testing::operationsReport();
        OperationsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(data, testing::operationsStats(*data));
        // "fwd" is an operation and also the path of the two under it: it
        // heads them; "bwd" and "fwd/layer1" are groups.
        const QStringList expected = {
            "fwd | fwd | Application | 800 | 525 | 3600 | 512 | 2 | 0",
            "  layer1 | fwd/layer1 |  | 800 | 525 | 3600 | 512 | 2 | 0",
            "    matMul | fwd/layer1/matmul | PopLibs | 600 | 390 | 3000 | 512 | 1 | 390",
            "    add | fwd/layer1/add | PopLibs | 200 | 135 | 600 | 256 | 1 | 135",
            "bwd | bwd |  | 650 | 240 | 2000 | 1024 | 1 | 0",
            "  matMul | bwd/matmul | PopLibs | 650 | 240 | 2000 | 1024 | 1 | 240",
        };
        QCOMPARE(outline(model), expected);
        // Totals count each step once: steps 0-2, the Copy is no operation's.
        QCOMPARE(model.tree().operationCount, 4);
        QCOMPARE(model.tree().total.cycles, std::uint64_t{765});
        QCOMPARE(model.tree().total.codeBytes, std::uint64_t{850}); // not 600 + 200 + 650
        QCOMPARE(model.tree().total.flops, std::uint64_t{5600});
        QVERIFY(model.tree().layersKnown);
        // Display text of one row: 525 of the report's 875 cycles.
        const QModelIndex fwd = model.index(0, 0);
        QCOMPARE(model.data(fwd.siblingAtColumn(OperationsModel::CodeSize)).toString(),
                 QString("800 B"));
        QCOMPARE(model.data(fwd.siblingAtColumn(OperationsModel::CyclesShare)).toString(),
                 QString("60.0%"));
        QCOMPARE(model.data(fwd.siblingAtColumn(OperationsModel::Executions)).toString(),
                 QString("3"));
        QCOMPARE(model.nodeIdAt(fwd), record::ProgramNodeId{1u});
        QVERIFY(model.nodeIdAt(model.index(1, 0)).isNone()); // the "bwd" group
        const QModelIndex bwdMatMul = model.indexOfNode(record::ProgramNodeId{6u});
        QCOMPARE(model.data(bwdMatMul).toString(), QString("matMul"));
        QCOMPARE(model.data(model.parent(bwdMatMul)).toString(), QString("bwd"));
    }

    void layersChooseTheOperations() {
        const auto data = testing::operationsReport();
        OperationsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(data, testing::operationsStats(*data));
        model.setLayer(LayerFilter::Library);
        QCOMPARE(outline(model), QStringList({
                                     "fwd | fwd |  | 800 | 525 | 3600 | 512 | 2 | 0",
                                     "  layer1 | fwd/layer1 |  | 800 | 525 | 3600 | 512 | 2 | 0",
                                     "    matMul | fwd/layer1/matmul | PopLibs | 600 | 390 | "
                                     "3000 | 512 | 1 | 390",
                                     "    add | fwd/layer1/add | PopLibs | 200 | 135 | 600 | "
                                     "256 | 1 | 135",
                                     "bwd | bwd |  | 650 | 240 | 2000 | 1024 | 1 | 0",
                                     "  matMul | bwd/matmul | PopLibs | 650 | 240 | 2000 | "
                                     "1024 | 1 | 240",
                                 }));
        QCOMPARE(model.tree().operationCount, 3);
        QCOMPARE(model.tree().total.cycles, std::uint64_t{765});
        model.setLayer(LayerFilter::Application);
        QCOMPARE(outline(model),
                 QStringList({"fwd | fwd | Application | 800 | 525 | 3600 | 512 | 2 | 0"}));
        QCOMPARE(model.tree().operationCount, 1);
        QCOMPARE(model.tree().total.codeBytes, std::uint64_t{800});
    }

    void filterKeepsTheGroupsAbove() {
        const auto data = testing::operationsReport();
        OperationsModel model;
        model.setProgram(data, testing::operationsStats(*data));
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setFilterRole(OperationsModel::kFilterTextRole);
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setFilterFixedString("ADD");
        QCOMPARE(outline(proxy), QStringList({
                                     "fwd | fwd | Application | 800 | 525 | 3600 | 512 | 2 | 0",
                                     "  layer1 | fwd/layer1 |  | 800 | 525 | 3600 | 512 | 2 | 0",
                                     "    add | fwd/layer1/add | PopLibs | 200 | 135 | 600 | "
                                     "256 | 1 | 135",
                                 }));
        // The debug name matches too, not only the shown name.
        proxy.setFilterFixedString("bwd/matmul");
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 1);
        proxy.setFilterFixedString("no such operation");
        QCOMPARE(proxy.rowCount(), 0);
    }

    // As the pane sorts (a proxy on kSortRole), level by level; the outline
    // as operation names. Figures from the table of allLayersGroupByDebugName.
    void sortOnRawValues_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<Qt::SortOrder>("order");
        QTest::addColumn<QStringList>("names");
        // bwd 2,000 before fwd 3,600; add 600 before matMul 3,000 (as text
        // "3000" would come first).
        QTest::newRow("FLOPs ascending")
            << int(OperationsModel::Flops) << Qt::AscendingOrder
            << QStringList{"bwd", "  matMul", "fwd", "  layer1", "    add", "    matMul"};
        // bwd 1,024, fwd 512; matMul 512, add 256.
        QTest::newRow("memory descending")
            << int(OperationsModel::Memory) << Qt::DescendingOrder
            << QStringList{"bwd", "  matMul", "fwd", "  layer1", "    matMul", "    add"};
        // bwd 650 before fwd 800; add 200 before matMul 600.
        QTest::newRow("code size ascending")
            << int(OperationsModel::CodeSize) << Qt::AscendingOrder
            << QStringList{"bwd", "  matMul", "fwd", "  layer1", "    add", "    matMul"};
        QTest::newRow("name descending")
            << int(OperationsModel::Name) << Qt::DescendingOrder
            << QStringList{"fwd", "  layer1", "    matMul", "    add", "bwd", "  matMul"};
    }

    void sortOnRawValues() {
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, order);
        QFETCH(QStringList, names);
        const auto data = testing::operationsReport();
        OperationsModel model;
        model.setProgram(data, testing::operationsStats(*data));
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(kSortRole);
        proxy.sort(column, order);
        QCOMPARE(testing::treeRows(proxy, Qt::DisplayRole, OperationsModel::Name), names);
    }

    void codeletsOfAnOperation() {
        const auto data = testing::operationsReport();
        const auto stats = testing::operationsStats(*data);
        // bwd/matmul: MatMulPartial on 2 tiles (3 vertices), ReduceAdd on 1.
        const auto uses = codeletsOf(*data, *stats, {2});
        QCOMPARE(uses.size(), std::size_t{2});
        QCOMPARE(uses[0].name, std::string("MatMulPartial"));
        QCOMPARE(uses[0].tiles, 2u);
        QCOMPARE(uses[0].vertices, std::uint64_t{3});
        QCOMPARE(uses[0].codeBytes(), std::uint64_t{600});
        QCOMPARE(uses[1].name, std::string("ReduceAdd"));
        QCOMPARE(uses[1].codeBytes(), std::uint64_t{50});
        QCOMPARE(codeBytesOf(*data, *stats, {0, 1, 2}), std::uint64_t{850});
    }

    // Per step of an operation or group (figures of OperationsFixture.h's
    // table: FLOPs/run x runs, cycles x runs), then the Total row.
    void flopsPerStep() {
        const auto data = testing::operationsReport();
        const auto stats = testing::operationsStats(*data);
        OperationFlopsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(
            model.headerData(OperationFlopsModel::FlopsPerExecution, Qt::Horizontal).toString(),
            QString("FLOPs per execution"));

        // "fwd": steps 0 (1000 x 3 over 130 x 3 cycles) and 1 (200 x 3 over 45 x 3).
        model.setSteps(*data, *stats, {0, 1});
        QCOMPARE(rowTexts(model),
                 QStringList({"fwd/layer1/matmul/products | 1,000 | 3 | 3,000 | 390 | 7.69",
                              "fwd/layer1/add/add | 200 | 3 | 600 | 135 | 4.44",
                              "Total |  | 6 | 3,600 | 525 | 6.86"}));
        // The Total agrees with the tree's figures of the same steps.
        const OperationFigures fwd = figuresOf(*data, *stats, {0, 1});
        QCOMPARE(model.rows().back().flops, fwd.flops);
        QCOMPARE(model.rows().back().cycles, fwd.cycles);
        QCOMPARE(model.index(0, OperationFlopsModel::Flops).data(kSortRole).toULongLong(),
                 qulonglong(3000));
        QCOMPARE(model.index(1, OperationFlopsModel::FlopsPerCycle).data(kSortRole).toDouble(),
                 600.0 / 135.0);
        QCOMPARE(model.index(1, 0).data(kIdRole).toInt(), 1);
        QVERIFY(!model.index(2, 0).data(kIdRole).isValid());
        QVERIFY(model.index(2, 0).data(Qt::FontRole).value<QFont>().bold());

        // A step without FLOPs (the copy, 2 runs of 55 cycles) has no FLOPs/cycle.
        model.setSteps(*data, *stats, {2, 3});
        QCOMPARE(rowTexts(model),
                 QStringList({"bwd/matmul/products | 2,000 | 1 | 2,000 | 240 | 8.33",
                              "copy | 0 | 2 | 0 | 110 | ", "Total |  | 3 | 2,000 | 350 | 5.71"}));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void reportsWithoutLayersShowEveryOperation() {
        auto copy = std::make_shared<ReportData>(*testing::operationsReport());
        for (auto& n : copy->programNodes) {
            n.layer = record::OperationLayer::Unknown;
            n.libraryFunction.clear();
        }
        std::shared_ptr<const ReportData> data = copy;
        OperationsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(data, testing::operationsStats(*data));
        QVERIFY(!model.tree().layersKnown);
        QCOMPARE(model.tree().operationCount, 4);
        // Without functions an operation is named by its debug name's last part.
        QCOMPARE(outline(model).at(2),
                 QString("    matmul | fwd/layer1/matmul | unknown | 600 | 390 | 3000 | 512 | 1 "
                         "| 390"));
        model.setLayer(LayerFilter::Library);
        QCOMPARE(model.rowCount(), 0);
        model.setProgram(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestOperationsModel)
#include "tst_operations_model.moc"
