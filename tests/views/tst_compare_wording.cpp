// Small wording defects of issue 15 (defect 11): the compare note about tile
// counts is a complete sentence; an added step is not the "Largest
// regression" (that is the largest growth of a step on both sides, found
// here from the diff's rows); the liveness step comparison never says
// "−0 (0 B) became dead".
#include "CompareFixtures.h"
#include "views/common/Selection.h"
#include "views/compare/CompareSummaryPane.h"
#include "views/panes/liveness/LivenessTables.h"

#include <QLabel>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::testing;

class TestCompareWording : public QObject {
    Q_OBJECT

private slots:
    void tileCountNoteIsASentence() {
        const auto data = loadPair(targetsPair()); // mk1 and mk2: different tile counts
        QVERIFY(!data->diff.tilesComparable);
        bool found = false;
        for (const std::string& note : data->diff.notes) {
            if (note.find("per-tile memory is not compared") != std::string::npos) {
                found = true;
                QVERIFY2(note.ends_with("compared as usual"), note.c_str());
            }
        }
        QVERIFY(found);
    }

    void anAddedStepIsNoRegression() {
        const auto data = loadPair(insertedStepPair());
        const reports::StepDelta* expected = nullptr;
        bool added = false;
        for (const reports::StepDelta& s : data->diff.steps) {
            added = added || s.change == reports::Change::Added;
            if (s.change == reports::Change::Changed && s.cycles.delta() > 0 &&
                (!expected || s.cycles.delta() > expected->cycles.delta())) {
                expected = &s;
            }
        }
        QVERIFY(added);
        Selection selection;
        CompareSummaryPane pane;
        pane.setSelection(&selection);
        pane.setComparison(data);
        pane.resize(1200, 800);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const auto* label = pane.findChild<QLabel*>(QStringLiteral("largestRegression"));
        if (expected == nullptr) {
            QVERIFY(label == nullptr || !label->isVisible());
        } else {
            QVERIFY(label != nullptr);
            QVERIFY2(label->text().startsWith(QString::fromStdString(expected->name) + ":"),
                     qPrintable(label->text()));
        }
        for (const reports::StepDelta& s : data->diff.steps) {
            if (s.change == reports::Change::Added && label != nullptr && label->isVisible()) {
                QVERIFY(!label->text().startsWith(QString::fromStdString(s.name) + ":"));
            }
        }
    }

    void liveChangesLeaveOutEmptySides() {
        const QString onlyBorn = liveChangeText(2, 2048, 0, 0, 1000, 3048);
        QVERIFY(onlyBorn.contains("2 variables"));
        QVERIFY(onlyBorn.contains("became live"));
        QVERIFY(!onlyBorn.contains("became dead"));
        QVERIFY(onlyBorn.endsWith("net +2.0 KiB"));
        const QString onlyDied = liveChangeText(0, 0, 1, 512, 1000, 488);
        QVERIFY(!onlyDied.contains("became live"));
        QVERIFY(onlyDied.contains("1 variable "));
        QVERIFY(onlyDied.endsWith("net −512 B"));
        const QString none = liveChangeText(0, 0, 0, 0, 700, 700);
        QVERIFY(!none.contains("−0") && !none.contains("+0"));
        QVERIFY(none.endsWith("net 0 B"));
    }
};

QTEST_MAIN(TestCompareWording)
#include "tst_compare_wording.moc"
