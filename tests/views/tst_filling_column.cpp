// FillingColumn's two policies on a small tree built here, at several widths:
// TakeTheRest (the names take what the fitted figures leave, never below
// their fitted width) and GiveWay (the values are never cut; the labels take
// what is left, never wider than their text nor narrower than 120 px). The
// references are the texts' own widths (font metrics) and the viewport's.
#include "HeaderFixtures.h"
#include "views/common/FillingColumn.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTreeView>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;

namespace {

const QString kLabel = "Not-always-live variables of the selected tiles";
const QStringList kValues = {"1,234,567 B", "98,765,432 B"};

QStandardItemModel* makeModel(QObject* parent) {
    auto* model = new QStandardItemModel(0, 3, parent);
    model->setHorizontalHeaderLabels({"Name", "Tile 0", "Tile 1"});
    model->appendRow(
        {new QStandardItem(kLabel), new QStandardItem(kValues[0]), new QStandardItem(kValues[1])});
    model->appendRow(
        {new QStandardItem("Short"), new QStandardItem("1 B"), new QStandardItem("2 B")});
    return model;
}

void resizeViewport(QTreeView& tree, int width) {
    tree.resize(width + (tree.width() - tree.viewport()->width()), 300);
    QCoreApplication::processEvents();
    QCOMPARE(tree.viewport()->width(), width);
}

} // namespace

class TestFillingColumn : public QObject {
    Q_OBJECT

private slots:
    void namesTakeTheRest() {
        QTreeView tree;
        tree.setModel(makeModel(&tree));
        tree.header()->setStretchLastSection(false);
        tree.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tree));
        for (int c = 0; c < 3; ++c) {
            tree.resizeColumnToContents(c);
        }
        const int fitted = tree.columnWidth(0);
        QVERIFY(fitted >= tree.fontMetrics().horizontalAdvance(kLabel));
        FillingColumn::install(&tree, tree.header(), 0);

        const int values = tree.columnWidth(1) + tree.columnWidth(2);
        resizeViewport(tree, fitted + values + 300); // room to spare: the names take it
        QCOMPARE(tree.columnWidth(0), fitted + 300);
        QCOMPARE(testing::rightEdgeOfColumns(*tree.header()), tree.viewport()->width());
        resizeViewport(tree, fitted + values - 100); // too narrow: never below fitted
        QCOMPARE(tree.columnWidth(0), fitted);
    }

    void valuesAreNeverCut() {
        QTreeView tree;
        tree.setModel(makeModel(&tree));
        tree.header()->setStretchLastSection(true); // as the Memory pane's Details
        tree.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tree));
        FillingColumn::install(&tree, tree.header(), 0, FillingColumn::Policy::GiveWay);
        const QFontMetrics fm = tree.fontMetrics();
        const int label = fm.horizontalAdvance(kLabel);
        const auto valuesShownWhole = [&] {
            for (int c = 1; c < 3; ++c) {
                QVERIFY2(tree.columnWidth(c) > fm.horizontalAdvance(kValues[c - 1]),
                         qPrintable(QString("column %1: %2 px").arg(c).arg(tree.columnWidth(c))));
            }
            QVERIFY(testing::rightEdgeOfColumns(*tree.header()) <= tree.viewport()->width());
        };

        // Wide: the label whole, not wider than its text needs (the last
        // column stretches into the rest).
        resizeViewport(tree, label + 600);
        valuesShownWhole();
        QVERIFY(tree.columnWidth(0) >= label);
        QVERIFY(tree.columnWidth(0) < label + 60);

        // Narrower than the label: the values keep their width, the label
        // takes what they leave.
        const int values = 2 * fm.horizontalAdvance(kValues[1]);
        resizeViewport(tree, label / 2 + values + 40);
        valuesShownWhole();
        QVERIFY(tree.columnWidth(0) < label);
        QCOMPARE(tree.columnWidth(0) + tree.columnWidth(1) + tree.columnWidth(2),
                 tree.viewport()->width());

        // Very narrow: the label keeps 120 px; the tree scrolls sideways.
        resizeViewport(tree, 150);
        QCOMPARE(tree.columnWidth(0), 120);
    }
};

QTEST_MAIN(TestFillingColumn)
#include "tst_filling_column.moc"
