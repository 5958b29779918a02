// The Liveness tables' models on hand-built reports, checked against values
// written out here by hand and with QAbstractItemModelTester: the variables
// grouped by debug-name hierarchy (group sums, merged chains, filtering),
// the selected step's vertices per codelet (and the Memory pane's vertices of
// tiles, which share their sums), and its cycles per tile.
#include "VariablesFixture.h"
#include "tests/record/RecordFixtures.h"
#include "views/data/ReportData.h"
#include "views/models/LiveVariablesModel.h"
#include "views/models/LiveVariablesTreeModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/TileVerticesModel.h"
#include "views/models/VariableLookup.h"
#include "views/panes/liveness/StepCyclesModel.h"
#include "views/panes/liveness/StepVerticesModel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;

namespace {

// Variable ids 0 .. n-1.
std::vector<record::VariableId> ids(std::uint32_t n) {
    std::vector<record::VariableId> out;
    for (std::uint32_t i = 0; i < n; ++i) {
        out.emplace_back(i);
    }
    return out;
}

QString text(const QAbstractItemModel& m, const QModelIndex& parent, int row, int column) {
    return m.index(row, column, parent).data().toString();
}

// Two codelets (ConvPartial 1.2 KB with a cycle formula, Add 300 B without)
// in two compute sets, and step 0 executing `computeSet`.
std::shared_ptr<ReportData> twoCodeletReport(std::uint32_t computeSet) {
    auto data = std::make_shared<ReportData>();
    data->codelets = {testing::codelet(0, "poplin::ConvPartial", 1200, "10 + 2 * n"),
                      testing::codelet(1, "popops::Add", 300)};
    data->computeSets = {{record::ComputeSetId{0u}, "conv", 9},
                         {record::ComputeSetId{1u}, "add", 10}};
    reports::ProgramStepEntry execute;
    execute.id = record::StepId{0u};
    execute.kind = record::ProgramKind::Execute;
    execute.computeSet = record::ComputeSetId{static_cast<std::uint32_t>(computeSet)};
    data->programSteps = {execute};
    return data;
}

} // namespace

