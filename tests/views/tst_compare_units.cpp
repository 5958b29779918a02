// The compare totals table says each figure's unit in a "Unit" column of its
// own (the rows mix cycles, bytes, nanoseconds and counts), in the model, in
// its CSV export and on screen in the Compare Summary pane.
#include "CompareFixtures.h"
#include "views/common/Export.h"
#include "views/compare/CompareSummaryPane.h"
#include "views/compare/models/CompareTables.h"

#include <QHeaderView>
#include <QTableView>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::testing;

class TestCompareUnits : public QObject {
    Q_OBJECT

private slots:
    void totalsNameTheirUnits() {
        const auto data = loadPair(sizesPair());
        CompareTableModel model;
        fillTotals(model, data);
        const int unit = model.columnOf("Unit");
        QVERIFY(unit >= 0);
        QCOMPARE(unit, model.columnCount() - 1);
        // The units of the figures reports::compare lists (reports/Compare.cpp).
        const std::map<QString, QString> expected = {{"cycles", "cycles"},
                                                     {"compute", "cycles"},
                                                     {"exchange", "cycles"},
                                                     {"sync", "cycles"},
                                                     {"memory", "bytes"},
                                                     {"peak-tile-memory", "bytes"},
                                                     {"tiles-over-capacity", "count"}};
        for (const auto& [key, u] : expected) {
            const QList<int> rows = rowsWith(model, "Figure", key);
            QCOMPARE(rows.size(), 1);
            QCOMPARE(model.index(rows.front(), unit).data().toString(), u);
        }
        // The numbers' columns name no unit in the CSV header: the Unit column does.
        const QString header = toCsv(&model).section('\n', 0, 0);
        QVERIFY2(header.startsWith("Figure,Baseline,Comparison,Δ,Δ% (%),Unit"), qPrintable(header));
    }

    void summaryPaneShowsTheUnitColumn() {
        CompareSummaryPane pane;
        pane.resize(1400, 900);
        pane.setComparison(loadPair(sizesPair()));
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTableView* view = pane.totalsView();
        const int unit = view->model()->columnCount() - 1;
        QCOMPARE(view->model()->headerData(unit, Qt::Horizontal).toString(), QString("Unit"));
        QVERIFY(!view->isColumnHidden(unit));
        QVERIFY(view->columnWidth(unit) >= view->fontMetrics().horizontalAdvance("cycles"));
        // Within the view's width: visible, not scrolled off to the right.
        QVERIFY(view->columnViewportPosition(unit) + view->columnWidth(unit) <=
                view->viewport()->width());
    }
};

QTEST_MAIN(TestCompareUnits)
#include "tst_compare_units.moc"
