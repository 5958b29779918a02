// The Memory pane's Variables table (VariablesModel, VariablesFilterModel)
// on the seven variables of VariablesFixture.h's variedVariablesReport():
// every row, sort order, filter result and colour below is written out by
// hand from that table, under QAbstractItemModelTester.
#include "ModelRows.h"
#include "VariablesFixture.h"
#include "views/common/Export.h"
#include "views/models/ModelRoles.h"
#include "views/models/VariablesModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using testing::columnTexts;
using testing::rowTexts;

class TestVariablesModel : public QObject {
    Q_OBJECT

private slots:
    // Report order; "Name | Type | Shape | Elements | Bytes | Tiles | Kind |
    // Live range". Elements are bytes / 4 for floats, the shape's product
    // otherwise; a range of one step reads "step N", always-live and
    // constants "always".
    void rowsAsShown() {
        VariablesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setReport(testing::variedVariablesReport());
        QCOMPARE(model.columnCount(), 8);
        QCOMPARE(
            rowTexts(model),
            (QStringList{
                "layer1/matmul/weights | float | [250] | 250 | 1000 B | 4 | always-live | always",
                "layer1/matmul/out | float | [125] | 125 | 500 B | 2 | not-always-live | "
                "steps 1–3",
                "layer1/relu/out | half | [10, 10] | 100 | 200 B | 1 | not-always-live | step 2",
                "m4/Conv_1/worklists/a | char | [30] | 30 | 30 B | 1 | exchange buffer | "
                "steps 0–1",
                "m4/Conv_1/worklists/b | float | [5] | 5 | 20 B | 1 | not-always-live | "
                "steps 0–3",
                "controlId | int | [2] | 2 | 8 B | 1 | constant | always",
                "layer2/out | float | [125] | 125 | 500 B | 3 | not-always-live | step 3",
            }));
        // Raw values: numbers as numbers; the shape sorts by rank, then
        // elements (rank x 10^9 + elements); the kind by VariableKind
        // (always-live 0, not-always-live 1, constant 2, exchange buffer 3);
        // the live range by its first step, -1 for always.
        QCOMPARE(rowTexts(model, kSortRole).at(2),
                 QString("layer1/relu/out | half | 2000000100 | 100 | 200 | 1 | 1 | 2"));
        QCOMPARE(rowTexts(model, kSortRole).at(5),
                 QString("controlId | int | 1000000002 | 2 | 8 | 1 | 2 | -1"));
        QCOMPARE(columnTexts(model, VariablesModel::Kind, kSortRole),
                 (QStringList{"0", "1", "1", "3", "1", "2", "1"}));
        // The kind's swatch: always-live red, not-always-live orange (an
        // exchange buffer too), constants olive (categoryColor).
        QCOMPARE(columnTexts(model, VariablesModel::Kind, Qt::DecorationRole),
                 (QStringList{"#d62728", "#ff7f0e", "#ff7f0e", "#ff7f0e", "#ff7f0e", "#bcbd22",
                              "#ff7f0e"}));
        QVERIFY(!model.index(0, VariablesModel::Name).data(Qt::DecorationRole).isValid());
        QCOMPARE(columnTexts(model, 0, kIdRole), (QStringList{"0", "1", "2", "3", "4", "5", "6"}));
        QCOMPARE(model.rowOfVariable(record::VariableId{6u}), 6);
        QCOMPARE(model.rowOfVariable(record::VariableId{42u}), -1);
        QCOMPARE(model.variableAt(3)->name, std::string("m4/Conv_1/worklists/a"));
        QCOMPARE(model.headerData(VariablesModel::Bytes, Qt::Horizontal, kUnitRole).toString(),
                 QString("bytes"));
        // CSV export writes numbers raw under a header naming the unit.
        const QStringList csv = toCsv(&model).split('\n');
        QCOMPARE(csv[0], QString("Name,Type,Shape,Elements,Bytes (bytes),Tiles,Kind,Live range"));
        QCOMPARE(csv[1],
                 QString("layer1/matmul/weights,float,[250],250,1000,4,always-live,always"));
        model.setReport(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // VariablesFilterModel: sorted on the raw values, filtered by name (any
    // case, trimmed) and kind. Expected: the variables' short names in the
    // order shown. Ties keep report order (the proxy's sort is stable).
    void sortAndFilter_data() {
        QTest::addColumn<int>("column"); // -1: unsorted
        QTest::addColumn<Qt::SortOrder>("order");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("kind"); // -1: all
        QTest::addColumn<QStringList>("expected");
        const auto asc = Qt::AscendingOrder;
        const auto desc = Qt::DescendingOrder;
        // 8, 20, 30, 200, 500, 500, 1000 bytes (as text "1000 B" would lead).
        QTest::newRow("bytes ascending")
            << int(VariablesModel::Bytes) << asc << QString() << -1
            << QStringList{"controlId", "b", "a", "relu/out", "matmul/out", "layer2", "weights"};
        QTest::newRow("bytes descending")
            << int(VariablesModel::Bytes) << desc << QString() << -1
            << QStringList{"weights", "matmul/out", "layer2", "relu/out", "a", "b", "controlId"};
        // Tiles 4, 3, 2, then the four on one tile in report order.
        QTest::newRow("tiles descending")
            << int(VariablesModel::Tiles) << desc << QString() << -1
            << QStringList{"weights", "layer2", "matmul/out", "relu/out", "a", "b", "controlId"};
        // Always (-1, -1), first steps 0, 0, 1, 2, 3.
        QTest::newRow("live range ascending")
            << int(VariablesModel::LiveRange) << asc << QString() << -1
            << QStringList{"weights", "controlId", "a", "b", "matmul/out", "relu/out", "layer2"};
        // Kind order 0, 1 (four), 2, 3; by name it would be always-live,
        // constant, exchange buffer, not-always-live.
        QTest::newRow("kind ascending")
            << int(VariablesModel::Kind) << asc << QString() << -1
            << QStringList{"weights", "matmul/out", "relu/out", "b", "layer2", "controlId", "a"};
        // Rank 1 by elements 2, 5, 30, 125, 125, 250; then the rank-2 relu/out.
        QTest::newRow("shape ascending")
            << int(VariablesModel::Shape) << asc << QString() << -1
            << QStringList{"controlId", "b", "a", "matmul/out", "layer2", "weights", "relu/out"};
        QTest::newRow("name ascending")
            << int(VariablesModel::Name) << asc << QString() << -1
            << QStringList{"controlId", "matmul/out", "weights", "relu/out", "layer2", "a", "b"};
        QTest::newRow("name filter")
            << -1 << asc << QString("OUT") << -1 << QStringList{"matmul/out", "relu/out", "layer2"};
        QTest::newRow("name filter trimmed")
            << -1 << asc << QString(" conv_1 ") << -1 << QStringList{"a", "b"};
        QTest::newRow("no such name") << -1 << asc << QString("nothing") << -1 << QStringList{};
        // Constants are always live too, but of their own kind.
        QTest::newRow("always-live")
            << -1 << asc << QString() << int(VariableKind::AlwaysLive) << QStringList{"weights"};
        QTest::newRow("not-always-live")
            << -1 << asc << QString() << int(VariableKind::NotAlwaysLive)
            << QStringList{"matmul/out", "relu/out", "b", "layer2"};
        QTest::newRow("constants")
            << -1 << asc << QString() << int(VariableKind::Constant) << QStringList{"controlId"};
        QTest::newRow("exchange buffers")
            << -1 << asc << QString() << int(VariableKind::ExchangeBuffer) << QStringList{"a"};
        QTest::newRow("name and kind, sorted")
            << int(VariablesModel::Bytes) << asc << QString("layer1")
            << int(VariableKind::NotAlwaysLive) << QStringList{"relu/out", "matmul/out"};
    }

    void sortAndFilter() {
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, order);
        QFETCH(QString, name);
        QFETCH(int, kind);
        QFETCH(QStringList, expected);
        // Short names: the last part, or two where the last is ambiguous.
        const QMap<QString, QString> shortName = {{"layer1/matmul/weights", "weights"},
                                                  {"layer1/matmul/out", "matmul/out"},
                                                  {"layer1/relu/out", "relu/out"},
                                                  {"m4/Conv_1/worklists/a", "a"},
                                                  {"m4/Conv_1/worklists/b", "b"},
                                                  {"controlId", "controlId"},
                                                  {"layer2/out", "layer2"}};
        VariablesModel model;
        model.setReport(testing::variedVariablesReport());
        VariablesFilterModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setNameFilter(name);
        proxy.setKindFilter(kind);
        proxy.sort(column, order);
        QStringList shown;
        for (const QString& full : columnTexts(proxy, VariablesModel::Name)) {
            shown << shortName.value(full, full);
        }
        QCOMPARE(shown, expected);
        // Clearing both filters shows all seven again.
        proxy.setNameFilter(QString());
        proxy.setKindFilter(-1);
        QCOMPARE(proxy.rowCount(), 7);
    }
};

QTEST_MAIN(TestVariablesModel)
#include "tst_variables_model.moc"
