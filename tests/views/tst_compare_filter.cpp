// The compare panes' sortable filter (CompareFilterModel) over a table built
// by hand here: six variables with a baseline, a difference and a change.
// With "changed only" it hides the rows whose Change is "same"; it sorts on
// the raw values (kSortRole), not the text. Every expected order below is
// read off the table by hand, under QAbstractItemModelTester.
#include "ModelRows.h"
#include "views/compare/CompareWidgets.h"
#include "views/compare/models/CompareTableModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <memory>
#include <vector>

using namespace tessera;
using namespace tessera::views;

namespace {

struct Row {
    const char* name;
    qlonglong baseline;
    qlonglong delta;
    const char* change;
};

//   row  variable  baseline  delta  change
//   0    weights   1000         0   same
//   1    out        500      +200   changed
//   2    relu       200       -50   changed
//   3    bias         0       +30   added
//   4    ids          8        -8   removed
//   5    mask        90         0   same
const std::vector<Row> kRows = {{"weights", 1000, 0, "same"},  {"out", 500, 200, "changed"},
                                {"relu", 200, -50, "changed"}, {"bias", 0, 30, "added"},
                                {"ids", 8, -8, "removed"},     {"mask", 90, 0, "same"}};

// The table with or without its Change column; numbers shown as text
// ("+200", "1000") and kept raw under kSortRole.
void fill(CompareTableModel& model, bool withChange) {
    auto rows = std::make_shared<const std::vector<Row>>(kRows);
    const auto* r = rows.get();
    std::vector<CompareColumn> columns = {
        {"Variable", false, [r](std::size_t i) { return QVariant(QString((*r)[i].name)); },
         [r](std::size_t i) { return QString((*r)[i].name); }},
        {"Baseline", true, [r](std::size_t i) { return QVariant((*r)[i].baseline); },
         [r](std::size_t i) { return QString::number((*r)[i].baseline); }},
        {"Δ", true, [r](std::size_t i) { return QVariant((*r)[i].delta); },
         [r](std::size_t i) {
             const qlonglong d = (*r)[i].delta;
             return (d > 0 ? "+" : "") + QString::number(d);
         }}};
    if (withChange) {
        columns.push_back({"Change", false,
                           [r](std::size_t i) { return QVariant(QString((*r)[i].change)); },
                           [r](std::size_t i) { return QString((*r)[i].change); }});
    }
    model.setTable(rows, rows->size(), std::move(columns));
}

} // namespace

class TestCompareFilter : public QObject {
    Q_OBJECT

private slots:
    void filterAndSort_data() {
        QTest::addColumn<bool>("changedOnly");
        QTest::addColumn<int>("column"); // -1: the table's own order
        QTest::addColumn<Qt::SortOrder>("order");
        QTest::addColumn<QStringList>("names");
        const auto asc = Qt::AscendingOrder;
        const auto desc = Qt::DescendingOrder;
        QTest::newRow("all, unsorted")
            << false << -1 << asc << QStringList{"weights", "out", "relu", "bias", "ids", "mask"};
        // weights and mask are "same".
        QTest::newRow("changed only")
            << true << -1 << asc << QStringList{"out", "relu", "bias", "ids"};
        // 1000, 500, 200, 90, 8, 0 (as text "90" and "8" would lead).
        QTest::newRow("baseline descending")
            << false << 1 << desc << QStringList{"weights", "out", "relu", "mask", "ids", "bias"};
        // -50, -8, 0, 0, +30, +200 (ties in table order; as text "+200" would lead).
        QTest::newRow("delta ascending")
            << false << 2 << asc << QStringList{"relu", "ids", "weights", "mask", "bias", "out"};
        QTest::newRow("changed only, delta descending")
            << true << 2 << desc << QStringList{"out", "bias", "ids", "relu"};
        QTest::newRow("changed only, by change")
            << true << 3 << asc << QStringList{"bias", "out", "relu", "ids"};
    }

    void filterAndSort() {
        QFETCH(bool, changedOnly);
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, order);
        QFETCH(QStringList, names);
        CompareTableModel model;
        fill(model, true);
        CompareFilterModel filter;
        QAbstractItemModelTester tester(&filter,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setSourceModel(&model);
        QVERIFY(!filter.changedOnly());
        filter.setChangedOnly(changedOnly);
        QCOMPARE(filter.changedOnly(), changedOnly);
        filter.sort(column, order);
        QCOMPARE(testing::columnTexts(filter, 0), names);
        // Showing every row again brings back the six.
        filter.setChangedOnly(false);
        QCOMPARE(filter.rowCount(), 6);
    }

    // A table without a Change column has nothing to hide.
    void noChangeColumnHidesNothing() {
        CompareTableModel model;
        fill(model, false);
        CompareFilterModel filter;
        QAbstractItemModelTester tester(&filter,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setSourceModel(&model);
        filter.setChangedOnly(true);
        QCOMPARE(testing::columnTexts(filter, 0),
                 (QStringList{"weights", "out", "relu", "bias", "ids", "mask"}));
        // The table's rows refilled with a Change column: filtered at once.
        fill(model, true);
        QCOMPARE(testing::columnTexts(filter, 0), (QStringList{"out", "relu", "bias", "ids"}));
    }
};

QTEST_MAIN(TestCompareFilter)
#include "tst_compare_filter.moc"
