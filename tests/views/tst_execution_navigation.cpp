// The Execution pane's search, keyboard navigation and IPU chooser on a
// report written by hand (ExecutionFixtures.h), so every expectation is a
// literal: which executed steps match a name, where the keys move the
// visible range, which tiles the rows show for an IPU, and which pixels a
// search leaves lit or dims.
#include "ExecutionFixtures.h"
#include "ReportFixtures.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/execution/FlameWidget.h"
#include "views/panes/execution/PaneStyle.h"
#include "views/panes/execution/StepDetailsPanel.h"
#include "views/panes/execution/StepSearch.h"
#include "views/panes/execution/SummaryStrip.h"
#include "views/panes/execution/TimeRuler.h"
#include "views/panes/execution/TimelineRenderer.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QtTest>

#include <memory>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::views::execution;
using testing::handStartCycle;
using testing::kOrder;
using testing::kStepCycles;

namespace {

struct Opened {
    LoadedReport report;
    std::unique_ptr<Selection> selection;
    std::unique_ptr<ExecutionPane> pane;
};

std::unique_ptr<Opened> open(std::uint32_t ipus) {
    auto o = std::make_unique<Opened>();
    o->report = ReportLoader::loadNow(testing::handBuiltExecutionReport(ipus));
    if (!o->report.error.isEmpty()) {
        qWarning() << o->report.error;
        return nullptr;
    }
    o->selection = std::make_unique<Selection>();
    o->pane = std::make_unique<ExecutionPane>();
    o->pane->resize(1400, 900);
    o->pane->setSelection(o->selection.get());
    o->pane->setReport(o->report.data, o->report.source);
    o->pane->show();
    return o;
}

bool settle(ExecutionPane* pane) {
    if (!QTest::qWaitForWindowExposed(pane)) {
        return false;
    }
    return QTest::qWaitFor([&] { return pane->isReady(); }, 30000);
}

std::vector<std::uint64_t> sequences(const StepMatches& m) {
    std::vector<std::uint64_t> s;
    for (const auto& e : m.found) {
        s.push_back(e.sequence);
    }
    return s;
}

// `c` blended towards `base` as a fill of `base` at alpha a/255 does.
QColor blended(const QColor& c, const QColor& base, int alpha) {
    auto mix = [alpha](int x, int y) { return (x * (255 - alpha) + y * alpha) / 255; };
    return QColor(mix(c.red(), base.red()), mix(c.green(), base.green()),
                  mix(c.blue(), base.blue()));
}

} // namespace

class TestExecutionNavigation : public QObject {
    Q_OBJECT

private slots:
    void searchFindsTheSteps_data();
    void searchFindsTheSteps();
    void enterJumpsBetweenMatches();
    void keysZoomAndPan();
    void keysZoomAboutThePointer();
    void searchFieldKeepsItsKeys();
    void ipuChooserRows();
    void singleIpuHasNoChooser();
    void searchLightsMatchesAndDimsTheRest();
};

void TestExecutionNavigation::searchFindsTheSteps_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<bool>>("steps");
    QTest::addColumn<std::vector<std::uint64_t>>("expected");
    // kOrder = 0 1 2 0 1 2 3 0 1 2 3 3 (conv, act, copyOut, softmax/exp).
    QTest::newRow("step name") << "conv" << std::vector<bool>{true, false, false, false}
                               << std::vector<std::uint64_t>{0, 3, 7};
    QTest::newRow("operation, any case") << "ENCODER" << std::vector<bool>{true, true, false, false}
                                         << std::vector<std::uint64_t>{0, 1, 3, 4, 7, 8};
    QTest::newRow("compute set of an unnamed step")
        << "softmax" << std::vector<bool>{false, false, false, true}
        << std::vector<std::uint64_t>{6, 10, 11};
    QTest::newRow("compute set") << "relu" << std::vector<bool>{false, true, false, false}
                                 << std::vector<std::uint64_t>{1, 4, 8};
    QTest::newRow("copy") << "Copy" << std::vector<bool>{false, false, true, false}
                          << std::vector<std::uint64_t>{2, 5, 9};
    QTest::newRow("nothing") << "nothing" << std::vector<bool>{false, false, false, false}
                             << std::vector<std::uint64_t>{};
}

