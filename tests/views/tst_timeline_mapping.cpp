// The execution timeline's pure math: the time <-> pixel mapping (round
// trips, zoom about a point, pan, clamping), the level-of-detail choice, the
// ruler's nice ticks, the coarse step index, the row layout, folding of
// narrow items and the flame view's span merging.
#include "views/panes/execution/FlameSpans.h"
#include "views/panes/execution/RowLayout.h"
#include "views/panes/execution/StepIndex.h"
#include "views/panes/execution/TimeMapping.h"
#include "views/panes/execution/TimeRuler.h"
#include "views/panes/execution/TimelineRenderer.h"

#include <QtTest>

#include <cmath>

using namespace tessera;
using namespace tessera::views::execution;

namespace {

TimeMapping mapping(double begin, double end, double width) {
    TimeMapping m;
    m.setWidth(width);
    m.setBounds(begin, end);
    return m;
}

std::vector<reports::LodLevel> levels() {
    return {
        {0, 1, 20000, 16, 92}, {1, 64, 313, 16, 92}, {2, 4096, 5, 16, 92}, {3, 262144, 1, 16, 92}};
}

} // namespace

class TestTimelineMapping : public QObject {
    Q_OBJECT

private slots:
    void roundTrips() {
        TimeMapping m = mapping(1000, 101000, 800);
        QCOMPARE(m.start(), 1000.0);
        QCOMPARE(m.end(), 101000.0);
        QVERIFY(m.isReset());
        QCOMPARE(m.cyclesPerPixel(), 125.0);
        QCOMPARE(m.toPixel(1000), 0.0);
        QCOMPARE(m.toPixel(101000), 800.0);
        for (double visibleStart : {1000.0, 5000.0, 77777.0}) {
            m.setVisible(visibleStart, visibleStart + 12345);
            for (double c = m.start(); c < m.end(); c += 517) {
                QVERIFY(std::fabs(m.toCycle(m.toPixel(c)) - c) < 1e-6);
            }
            for (double x = 0; x <= 800; x += 13) {
                QVERIFY(std::fabs(m.toPixel(m.toCycle(x)) - x) < 1e-9);
            }
        }
    }

    void zoomAboutKeepsThePointFixed() {
        TimeMapping m = mapping(0, 1e6, 1400);
        for (const double px : {0.0, 200.0, 700.0, 1399.0}) {
            for (const double factor : {2.0, 1.5, 10.0, 0.8}) {
                m.setVisible(2e5, 6e5); // room on both sides
                const double before = m.toCycle(px);
                const double span = m.span();
                m.zoomAbout(px, factor);
                QVERIFY2(std::fabs(m.toCycle(px) - before) < 1e-6, qPrintable(QString::number(px)));
                QVERIFY(std::fabs(m.span() - span / factor) < 1e-6);
            }
        }
        // Zooming out past the run shows the run; zooming in stops at the deepest zoom.
        m.zoomAbout(100, 1e-6);
        QVERIFY(m.isReset());
        for (int i = 0; i < 100; ++i) {
            m.zoomAbout(700, 4);
        }
        QCOMPARE(m.span(), m.minSpan());
        QCOMPARE(m.minSpan(), 1400 / kMaxPixelsPerCycle);
        QVERIFY(m.start() >= 0 && m.end() <= 1e6);
    }

    void panAndClamp() {
        TimeMapping m = mapping(100, 10100, 1000); // 10 cycles a pixel at reset
        m.setVisible(5100, 6100);                  // 1 cycle a pixel
        m.dragBy(200); // the hand moves right: earlier cycles come into view
        QCOMPARE(m.start(), 4900.0);
        QCOMPARE(m.end(), 5900.0);
        m.dragBy(-300);
        QCOMPARE(m.start(), 5200.0);
        m.dragBy(1e9); // clamped at the run's start, span kept
        QCOMPARE(m.start(), 100.0);
        QCOMPARE(m.span(), 1000.0);
        m.dragBy(-1e9);
        QCOMPARE(m.end(), 10100.0);
        QCOMPARE(m.span(), 1000.0);
        m.setVisible(-500, 400); // shifted into the bounds
        QCOMPARE(m.start(), 100.0);
        QCOMPARE(m.end(), 1000.0);
        m.setVisible(0, 1e9); // wider than the run: the run
        QVERIFY(m.isReset());
        m.setVisible(3000, 3001); // narrower than the deepest zoom
        QCOMPARE(m.span(), m.minSpan());
        m.centreOn(10100);
        QCOMPARE(m.end(), 10100.0);
        // An empty run still maps.
        TimeMapping e = mapping(50, 50, 300);
        QCOMPARE(e.span(), 1.0);
        QVERIFY(std::isfinite(e.toPixel(50)));
    }

