// The Operations tab drawn offscreen: on the hand-built report of
// OperationsFixture.h, the layer chooser, the tree's row texts (checked as
// drawn: each row's text has pixels in its rectangle), the totals the Summary
// tab shows with nothing selected, and an operation's Program steps, Code,
// Cycles, FLOPs and Debug tabs with their literal values; a step double-clicked
// there is announced. On a captured report, inside the Program pane.
#include "OperationsFixture.h"
#include "ReportFixtures.h"
#include "views/common/ColumnChooser.h"
#include "views/data/ReportLoader.h"
#include "views/models/OperationsModel.h"
#include "views/panes/ProgramPane.h"
#include "views/panes/program/OperationDetails.h"
#include "views/panes/program/OperationsView.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableWidget>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;

namespace {

QString plain(const QLabel* label) {
    QTextDocument doc;
    doc.setHtml(label->text());
    return doc.toPlainText().simplified();
}

QStringList column(const QTableWidget* table, int c) {
    QStringList out;
    for (int r = 0; r < table->rowCount(); ++r) {
        out << table->item(r, c)->text();
    }
    return out;
}

QStringList tabTexts(const QTabWidget* tabs) {
    QStringList out;
    for (int i = 0; i < tabs->count(); ++i) {
        out << tabs->tabText(i);
    }
    return out;
}

// The proxy index whose Name is `name` under `parent`.
QModelIndex child(const QAbstractItemModel* m, const QModelIndex& parent, const QString& name) {
    for (int r = 0; r < m->rowCount(parent); ++r) {
        if (m->index(r, 0, parent).data().toString() == name) {
            return m->index(r, 0, parent);
        }
    }
    return {};
}

// Text pixels: some pixel in `rect` of the grab differs from its first pixel.
bool drawsSomething(const QImage& image, const QRect& rect) {
    const QColor first = image.pixelColor(rect.topLeft());
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        for (int x = rect.left(); x <= rect.right(); ++x) {
            if (image.pixelColor(x, y) != first) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

class TestOperationsPane : public QObject {
    Q_OBJECT

private slots:
    void drawsTheTreeAndTheDetailsTabs() {
        const auto data = testing::operationsReport();
        OperationsView view;
        view.resize(1300, 800);
        view.setProgram(data, testing::operationsStats(*data));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        QCOMPARE(view.layerBox()->currentText(), QString("Layer: All"));
        QVERIFY(view.layerBox()->isEnabled());
        QCOMPARE(view.filter()->placeholderText(), QString("Filter operations"));
        QCOMPARE(tabTexts(view.details()),
                 QStringList({"Summary", "Program steps", "Code", "Cycles", "FLOPs", "Debug"}));
        QVERIFY(!view.details()->isTabEnabled(OperationDetails::FlopsTab));
        QCOMPARE(plain(view.details()->summary()),
                 QString("Click on an operation above to display its details. Total operations 4 "
                         "Total code size 850 B Total cycles 765"));
        QCOMPARE(view.summary()->text(), QString("4 operations · 765 cycles · 850 B code"));

        // Rows as drawn: sorted by cycles, "fwd" (525) above "bwd" (240).
        const QAbstractItemModel* m = view.view()->model();
        QCOMPARE(m->index(0, 0).data().toString(), QString("fwd"));
        QCOMPARE(m->index(1, 0).data().toString(), QString("bwd"));
        const QModelIndex layer1 = child(m, m->index(0, 0), "layer1");
        const QModelIndex matMul = child(m, layer1, "matMul");
        QVERIFY(matMul.isValid());
        QCOMPARE(matMul.siblingAtColumn(OperationsModel::DebugName).data().toString(),
                 QString("fwd/layer1/matmul"));
        QCOMPARE(matMul.siblingAtColumn(OperationsModel::Cycles).data().toString(), QString("390"));
        QCOMPARE(matMul.siblingAtColumn(OperationsModel::CodeSize).data().toString(),
                 QString("600 B"));
        const QImage grab = view.view()->viewport()->grab().toImage();
        const qreal dpr = grab.devicePixelRatio();
        for (const QModelIndex& index : {m->index(0, 0), m->index(1, 0), layer1, matMul,
                                         matMul.siblingAtColumn(OperationsModel::Cycles)}) {
            const QRect rect = view.view()->visualRect(index);
            QVERIFY(!rect.isEmpty());
            QVERIFY(drawsSomething(
                grab, QRect(rect.topLeft() * dpr, rect.size() * dpr).adjusted(2, 2, -2, -2)));
        }
        const QStringList headers = [&] {
            QStringList h;
            for (int c = 0; c < 6; ++c) {
                h << m->headerData(c, Qt::Horizontal).toString();
            }
            return h;
        }();
        QCOMPARE(headers, QStringList({"Operation", "Debug name", "Layer", "Code size", "Cycles",
                                       "% cycles"}));

        // Select bwd/matmul: its tabs.
        const QModelIndex bwdMatMul = child(m, m->index(1, 0), "matMul");
        view.view()->setCurrentIndex(bwdMatMul);
        OperationDetails* d = view.details();
        QVERIFY(d->isTabEnabled(OperationDetails::CodeTab));
        QCOMPARE(
            plain(d->summary()),
            QString("Operation bwd/matmul Code size 650 B Cycles 240 FLOPs 2,000 Memory (peak) "
                    "1.0 KiB Vertices 4 Program steps 1"));
        QCOMPARE(column(d->steps(), 0), QStringList({"bwd/matmul/products"}));
        QCOMPARE(column(d->steps(), 3), QStringList({"240"}));
        QCOMPARE(column(d->code(), 0), QStringList({"MatMulPartial", "ReduceAdd"}));
        QCOMPARE(column(d->code(), 2), QStringList({"2", "1"}));
        QCOMPARE(column(d->code(), 3), QStringList({"600 B", "50 B"}));
        QCOMPARE(column(d->code(), 4), QStringList({"3", "1"}));
        QCOMPARE(column(d->cycles(), 3), QStringList({"200"})); // compute
        QCOMPARE(column(d->cycles(), 4), QStringList({"30"}));  // exchange
        QCOMPARE(column(d->cycles(), 5), QStringList({"10"}));  // sync
        // FLOPs: the step and the Total row, drawn in full on the tab.
        QVERIFY(d->isTabEnabled(OperationDetails::FlopsTab));
        d->setCurrentIndex(OperationDetails::FlopsTab);
        QCoreApplication::processEvents();
        const QAbstractItemModel* flops = d->flops()->model();
        QCOMPARE(flops->rowCount(), 2);
        QStringList shown;
        const QImage flopsGrab = d->flops()->viewport()->grab().toImage();
        for (int r = 0; r < flops->rowCount(); ++r) {
            for (int c = 0; c < flops->columnCount(); ++c) {
                const QModelIndex cell = flops->index(r, c);
                shown << cell.data().toString();
                if (cell.data().toString().isEmpty()) {
                    continue;
                }
                const QRect rect = d->flops()->visualRect(cell);
                QVERIFY(drawsSomething(
                    flopsGrab,
                    QRect(rect.topLeft() * dpr, rect.size() * dpr).adjusted(2, 2, -2, -2)));
                // Not elided: the column is as wide as its text.
                QVERIFY2(rect.width() >=
                             d->flops()->fontMetrics().horizontalAdvance(cell.data().toString()),
                         qPrintable(cell.data().toString()));
            }
        }
        QCOMPARE(shown, QStringList({"bwd/matmul/products", "2,000", "1", "2,000", "240", "8.33",
                                     "Total", "", "1", "2,000", "240", "8.33"}));
        QSignalSpy flopsSteps(d, &OperationDetails::stepActivated);
        emit d->flops()->doubleClicked(flops->index(0, 1));
        emit d->flops()->doubleClicked(flops->index(1, 1)); // the Total row: no step
        QCOMPARE(flopsSteps.size(), 1);
        QCOMPARE(flopsSteps.at(0).at(0).value<record::StepId>(), record::StepId{2u});
        QVERIFY(d->grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("operations_flops.png")));

        const QString debug = plain(d->debug());
        QVERIFY2(debug.contains("Layer PopLibs") && debug.contains("Library function matMul") &&
                     debug.contains("Path bwd → matmul"),
                 qPrintable(debug));

        // A group: its totals, each step once.
        view.view()->setCurrentIndex(layer1);
        QCOMPARE(column(d->steps(), 0),
                 QStringList({"fwd/layer1/matmul/products", "fwd/layer1/add/add"}));
        QCOMPARE(column(d->code(), 3), QStringList({"600 B", "200 B"}));

        // Double-click a step: it is announced by id.
        view.view()->setCurrentIndex(bwdMatMul);
        QSignalSpy steps(&view, &OperationsView::stepActivated);
        d->setCurrentIndex(OperationDetails::StepsTab);
        emit d->steps()->cellDoubleClicked(0, 0);
        QCOMPARE(steps.size(), 1);
        QCOMPARE(steps.at(0).at(0).value<record::StepId>(), record::StepId{2u});

        // The Application layer: one operation.
        view.layerBox()->setCurrentIndex(2);
        QCOMPARE(view.layerBox()->currentText(), QString("Layer: Application"));
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(view.summary()->text(), QString("1 operation · 525 cycles · 800 B code"));
        QDir out(TESSERA_TEST_OUTPUT_DIR);
        QVERIFY(view.grab().save(out.filePath("operations_hand_built.png")));
    }

    void insideTheProgramPane() {
        const LoadedReport loaded = ReportLoader::loadNow(testing::namedReport("mlp-train"));
        ProgramPane pane;
        pane.resize(1400, 900);
        pane.setReport(loaded.data, loaded.source);
        QVERIFY(QTest::qWaitFor([&] { return pane.isReady(); }, 30000)); // figures on a worker
        pane.tabs()->setCurrentIndex(ProgramPane::OperationsTab);
        QCOMPARE(pane.tabs()->tabText(ProgramPane::OperationsTab), QString("Operations"));
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        int library = 0;
        for (const auto& n : loaded.data->programNodes) {
            library += n.layer == record::OperationLayer::Library ? 1 : 0;
        }
        pane.operations()->layerBox()->setCurrentIndex(1);
        QCOMPARE(pane.operations()->layerBox()->currentText(), QString("Layer: PopLibs"));
        QCOMPARE(pane.operationsModel()->tree().operationCount, library);
        // "fwd" heads the forward pass's groups; its rows are drawn expanded.
        const QModelIndex fwd = child(pane.operationsProxy(), {}, "fwd");
        QVERIFY(fwd.isValid());
        QVERIFY(pane.operationsView()->isExpanded(fwd));
        QVERIFY(
            child(pane.operationsProxy(), child(pane.operationsProxy(), fwd, "layer1"), "matMul")
                .isValid());
        // Selecting an operation fills the Operations tab's own details; the pane's
        // strip under the tabs (for the tree and the graph) is not shown beside them.
        pane.operationsView()->setCurrentIndex(fwd);
        QVERIFY(pane.operations()->details()->summary()->text().contains("fwd"));
        QVERIFY(!pane.detailsPanel()->isVisible());
        const int operationsBottom =
            pane.operations()->mapTo(&pane, QPoint(0, pane.operations()->height())).y();
        QVERIFY(operationsBottom >= pane.height() - 12); // the tab reaches the pane's foot
        pane.tabs()->setCurrentIndex(ProgramPane::TreeTab);
        QVERIFY(pane.detailsPanel()->isVisible());
        pane.tabs()->setCurrentIndex(ProgramPane::OperationsTab);
        // Columns: the chooser lists the header's columns; unchecking FLOPs hides it.
        ColumnChooser* chooser = pane.operations()->columnChooser();
        QVERIFY(chooser->button()->isVisible());
        { // the centred text clear of the menu arrow in the bottom right corner
            QToolButton* button = chooser->button();
            const int arrow =
                button->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, button);
            const int text = button->fontMetrics().horizontalAdvance(button->text());
            QVERIFY2((button->width() - text) / 2 >= arrow,
                     qPrintable(QString("button %1 px, text %2 px, arrow %3 px")
                                    .arg(button->width())
                                    .arg(text)
                                    .arg(arrow)));
        }
        emit chooser->menu()->aboutToShow();
        const QList<QAction*> actions = chooser->menu()->actions();
        QCOMPARE(actions.size(), OperationsModel::ColumnCount);
        QCOMPARE(actions.at(OperationsModel::Flops)->text(), QString("FLOPs"));
        QVERIFY(!actions.at(0)->isEnabled()); // the names stay
        QHeaderView* header = pane.operationsView()->header();
        QVERIFY(!header->isSectionHidden(OperationsModel::Flops));
        actions.at(OperationsModel::Flops)->trigger();
        QVERIFY(header->isSectionHidden(OperationsModel::Flops));
        emit chooser->menu()->aboutToShow(); // refilled: the state is shown
        QVERIFY(!chooser->menu()->actions().at(OperationsModel::Flops)->isChecked());
        chooser->menu()->actions().at(OperationsModel::Flops)->trigger();
        QVERIFY(!header->isSectionHidden(OperationsModel::Flops));
        QVERIFY(header->sectionSize(OperationsModel::Flops) > 20);
        QCOMPARE(header->contextMenuPolicy(), Qt::CustomContextMenu);
        QDir out(TESSERA_TEST_OUTPUT_DIR);
        QVERIFY(pane.grab().save(out.filePath("operations_mlp_train.png")));
    }
};

QTEST_MAIN(TestOperationsPane)
#include "tst_operations_pane.moc"