class TestLivenessModels : public QObject {
    Q_OBJECT

private slots:
    void variablesGroupByNameHierarchy() {
        const auto data = testing::variablesReport();
        const auto lookup = std::make_shared<const VariableLookup>(*data);
        LiveVariablesModel flat;
        LiveVariablesTreeModel tree(&flat);
        QAbstractItemModelTester tester(&tree,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        flat.setVariables(data, lookup, ids(6));

        // layer1 (1,700 B) > m4/Conv_1/worklists (50 B, a merged chain) > controlId (8 B).
        QCOMPARE(tree.rowCount(), 3);
        QCOMPARE(text(tree, {}, 0, LiveVariablesModel::Name), QString("layer1"));
        QCOMPARE(tree.index(0, LiveVariablesModel::Bytes).data(kSortRole).toULongLong(), 1700ULL);
        QCOMPARE(text(tree, {}, 0, LiveVariablesModel::Kind), QString("3 variables"));
        QVERIFY(!tree.index(0, 0).data(kIdRole).isValid()); // a group names no variable
        QCOMPARE(text(tree, {}, 1, LiveVariablesModel::Name), QString("m4/Conv_1/worklists"));
        QCOMPARE(tree.index(1, LiveVariablesModel::Bytes).data(kSortRole).toULongLong(), 50ULL);
        QCOMPARE(tree.index(1, 0).data(LiveVariablesTreeModel::kPathRole).toString(),
                 QString("m4/Conv_1/worklists"));
        QCOMPARE(text(tree, {}, 2, LiveVariablesModel::Name), QString("controlId"));
        QCOMPARE(tree.index(2, 0).data(kIdRole).toUInt(), 5u);
        QCOMPARE(tree.rowCount(tree.index(2, 0)), 0);

        const QModelIndex layer1 = tree.index(0, 0);
        QCOMPARE(tree.rowCount(layer1), 2);
        QCOMPARE(text(tree, layer1, 0, 0), QString("matmul"));
        QCOMPARE(tree.index(0, LiveVariablesModel::Bytes, layer1).data(kSortRole).toULongLong(),
                 1500ULL);
        QCOMPARE(text(tree, layer1, 1, 0), QString("relu")); // one variable: still a group
        const QModelIndex matmul = tree.index(0, 0, layer1);
        QCOMPARE(tree.rowCount(matmul), 2);
        QCOMPARE(text(tree, matmul, 0, LiveVariablesModel::Name), QString("weights"));
        QCOMPARE(text(tree, matmul, 0, LiveVariablesModel::Bytes), QString("1000 B"));
        QCOMPARE(tree.index(0, 0, matmul).data(kIdRole).toUInt(), 0u);
        QCOMPARE(tree.index(0, 0, matmul).data(LiveVariablesTreeModel::kPathRole).toString(),
                 QString("layer1/matmul/weights"));
        // Variable rows read like the flat model's beyond the name.
        QCOMPARE(text(tree, matmul, 1, LiveVariablesModel::Type), QString("float"));
        QCOMPARE(text(tree, matmul, 1, LiveVariablesModel::Shape), QString("[125]"));

        const QModelIndex worklists = tree.index(1, 0);
        QCOMPARE(tree.rowCount(worklists), 2);
        QCOMPARE(text(tree, worklists, 0, 0), QString("a"));
        QCOMPARE(text(tree, worklists, 1, 0), QString("b"));

        // A variable's row, for selecting it: under its groups.
        const QModelIndex b = tree.indexOfVariable(4);
        QCOMPARE(b.data().toString(), QString("b"));
        QCOMPARE(b.parent(), worklists);
        QVERIFY(!tree.indexOfVariable(42).isValid());

        // The flat model's reset rebuilds the tree.
        flat.setVariables(data, lookup, {record::VariableId{2u}, record::VariableId{5u}});
        QCOMPARE(tree.rowCount(), 2);
        QCOMPARE(text(tree, {}, 0, 0), QString("layer1/relu")); // a chain now
        QCOMPARE(tree.rowCount(tree.index(0, 0)), 1);
        flat.setVariables(nullptr, nullptr, {});
        QCOMPARE(tree.rowCount(), 0);
    }

    void groupedFilterAndSort() {
        const auto data = testing::variablesReport();
        const auto lookup = std::make_shared<const VariableLookup>(*data);
        LiveVariablesModel flat;
        LiveVariablesTreeModel tree(&flat);
        flat.setVariables(data, lookup, ids(6));
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&tree);
        proxy.setSortRole(kSortRole);
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterRole(LiveVariablesTreeModel::kPathRole);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.sort(LiveVariablesModel::Bytes, Qt::AscendingOrder);
        QCOMPARE(text(proxy, {}, 0, 0), QString("controlId"));
        QCOMPARE(text(proxy, {}, 2, 0), QString("layer1"));
        // "OUT" matches the two ".../out" variables, by full name, and their groups.
        proxy.setFilterFixedString("OUT");
        QCOMPARE(proxy.rowCount(), 1);
        const QModelIndex layer1 = proxy.index(0, 0);
        QCOMPARE(layer1.data().toString(), QString("layer1"));
        QCOMPARE(proxy.rowCount(layer1), 2); // relu (200 B) before matmul (1,500 B)
        QCOMPARE(text(proxy, layer1, 0, 0), QString("relu"));
        QCOMPARE(proxy.rowCount(proxy.index(1, 0, layer1)), 1);
        QCOMPARE(text(proxy, proxy.index(1, 0, layer1), 0, 0), QString("out"));
        // A group's name matches too: everything under "conv_1".
        proxy.setFilterFixedString("conv_1");
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 2);
    }

    void verticesOfAStepByCodelet() {
        auto data = twoCodeletReport(0);
        reports::ProgramStepEntry sync;
        sync.id = record::StepId{1u};
        sync.kind = record::ProgramKind::Sync;
        data->programSteps.push_back(sync);
        data->vertexCounts = {testing::vertexCount(0, 0, 0, 3, 48),
                              testing::vertexCount(0, 1, 0, 2, 32),
                              testing::vertexCount(0, 1, 1, 4, 64),
                              testing::vertexCount(1, 2, 1, 10, 160), // another compute set
                              testing::vertexCount(0, 3, 1, 0, 0)};   // no vertex: not a tile used
        StepVerticesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStep(data, record::StepId{0u});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.computeSet(), record::ComputeSetId{0u});
        QCOMPARE(model.totalVertices(), 9ULL);
        QCOMPARE(model.tilesUsed(), 2u);
        // The most vertices first: ConvPartial 5 on tiles 0 and 1, then Add 4 on tile 1.
        QCOMPARE(text(model, {}, 0, StepVerticesModel::Codelet), QString("poplin::ConvPartial"));
        QCOMPARE(model.index(0, StepVerticesModel::Vertices).data(kSortRole).toULongLong(), 5ULL);
        QCOMPARE(model.index(0, StepVerticesModel::Tiles).data(kSortRole).toULongLong(), 2ULL);
        QCOMPARE(model.index(0, StepVerticesModel::StateBytes).data(kSortRole).toULongLong(),
                 80ULL);
        QCOMPARE(text(model, {}, 0, StepVerticesModel::CodeBytes), QString("1.2 KiB"));
        QCOMPARE(text(model, {}, 0, StepVerticesModel::CycleEstimate), QString("10 + 2 * n"));
        QCOMPARE(text(model, {}, 1, StepVerticesModel::Codelet), QString("popops::Add"));
        QCOMPARE(model.index(1, StepVerticesModel::Vertices).data(kSortRole).toULongLong(), 4ULL);
        QCOMPARE(model.index(1, StepVerticesModel::Tiles).data(kSortRole).toULongLong(), 1ULL);
        QCOMPARE(text(model, {}, 1, StepVerticesModel::CycleEstimate), QString("—"));
        QCOMPARE(
            model.headerData(StepVerticesModel::StateBytes, Qt::Horizontal, kUnitRole).toString(),
            QString("bytes"));
        // A sync step runs no vertices.
        model.setStep(data, record::StepId{1u});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.computeSet().isNone());
        model.setStep(data, record::StepId{7u}); // no such step
        QCOMPARE(model.rowCount(), 0);
    }

    // The Memory pane's vertices of tiles and the Liveness pane's vertices of
    // a step sum the same entries (CodeletVerticesModel); each keeps its own
    // columns. Every figure below is summed by hand from vertexCounts.
    void tileAndStepVerticesShareTheirSums() {
        auto data = twoCodeletReport(1);
        // {computeSet, tile, codelet, count, stateBytes}
        data->vertexCounts = {
            testing::vertexCount(0, 0, 0, 3, 48),  testing::vertexCount(0, 1, 0, 2, 32),
            testing::vertexCount(0, 1, 1, 4, 64),  testing::vertexCount(1, 2, 1, 10, 160),
            testing::vertexCount(1, 2, 7, 10, 40), // codelet 7: not in the report
            testing::vertexCount(1, 3, 0, 0, 0)};  // no vertex: counts nowhere
        TileVerticesModel tiles;
        QAbstractItemModelTester tileTester(&tiles,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        tiles.setReport(data);
        QCOMPARE(tiles.columnCount(), int(TileVerticesModel::ColumnCount));
        QStringList headers;
        for (int c = 0; c < tiles.columnCount(); ++c) {
            headers << tiles.headerData(c, Qt::Horizontal).toString();
        }
        QCOMPARE(headers, (QStringList{"Codelet", "Vertices", "Vertex state", "Compute sets"}));
        // All tiles: Add 4 + 10 in two compute sets; "codelet 7" 10 (a tie with
        // nobody); ConvPartial 3 + 2, one compute set (its zero entry in cs 1 does not count).
        QCOMPARE(tiles.rowCount(), 3);
        auto tileRow = [&](int row) {
            return QStringList{text(tiles, {}, row, TileVerticesModel::Codelet),
                               text(tiles, {}, row, TileVerticesModel::Vertices),
                               text(tiles, {}, row, TileVerticesModel::StateBytes),
                               text(tiles, {}, row, TileVerticesModel::ComputeSets)};
        };
        QCOMPARE(tileRow(0), (QStringList{"popops::Add", "14", "224 B", "2"}));
        QCOMPARE(tileRow(1), (QStringList{"codelet 7", "10", "40 B", "1"}));
        QCOMPARE(tileRow(2), (QStringList{"poplin::ConvPartial", "5", "80 B", "1"}));
        QCOMPARE(tiles.totalVertices(), 29ULL);
        QCOMPARE(tiles.tilesUsed(), 3u);
        // Tile 1: Add 4 before ConvPartial 2.
        tiles.setTiles({1});
        QCOMPARE(tiles.rowCount(), 2);
        QCOMPARE(tileRow(0), (QStringList{"popops::Add", "4", "64 B", "1"}));
        QCOMPARE(tileRow(1), (QStringList{"poplin::ConvPartial", "2", "32 B", "1"}));
        // Tile 3 holds only the zero entry: no rows.
        tiles.setTiles({3});
        QCOMPARE(tiles.rowCount(), 0);
        // Numbers right-aligned, names left, in both models.
        tiles.setTiles({});
        QCOMPARE(tiles.index(0, TileVerticesModel::Vertices).data(Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignRight | Qt::AlignVCenter));
        QCOMPARE(tiles.index(0, TileVerticesModel::Codelet).data(Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignLeft | Qt::AlignVCenter));

        StepVerticesModel step;
        QAbstractItemModelTester stepTester(&step,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        step.setStep(
            data,
            record::StepId{0u}); // compute set 1: Add 10 and codelet 7 10 on tile 2, tied: by name
        QCOMPARE(step.columnCount(), int(StepVerticesModel::ColumnCount));
        QCOMPARE(step.rowCount(), 2);
        QCOMPARE(text(step, {}, 0, StepVerticesModel::Codelet), QString("codelet 7"));
        QCOMPARE(text(step, {}, 0, StepVerticesModel::CodeBytes), QString("0 B"));
        QCOMPARE(text(step, {}, 0, StepVerticesModel::CycleEstimate), QString("—"));
        QCOMPARE(text(step, {}, 1, StepVerticesModel::Codelet), QString("popops::Add"));
        QCOMPARE(text(step, {}, 1, StepVerticesModel::Tiles), QString("1"));
        QCOMPARE(text(step, {}, 1, StepVerticesModel::StateBytes), QString("160 B"));
        QCOMPARE(text(step, {}, 1, StepVerticesModel::CodeBytes), QString("300 B"));
        QCOMPARE(step.totalVertices(), 20ULL);
        QCOMPARE(step.tilesUsed(), 1u); // tile 3's zero entry is not a tile used
        QCOMPARE(
            step.headerData(StepVerticesModel::Tiles, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QString("Tiles running vertices of this codelet in this step"));
        QVERIFY(!tiles.headerData(TileVerticesModel::Codelet, Qt::Horizontal, kUnitRole).isValid());
        QCOMPARE(
            tiles.headerData(TileVerticesModel::StateBytes, Qt::Horizontal, kUnitRole).toString(),
            QString("bytes"));
        step.clear();
        QCOMPARE(step.rowCount(), 0);
        QCOMPARE(step.totalVertices(), 0ULL);
    }

    void cyclesOfAStepPerTile() {
        reports::StepTiles tiles;
        tiles.step = record::StepId{3u};
        tiles.totalCycles = 40;
        tiles.computeCycles = {10, 30, 20, 30};
        tiles.exchangeCycles = {5, 5, 5, 5};
        tiles.syncCycles = {25, 5, 15, 5};
        StepCyclesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setTiles(tiles);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.totalCycles(), 40ULL);
        QCOMPARE(text(model, {}, StepCyclesModel::Compute, StepCyclesModel::Phase),
                 QString("Compute"));
        QCOMPARE(text(model, {}, StepCyclesModel::Compute, StepCyclesModel::Max), QString("30"));
        QCOMPARE(text(model, {}, StepCyclesModel::Compute, StepCyclesModel::Mean), QString("22.5"));
        QCOMPARE(text(model, {}, StepCyclesModel::Compute, StepCyclesModel::Min), QString("10"));
        QCOMPARE(text(model, {}, StepCyclesModel::Compute, StepCyclesModel::MaxTile),
                 QString("1")); // the first of tiles 1 and 3
        QCOMPARE(text(model, {}, StepCyclesModel::Exchange, StepCyclesModel::Mean), QString("5.0"));
        QCOMPARE(text(model, {}, StepCyclesModel::Exchange, StepCyclesModel::MaxTile),
                 QString("0"));
        QCOMPARE(
            model.index(StepCyclesModel::Sync, StepCyclesModel::Max).data(kSortRole).toULongLong(),
            25ULL);
        QCOMPARE(
            model.index(StepCyclesModel::Sync, StepCyclesModel::Mean).data(kSortRole).toDouble(),
            12.5);
        QCOMPARE(text(model, {}, StepCyclesModel::Sync, StepCyclesModel::Min), QString("5"));
        QCOMPARE(model.headerData(StepCyclesModel::Max, Qt::Horizontal, kUnitRole).toString(),
                 QString("cycles"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestLivenessModels)
#include "tst_liveness_models.moc"