    void lodLevelChoice() {
        const auto l = levels();
        const double width = 1400;
        const double maxBuckets = width / kMinBucketPx; // 560
        QCOMPARE(chooseLodLevel(l, 10, width), 0u);
        QCOMPARE(chooseLodLevel(l, maxBuckets, width), 0u);
        QCOMPARE(chooseLodLevel(l, maxBuckets + 1, width), 1u);
        QCOMPARE(chooseLodLevel(l, 20000, width), 1u);
        QCOMPARE(chooseLodLevel(l, 64 * maxBuckets, width), 1u);
        QCOMPARE(chooseLodLevel(l, 64 * maxBuckets + 1, width), 2u);
        QCOMPARE(chooseLodLevel(l, 1e12, width), 3u); // nothing fits: the coarsest
        QCOMPARE(chooseLodLevel({}, 1e6, width), 0u);
        // The choice is the finest level whose buckets are >= kMinBucketPx wide.
        for (const double steps : {100.0, 700.0, 5000.0, 40000.0, 3e5, 5e6}) {
            const std::uint32_t level = chooseLodLevel(l, steps, width);
            const double bucketPx = width / (steps / static_cast<double>(l[level].bucketSteps));
            if (level < 3) {
                QVERIFY(bucketPx >= kMinBucketPx);
            }
            if (level > 0) {
                QVERIFY(width / (steps / static_cast<double>(l[level - 1].bucketSteps)) <
                        kMinBucketPx);
            }
        }
        // Half the width: the switch to buckets comes at half the steps.
        QCOMPARE(chooseLodLevel(l, maxBuckets, width / 2), 1u);
    }

