// The Execution pane's steps table (ExecutedStepsModel) on the report of
// ExecutionFixtures.h, written and read back: its run starts at cycle 1,000
// and executes steps 0 1 2 0 1 2 3 0 1 2 3 3 (kOrder), costing
//   step  name                      kind     cycles   sync    exchange  compute
//   0     conv                      Execute  100,000  10,000  20,000    70,000
//   1     act                       Execute   50,000   5,000   5,000    40,000
//   2     copyOut                   Copy      30,000   5,000  25,000         0
//   3     (unnamed: compute set     Execute   60,000  10,000       0    50,000
//          "softmax/exp")
// so execution n starts at the sum of the cycles before it. Rows are
// compared with those literals, under QAbstractItemModelTester.
#include "ExecutionFixtures.h"
#include "ModelRows.h"
#include "views/common/Export.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/ExecutedStepsModel.h"
#include "views/models/ModelRoles.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using testing::rowTexts;

class TestExecutedStepsModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        loaded_ = ReportLoader::loadNow(testing::handBuiltExecutionReport(1));
        QVERIFY2(loaded_.error.isEmpty(), qPrintable(loaded_.error));
    }

    // "sequence | program step | name | kind | start | cycles | sync |
    // exchange | compute", starts from `origin` (never below 0).
    void rows_data() {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("end");
        QTest::addColumn<qulonglong>("origin");
        QTest::addColumn<QStringList>("rows");
        // Executions 0-2 start at 0, 100,000 and 150,000 cycles into the run.
        QTest::newRow("first three")
            << 0 << 3 << qulonglong(1000)
            << QStringList{"0 | 0 | conv | Execute | 0 | 100000 | 10000 | 20000 | 70000",
                           "1 | 1 | act | Execute | 100000 | 50000 | 5000 | 5000 | 40000",
                           "2 | 2 | copyOut | Copy | 150000 | 30000 | 5000 | 25000 | 0"};
        // 4: after 100,000 + 50,000 + 30,000 + 100,000 = 280,000; the unnamed
        // step reads as its compute set.
        QTest::newRow("middle")
            << 4 << 8 << qulonglong(1000)
            << QStringList{"4 | 1 | act | Execute | 280000 | 50000 | 5000 | 5000 | 40000",
                           "5 | 2 | copyOut | Copy | 330000 | 30000 | 5000 | 25000 | 0",
                           "6 | 3 | softmax/exp | Execute | 360000 | 60000 | 10000 | 0 | 50000",
                           "7 | 0 | conv | Execute | 420000 | 100000 | 10000 | 20000 | 70000"};
        // The last two: 600,000 and 600,000 + 60,000 in. From cycle 0 the
        // starts are absolute (1,000 more); from after the first, clamped to 0.
        QTest::newRow("last two")
            << 10 << 12 << qulonglong(1000)
            << QStringList{"10 | 3 | softmax/exp | Execute | 600000 | 60000 | 10000 | 0 | 50000",
                           "11 | 3 | softmax/exp | Execute | 660000 | 60000 | 10000 | 0 | 50000"};
        QTest::newRow("absolute")
            << 0 << 2 << qulonglong(0)
            << QStringList{"0 | 0 | conv | Execute | 1000 | 100000 | 10000 | 20000 | 70000",
                           "1 | 1 | act | Execute | 101000 | 50000 | 5000 | 5000 | 40000"};
        QTest::newRow("origin after the first start")
            << 0 << 2 << qulonglong(101000)
            << QStringList{"0 | 0 | conv | Execute | 0 | 100000 | 10000 | 20000 | 70000",
                           "1 | 1 | act | Execute | 0 | 50000 | 5000 | 5000 | 40000"};
        QTest::newRow("none") << 3 << 3 << qulonglong(1000) << QStringList{};
    }

    void rows() {
        QFETCH(int, first);
        QFETCH(int, end);
        QFETCH(qulonglong, origin);
        QFETCH(QStringList, rows);
        ExecutedStepsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSteps(loaded_.data, loaded_.source->executedSteps(0, first, end), origin);
        QCOMPARE(rowTexts(model), rows);
        // Raw values are the same numbers (the table exports as shown).
        QCOMPARE(rowTexts(model, kSortRole), rows);
        for (int r = 0; r < model.rowCount(); ++r) {
            QCOMPARE(model.index(r, 0).data(kIdRole).toString(),
                     rows[r].section(" | ", 1, 1)); // the program step
        }
    }

    // Without the report's data only the execution's own figures are known.
    void withoutData() {
        ExecutedStepsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSteps(nullptr, loaded_.source->executedSteps(0, 6, 7), 1000);
        QCOMPARE(rowTexts(model), QStringList{"6 | 3 |  |  | 360000 | 60000 |  |  | "});
        model.setSteps(loaded_.data, {}, 0);
        QCOMPARE(model.rowCount(), 0);
    }

    // Headers name the units; names left, numbers right; CSV as shown.
    void headersAndExport() {
        ExecutedStepsModel model;
        model.setSteps(loaded_.data, loaded_.source->executedSteps(0, 2, 3), 1000);
        QCOMPARE(model.columnCount(), 9);
        auto alignment = [&](int column) {
            return model.index(0, column).data(Qt::TextAlignmentRole).value<Qt::Alignment>();
        };
        QCOMPARE(alignment(ExecutedStepsModel::Name), Qt::AlignLeft | Qt::AlignVCenter);
        QCOMPARE(alignment(ExecutedStepsModel::Cycles), Qt::AlignRight | Qt::AlignVCenter);
        QCOMPARE(toCsv(&model), QString("sequence,program step,name,kind,start cycle (cycles),"
                                        "cycles (cycles),sync cycles (cycles),"
                                        "exchange cycles (cycles),compute cycles (cycles)\n"
                                        "2,2,copyOut,Copy,150000,30000,5000,25000,0\n"));
    }

private:
    LoadedReport loaded_;
};

QTEST_MAIN(TestExecutedStepsModel)
#include "tst_executed_steps_model.moc"
