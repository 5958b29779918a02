// Which layer opened each operation travels engine -> report -> reader ->
// Operations pane: Tessera's ops (the PopLibs layer) name their function, a
// workload's own Block is the application's; a report written before schema
// 1.2 (no operation_layers table) opens with every layer unknown, and the
// layer chooser is off; a layer row naming no Block is one clear error.
#include "ReportFixtures.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "tests/reports/SqlEdit.h"
#include "views/data/ReportData.h"
#include "views/models/OperationsModel.h"
#include "views/panes/program/OperationsView.h"

#include <sqlite3.h>

#include <QComboBox>
#include <QtTest>

#include <filesystem>
#include <map>

using namespace tessera;
using namespace tessera::views;
namespace fs = std::filesystem;

namespace {

fs::path copyOf(const QString& report, const std::string& name) {
    const fs::path to = fs::path(TESSERA_TEST_OUTPUT_DIR) / ("layers-" + name + ".tsr");
    fs::copy_file(report.toStdString(), to, fs::copy_options::overwrite_existing);
    return to;
}

// The Block nodes by name; `otherWithLayer` counts other nodes with a layer (none should).
std::map<std::string, record::ProgramNodeRecord> blocksByName(const reports::ReportReader& r,
                                                              int* otherWithLayer = nullptr) {
    std::map<std::string, record::ProgramNodeRecord> out;
    for (const auto& n : r.programNodes()) {
        if (n.kind == record::ProgramKind::Block) {
            out.emplace(n.name, n);
        } else if (otherWithLayer && n.layer != record::OperationLayer::Unknown) {
            ++*otherWithLayer;
        }
    }
    return out;
}

} // namespace

class TestOperationLayers : public QObject {
    Q_OBJECT

private slots:
    void libraryCallsNameTheirFunction() {
        const reports::ReportReader reader(testing::capturedReport("mlp-train").toStdString());
        QCOMPARE(reader.info().schemaVersion, std::string("1.2"));
        int otherWithLayer = 0;
        const auto blocks = blocksByName(reader, &otherWithLayer);
        QCOMPARE(otherWithLayer, 0);
        // engine/workloads/Training.cpp: ops::matMul, ops::binary, ops::unary.
        const std::map<std::string, std::string> expected = {{"fwd/layer1/matmul", "matMul"},
                                                             {"fwd/layer1/bias", "binary"},
                                                             {"fwd/layer1/relu", "unary"},
                                                             {"fwd/layer2/matmul", "matMul"}};
        for (const auto& [name, function] : expected) {
            QVERIFY2(blocks.contains(name), name.c_str());
            QCOMPARE(blocks.at(name).layer, record::OperationLayer::Library);
            QCOMPARE(blocks.at(name).libraryFunction, function);
        }
        for (const auto& [name, n] : blocks) {
            QCOMPARE(n.layer, record::OperationLayer::Library); // the workload opens none itself
            QVERIFY(!n.libraryFunction.empty());
        }
    }

    void aWorkloadsOwnBlockIsTheApplications() {
        const reports::ReportReader reader(testing::capturedReport("gather-scatter").toStdString());
        const auto blocks = blocksByName(reader);
        QVERIFY(blocks.contains("message-passing/gather"));
        QCOMPARE(blocks.at("message-passing/gather").layer, record::OperationLayer::Application);
        QCOMPARE(blocks.at("message-passing/gather").libraryFunction, std::string());
    }

    void reportsBeforeLayersOpenWithUnknownLayers() {
        const fs::path p = copyOf(testing::capturedReport("mlp-train"), "v1_1");
        testing::sqlExec(p, "PRAGMA user_version = 1001; UPDATE meta SET value = '1.1' WHERE key = "
                            "'schema_version'; DROP TABLE operation_layers;");
        const reports::ReportReader reader(p);
        const auto blocks = blocksByName(reader);
        QVERIFY(!blocks.empty());
        for (const auto& [name, n] : blocks) {
            QCOMPARE(n.layer, record::OperationLayer::Unknown);
        }
        // The pane shows every operation and turns the layer chooser off.
        const auto data = loadReportData(p);
        const auto stats = std::make_shared<const ProgramStats>(computeProgramStats(*data, {}));
        OperationsView view;
        view.setProgram(data, stats);
        QVERIFY(!view.layerBox()->isEnabled());
        QCOMPARE(view.layerBox()->currentText(), QString("Layer: All"));
        QCOMPARE(view.model()->tree().operationCount, static_cast<int>(blocks.size()));
    }

    void aLayerRowOnANonBlockIsDamage() {
        const fs::path p = copyOf(testing::capturedReport("mlp-train"), "bad");
        testing::sqlExec(p,
                         "INSERT INTO operation_layers (node_id, layer_id, function_id) SELECT id, "
                         "(SELECT layer_id FROM operation_layers LIMIT 1), NULL FROM program_nodes "
                         "WHERE parent_id IS NULL LIMIT 1;");
        const reports::ReportReader reader(p);
        QVERIFY_THROWS_EXCEPTION(reports::ReportError, reader.programNodes());
    }
};

QTEST_MAIN(TestOperationLayers)
#include "tst_operation_layers.moc"