void TestExecutionNavigation::searchFindsTheSteps() {
    QFETCH(QString, text);
    QFETCH(std::vector<bool>, steps);
    QFETCH(std::vector<std::uint64_t>, expected);
    auto o = open(2);
    QVERIFY(o);
    QCOMPARE(matchingSteps(*o->report.data, text), steps);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    pane->setSearchText(text);
    QTRY_VERIFY(!pane->isSearching());
    const StepMatches* m = pane->searchMatches();
    QVERIFY(m);
    QCOMPARE(m->text, text);
    QCOMPARE(sequences(*m), expected);
    QCOMPARE(m->total, expected.size());
    for (const auto& e : m->found) {
        QCOMPARE(e.programStep, record::StepId{kOrder[e.sequence]});
        QCOMPARE(e.startCycle, handStartCycle(e.sequence));
        QCOMPARE(e.cycles, kStepCycles[e.programStep.value()]);
    }
    QCOMPARE(pane->matchLabel()->text(),
             expected.empty() ? QString("no matches") : QString("– of %1").arg(expected.size()));
    // Clearing the text ends the search.
    pane->setSearchText({});
    QCOMPARE(pane->searchMatches(), nullptr);
    QCOMPARE(pane->matchLabel()->text(), QString());
}

void TestExecutionNavigation::enterJumpsBetweenMatches() {
    auto o = open(2);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    pane->searchField()->setFocus();
    QTest::keyClicks(pane->searchField(), "encoder"); // steps 0 and 1: sequences 0 1 3 4 7 8
    // Enter right away: the search runs first, then the jump.
    QTest::keyClick(pane->searchField(), Qt::Key_Return);
    QTRY_COMPARE(pane->currentMatch(), 0);
    const std::vector<std::uint64_t> seq = {0, 1, 3, 4, 7, 8};
    auto check = [&](int index) {
        QCOMPARE(pane->currentMatch(), index);
        const std::uint64_t s = seq[static_cast<std::size_t>(index)];
        QCOMPARE(o->selection->step(), record::StepId{kOrder[s]});
        QCOMPARE(pane->details()->step(), record::StepId{kOrder[s]}); // the details follow
        QCOMPARE(pane->matchLabel()->text(), QString("%1 of 6").arg(index + 1));
        const TimeMapping& m = pane->viewport()->time();
        const auto start = static_cast<double>(handStartCycle(s));
        QVERIFY(m.start() <= start &&
                start + static_cast<double>(kStepCycles[kOrder[s]]) <= m.end());
    };
    check(0);
    QTest::keyClick(pane->searchField(), Qt::Key_Return);
    check(1);
    QTest::keyClick(pane->searchField(), Qt::Key_Return);
    check(2);
    QTest::keyClick(pane->searchField(), Qt::Key_Return, Qt::ShiftModifier);
    check(1);
    QTest::keyClick(pane->searchField(), Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClick(pane->searchField(), Qt::Key_Return, Qt::ShiftModifier);
    check(5); // wraps to the last
    pane->findNext();
    check(0); // and back to the first
    pane->findPrevious();
    check(5);
}

// W / S / Up / Down zoom by 1.5 about the centre, A / D / Left / Right pan a
// tenth of the view, Home fits; on the timeline and on the pane itself.
void TestExecutionNavigation::keysZoomAndPan() {
    auto o = open(2);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    const TimeMapping& m = pane->viewport()->time();
    const double runStart = testing::kRunStart;
    const double runEnd = static_cast<double>(handStartCycle(kOrder.size()));
    QCOMPARE(m.start(), runStart);
    QCOMPARE(m.end(), runEnd);
    const double span = runEnd - runStart, centre = (runStart + runEnd) / 2;
    for (QWidget* target : {static_cast<QWidget*>(pane->timeline()), static_cast<QWidget*>(pane)}) {
        for (const auto& [zoomIn, zoomOut, left, right] :
             {std::array{Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D},
              std::array{Qt::Key_Up, Qt::Key_Down, Qt::Key_Left, Qt::Key_Right}}) {
            QTest::keyClick(target, zoomIn);
            QCOMPARE(m.start(), centre - span / 1.5 / 2);
            QCOMPARE(m.end(), centre + span / 1.5 / 2);
            QTest::keyClick(target, zoomIn);
            const double s2 = span / 2.25;
            QCOMPARE(m.start(), centre - s2 / 2);
            QTest::keyClick(target, right);
            QCOMPARE(m.start(), centre - s2 / 2 + s2 / 10);
            QCOMPARE(m.end() - m.start(), s2);
            QTest::keyClick(target, left);
            QTest::keyClick(target, left);
            QCOMPARE(m.start(), centre - s2 / 2 - s2 / 10);
            QTest::keyClick(target, zoomOut);
            QCOMPARE(m.end() - m.start(), span / 1.5);
            QCOMPARE(m.start(), centre - s2 / 10 - span / 1.5 / 2); // about the view's centre
            QTest::keyClick(target, Qt::Key_Home);
            QCOMPARE(m.start(), runStart);
            QCOMPARE(m.end(), runEnd);
        }
    }
}

// With the pointer over the plot, W and S zoom about the cycle under it.
void TestExecutionNavigation::keysZoomAboutThePointer() {
    auto o = open(2);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    TimelineWidget* timeline = pane->timeline();
    const TimeMapping& m = pane->viewport()->time();
    const QRect plot = timeline->plotRect();
    const int x = plot.left() + plot.width() / 4;
    const double start = m.start(), span = m.end() - m.start();
    const double cycle = start + (x - plot.left()) * span / plot.width(); // under the pointer
    QTest::mouseMove(timeline, QPoint(x, plot.center().y()));
    QTest::keyClick(timeline, Qt::Key_W);
    QCOMPARE(m.end() - m.start(), span / 1.5);
    QCOMPARE(m.start() + (x - plot.left()) * (span / 1.5) / plot.width(), cycle);
    QTest::keyClick(timeline, Qt::Key_S);
    QCOMPARE(m.start(), start);
    QCOMPARE(m.end() - m.start(), span);
}

void TestExecutionNavigation::searchFieldKeepsItsKeys() {
    auto o = open(2);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    const TimeMapping& m = pane->viewport()->time();
    const double start = m.start(), end = m.end();
    pane->searchField()->setFocus();
    for (Qt::Key key : {Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D, Qt::Key_Up, Qt::Key_Down,
                        Qt::Key_Left, Qt::Key_Right, Qt::Key_Home}) {
        QTest::keyClick(pane->searchField(), key);
        QCOMPARE(m.start(), start);
        QCOMPARE(m.end(), end);
    }
    QCOMPARE(pane->searchField()->text(), QString("wsad"));
}

void TestExecutionNavigation::ipuChooserRows() {
    auto o = open(2);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    QComboBox* box = pane->ipuChooser();
    QVERIFY(box->isVisibleTo(pane));
    QCOMPARE(box->count(), 3);
    QCOMPARE(box->itemText(0), QString("All IPUs"));
    QCOMPARE(box->itemText(2), QString("IPU 1"));
    auto labels = [&] {
        QStringList l;
        for (const TimelineRow& row : pane->timeline()->layout().rows) {
            l << pane->timeline()->rowLabel(row);
        }
        return l;
    };
    QCOMPARE(labels(), QStringList({"All tiles", "IPU 0 · Tile 0", "IPU 0 · Tile 1",
                                    "IPU 0 · Tile 2", "IPU 0 · Tile 3", "IPU 1 · Tile 4",
                                    "IPU 1 · Tile 5", "IPU 1 · Tile 6", "IPU 1 · Tile 7"}));
    box->setCurrentIndex(2);
    QCOMPARE(pane->ipu(), 1);
    QCOMPARE(pane->viewport()->tileFirst(), 4u);
    QCOMPARE(pane->viewport()->tileCount(), 4u);
    QVERIFY(settle(pane));
    QCOMPARE(labels(), QStringList({"IPU 1 · all tiles", "IPU 1 · Tile 4", "IPU 1 · Tile 5",
                                    "IPU 1 · Tile 6", "IPU 1 · Tile 7"}));
    pane->grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("execution-ipu1.png"));
    // The rows hold IPU 1's figures: its tiles compute half of conv's 70,000-cycle phase.
    const TimelineFrame* f = pane->timeline()->frame();
    QVERIFY(f && !f->items.empty());
    QCOMPARE(f->items[0].programStep, record::StepId{0u});
    const TimelineRow& tile5 = pane->timeline()->layout().rows[2];
    QCOMPARE(tile5.firstTile, 5u);
    const RowFigures r = rowFigures(*f, tile5, 0, 1);
    QVERIFY(r.perTile);
    QCOMPARE(r.compute, 35000.0);
    // The top row sums IPU 1's four tiles only (IPU 0's compute twice as long).
    const RowFigures top = rowFigures(*f, pane->timeline()->layout().rows[0], 0, 1);
    QCOMPARE(top.tiles, 4.0);
    QCOMPARE(top.compute, 4 * 35000.0);
    QCOMPARE(top.computeMax, 35000.0);
    // The strip's tile balance is IPU 1's: its four tiles are equally busy
    // (over both IPUs it is 0.75: mean 3/4 of the busiest tile's).
    QCOMPARE(pane->strip()->visible().scope, QString("Visible on IPU 1"));
    QVERIFY(pane->strip()->visible().maxCompute > 0);
    QCOMPARE(pane->strip()->visible().balance(), 1.0);
    // Fit and the tile wheel stay on the IPU.
    pane->resetZoom();
    QCOMPARE(pane->viewport()->tileFirst(), 4u);
    pane->viewport()->setTiles(0, 8);
    QCOMPARE(pane->viewport()->tileFirst(), 4u);
    QCOMPARE(pane->viewport()->tileCount(), 4u);
    box->setCurrentIndex(1);
    QCOMPARE(pane->viewport()->tileFirst(), 0u);
    QCOMPARE(pane->viewport()->tileCount(), 4u);
    QVERIFY(settle(pane));
    QCOMPARE(
        rowFigures(*pane->timeline()->frame(), pane->timeline()->layout().rows[2], 0, 1).compute,
        70000.0);
    QCOMPARE(pane->timeline()->rowLabel(pane->timeline()->layout().rows[0]),
             QString("IPU 0 · all tiles"));
    QCOMPARE(
        rowFigures(*pane->timeline()->frame(), pane->timeline()->layout().rows[0], 0, 1).compute,
        4 * 70000.0);
    box->setCurrentIndex(0);
    QCOMPARE(pane->viewport()->tileFirst(), 0u);
    QCOMPARE(pane->viewport()->tileCount(), 8u);
    QVERIFY(settle(pane));
    const RowFigures every =
        rowFigures(*pane->timeline()->frame(), pane->timeline()->layout().rows[0], 0, 1);
    QCOMPARE(every.tiles, 8.0);
    QCOMPARE(every.compute, 4 * 70000.0 + 4 * 35000.0);
    QCOMPARE(pane->strip()->visible().scope, QString("Visible"));
    QCOMPARE(pane->strip()->visible().balance(), 0.75);
}