    void niceTicks() {
        QCOMPARE(niceTickStep(10, 96), 1000.0);
        QCOMPARE(niceTickStep(3.7, 96), 500.0);
        QCOMPARE(niceTickStep(1.5, 96), 200.0);
        QCOMPARE(niceTickStep(0.001, 96), 1.0); // never below a cycle
        TimeMapping m = mapping(1000, 35000, 1300);
        m.setVisible(4321, 17654);
        const double step = niceTickStep(m.cyclesPerPixel(), kRulerLabelSpacingPx);
        const auto ticks = tickCycles(m, 1000, kRulerLabelSpacingPx);
        QVERIFY(ticks.size() >= 5);
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            QVERIFY(ticks[i] >= m.start() && ticks[i] <= m.end());
            QCOMPARE(std::fmod(ticks[i] - 1000, step), 0.0);
            if (i > 0) {
                QVERIFY(m.toPixel(ticks[i]) - m.toPixel(ticks[i - 1]) >=
                        kRulerLabelSpacingPx - 1e-9);
            }
        }
        QCOMPARE(tickCycleLabel(12000), QString("12,000"));
        QCOMPARE(tickCycleLabel(0), QString("0"));
        // 1.325 GHz: 1,325 cycles are 1 µs.
        QCOMPARE(tickTimeLabel(1325, 1325, 1.325e9), QString::fromUtf8("1.0 µs"));
        QCOMPARE(tickTimeLabel(2650, 1325 * 0.5, 1.325e9), QString::fromUtf8("2.00 µs"));
        QCOMPARE(tickTimeLabel(13.25, 13.25, 1.325e9), QString("10 ns"));
        QCOMPARE(tickTimeLabel(1325e3, 1325e3, 1.325e9), QString("1.0 ms"));
    }

    void stepIndex() {
        // Four buckets of 64 steps (the last has 10), of different lengths.
        std::vector<IndexBucket> buckets = {{1000, 6400, 0, 64},
                                            {7400, 640, 64, 64},
                                            {8040, 64000, 128, 64},
                                            {72040, 100, 192, 10}};
        StepIndex idx(3, levels(), buckets);
        QCOMPARE(idx.run(), 3u);
        QCOMPARE(idx.steps(), std::uint64_t{202});
        QCOMPARE(idx.firstCycle(), std::uint64_t{1000});
        QCOMPARE(idx.endCycle(), std::uint64_t{72140});
        using Range = std::pair<std::uint64_t, std::uint64_t>;
        QCOMPARE(idx.seqRange(1000, 72140), Range(0, 202));
        QCOMPARE(idx.seqRange(7500, 7600), Range(64, 128));
        QCOMPARE(idx.seqRange(7000, 8041), Range(0, 192));
        QCOMPARE(idx.seqRange(0, 10), Range(0, 64));       // before the run: the first bucket
        QCOMPARE(idx.seqRange(1e9, 2e9), Range(192, 202)); // after it: the last
        QCOMPARE(idx.estimateSteps(1000, 72140), 202.0);
        QCOMPARE(idx.estimateSteps(1000, 4200), 32.0); // half the first bucket
        QCOMPARE(idx.estimateSteps(7400, 8040), 64.0);
        QCOMPARE(idx.chooseLevel(1000, 72140, 1400), 0u);
        QCOMPARE(idx.chooseLevel(1000, 72140, 50), 1u);
        QVERIFY(idx.level(2) && idx.level(2)->bucketSteps == 4096);
        QVERIFY(!idx.level(7));
    }

    void rowLayout() {
        // 16 tiles fit as tile rows.
        RowLayout a = layoutRows(16, 16, 0, 16, 400);
        QVERIFY(a.tileRows);
        QCOMPARE(a.rows.size(), std::size_t{17});
        QCOMPARE(a.rows[0].kind, RowKind::AllTiles);
        QCOMPARE(a.rows[5].firstTile, 4u);
        // 1,472 tiles: one row per group of 16 when they fit, merged groups when not.
        for (const int height : {1000, 600, 200, 60}) {
            RowLayout b = layoutRows(1472, 16, 0, 1472, height);
            QVERIFY(!b.tileRows);
            QVERIFY(b.height <= height);
            std::uint32_t nextGroup = 0;
            int lastBottom = b.rows[0].height + kRowGapPx;
            for (std::size_t i = 1; i < b.rows.size(); ++i) {
                const TimelineRow& r = b.rows[i];
                QCOMPARE(r.kind, RowKind::Group);
                QCOMPARE(r.firstGroup, nextGroup); // contiguous, in order, none missing
                nextGroup += r.groupCount;
                QCOMPARE(r.y, lastBottom);
                QVERIFY(r.height >= kMinGroupRowPx && r.height <= kMaxRowPx);
                lastBottom = r.y + r.height;
            }
            QCOMPARE(nextGroup, 92u);
            if (height == 1000) {
                QCOMPARE(b.rows.size(), std::size_t{93}); // a row per group
            }
            if (height == 600) {
                QCOMPARE(b.rows.size(), std::size_t{47}); // two groups a row
                QCOMPARE(b.rows[1].tileCount, 32u);
            }
        }
        // Zoomed in on 20 tiles: tile rows for exactly those.
        RowLayout c = layoutRows(1472, 16, 700, 20, 500);
        QVERIFY(c.tileRows);
        QCOMPARE(c.rows.size(), std::size_t{21});
        QCOMPARE(c.rows[1].firstTile, 700u);
        QCOMPARE(c.rows[20].firstTile, 719u);
        QCOMPARE(c.rows[1].firstGroup, 700u / 16);
    }

    void foldingBoundsCellsByWidth() {
        // 10,000 one-cycle steps over 1,000 pixels: folded to about 400 cells.
        TimelineFrame frame;
        for (std::uint64_t i = 0; i < 10000; ++i) {
            TimelineItem item;
            item.startCycle = i;
            item.cycles = 1;
            item.firstSeq = i;
            item.steps = 1;
            frame.items.push_back(item);
        }
        TimeMapping m = mapping(0, 10000, 1000);
        auto cells = foldCells(frame, m, 1.0);
        QVERIFY(cells.size() <= 1000 / kMinBucketPx + 2);
        std::size_t next = 0;
        int lastX = 0;
        for (const Cell& c : cells) {
            QCOMPARE(c.first, next); // every item in exactly one cell
            next = c.end;
            QVERIFY(c.x0 >= lastX);
            lastX = c.x1;
            QVERIFY(!c.exact);
        }
        QCOMPARE(next, std::size_t{10000});
        // Zoomed in to 100 steps: each step is 10 px, drawn exactly.
        m.setVisible(5000, 5100);
        cells = foldCells(frame, m, 1.0);
        QCOMPARE(cells.size(), std::size_t{100});
        QVERIFY(cells.front().exact);
        QCOMPARE(cells.front().x1 - cells.front().x0, 10);
        // High DPI: the same in device pixels.
        cells = foldCells(frame, m, 2.0);
        QCOMPARE(cells.front().x1 - cells.front().x0, 20);
    }

    void flameSpansMergeConsecutiveExecutions() {
        // root Sequence(0) > Repeat(1) > Sequence(2) > {Execute A(3) = step 0, Execute B(4) = step
        // 1}; Sequence(0) > Execute C(5) = step 2.
        std::vector<record::ProgramNodeRecord> nodes(6);
        const std::uint32_t parents[] = {record::kNone, 0, 1, 2, 2, 0}; // kNone: none()
        for (std::uint32_t i = 0; i < 6; ++i) {
            nodes[i].id = record::ProgramNodeId{i};
            nodes[i].parent = record::ProgramNodeId{parents[i]};
        }
        std::vector<reports::ProgramStepEntry> steps(3);
        const std::uint32_t stepNodes[] = {3, 4, 5};
        for (std::uint32_t i = 0; i < 3; ++i) {
            steps[i].id = record::StepId{i};
            steps[i].node = record::ProgramNodeId{stepNodes[i]};
        }
        ProgramHierarchy h(nodes, steps);
        auto nodeIds = [](std::initializer_list<std::uint32_t> ids) {
            std::vector<record::ProgramNodeId> out;
            for (const std::uint32_t id : ids) {
                out.emplace_back(id);
            }
            return out;
        };
        QVERIFY(h.chain(record::StepId{0u}) == nodeIds({0, 1, 2, 3}));
        QVERIFY(h.chain(record::StepId{2u}) == nodeIds({0, 5}));
        QCOMPARE(h.depth(0), std::size_t{4});
        QVERIFY(h.chain(record::StepId{99u}).empty());
        // A B A A B C, ten cycles each.
        std::vector<record::StepExecutionRecord> executed;
        for (std::uint32_t s : {0u, 1u, 0u, 0u, 1u, 2u}) {
            executed.push_back({0, executed.size(), record::StepId{s}, 10 * executed.size(), 10});
        }
        const FlameData f = buildFlame(executed, h);
        QCOMPARE(f.rows.size(), std::size_t{4});
        QCOMPARE(f.rows[0].size(), std::size_t{1}); // the root runs throughout
        QCOMPARE(f.rows[0][0].endCycle, std::uint64_t{60});
        QCOMPARE(f.rows[0][0].executions, std::uint64_t{6});
        QCOMPARE(f.rows[1].size(), std::size_t{2}); // the Repeat, then C
        QCOMPARE(f.rows[1][0].endCycle, std::uint64_t{50});
        QCOMPARE(f.rows[1][1].programStep, record::StepId{2u});
        QCOMPARE(f.rows[3].size(), std::size_t{4}); // A, B, A×2, B
        QCOMPARE(f.rows[3][2].executions, std::uint64_t{2});
        QCOMPARE(f.rows[3][2].startCycle, std::uint64_t{20});
        QCOMPARE(f.rows[3][2].endCycle, std::uint64_t{40});
    }
};

QTEST_GUILESS_MAIN(TestTimelineMapping)
#include "tst_timeline_mapping.moc"