void TestExecutionNavigation::singleIpuHasNoChooser() {
    auto o = open(1);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    QVERIFY(!pane->ipuChooser()->isVisibleTo(pane));
    const RowLayout& layout = pane->timeline()->layout();
    QCOMPARE(layout.rows.size(), std::size_t{5});
    QCOMPARE(pane->timeline()->rowLabel(layout.rows[1]), QString("Tile 0"));
}

// Searching "conv": its executions' columns keep their pixels and get the
// search mark above the rows; other steps' columns are the base colour over
// them at kSearchDimAlpha. The flame view dims the other steps' spans.
void TestExecutionNavigation::searchLightsMatchesAndDimsTheRest() {
    auto o = open(2);
    QVERIFY(o);
    ExecutionPane* pane = o->pane.get();
    QVERIFY(settle(pane));
    TimelineWidget* timeline = pane->timeline();
    FlameWidget* flame = pane->flame();
    const QImage before = timeline->grab().toImage();
    const QImage flameBefore = flame->grab().toImage();
    pane->setSearchText("conv");
    QTRY_VERIFY(!pane->isSearching());
    const QImage after = timeline->grab().toImage();
    const QImage flameAfter = flame->grab().toImage();
    pane->grab().save(QDir(TESSERA_TEST_OUTPUT_DIR).filePath("execution-search.png"));

    const TimeMapping& m = pane->viewport()->time();
    const QRect plot = timeline->plotRect();
    auto xAt = [&](std::uint64_t seq, double fraction) {
        const double c = static_cast<double>(handStartCycle(seq)) +
                         fraction * static_cast<double>(kStepCycles[kOrder[seq]]);
        return plot.left() +
               static_cast<int>((c - m.start()) / (m.end() - m.start()) * plot.width());
    };
    const QColor base = timeline->palette().color(QPalette::Base);
    const RowLayout& layout = timeline->layout();
    const int markY = kRulerHeightPx + kMarkerLanePx / 2;
    int checked = 0;
    for (std::uint64_t seq = 0; seq < kOrder.size(); ++seq) {
        const bool match = kOrder[seq] == 0;
        for (double fraction : {0.3, 0.6, 0.9}) {
            const int x = xAt(seq, fraction);
            QCOMPARE(QColor(after.pixel(x, markY)) == searchMarkColor(), match);
            for (const TimelineRow& row : layout.rows) {
                const int y = plot.top() + row.y + row.height / 2;
                const QColor was = before.pixel(x, y), now = after.pixel(x, y);
                if (match) {
                    QCOMPARE(now, was);
                } else {
                    QVERIFY2(testing::channelsWithin(now, blended(was, base, kSearchDimAlpha), 2),
                             qPrintable(QString("seq %1 x %2 y %3: %4 from %5")
                                            .arg(seq)
                                            .arg(x)
                                            .arg(y)
                                            .arg(now.name(), was.name())));
                    QVERIFY(now != was);
                }
                ++checked;
            }
        }
    }
    QCOMPARE(checked, 12 * 3 * 9);
    // Flame: the step row (depth 2 under the root and "encoder"): conv lit, act dimmed.
    const int y = flame->plotRect().top() + 2 * kFlameRowPx + kFlameRowPx / 2;
    const QColor conv = flameBefore.pixel(xAt(3, 0.9), y), act = flameBefore.pixel(xAt(4, 0.9), y);
    QCOMPARE(QColor(flameAfter.pixel(xAt(3, 0.9), y)), conv);
    QVERIFY(testing::channelsWithin(flameAfter.pixel(xAt(4, 0.9), y),
                                    blended(act, base, kSearchDimAlpha), 2));
}

QTEST_MAIN(TestExecutionNavigation)
#include "tst_execution_navigation.moc"
