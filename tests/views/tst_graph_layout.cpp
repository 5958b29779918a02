// The layered graph layout of the Program pane's dataflow graph, on hand-made
// graphs: layers follow the topological order, crossing reduction reaches a
// known optimum and never makes things worse, nodes do not overlap, and the
// output is deterministic.
#include "views/panes/program/GraphLayout.h"

#include <QElapsedTimer>
#include <QtTest>

#include <random>

using namespace tessera::views::graph;

namespace {

std::vector<Size> boxes(std::size_t n, double w = 80, double h = 30) {
    return std::vector<Size>(n, Size{w, h});
}

// A random DAG: edges only from lower to higher index (then shuffled ids).
std::vector<Edge> randomDag(std::size_t n, std::size_t m, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<Edge> edges;
    std::uniform_int_distribution<std::size_t> pick(0, n - 1);
    while (edges.size() < m) {
        std::size_t a = pick(rng), b = pick(rng);
        if (a == b) {
            continue;
        }
        if (a > b) {
            std::swap(a, b);
        }
        edges.emplace_back(perm[a], perm[b]);
    }
    return edges;
}

} // namespace

class TestGraphLayout : public QObject {
    Q_OBJECT

private slots:
    void layersFollowTopologicalOrder() {
        for (unsigned seed = 1; seed <= 20; ++seed) {
            const auto edges = randomDag(40, 70, seed);
            bool cycle = true;
            const auto layer = assignLayers(40, edges, &cycle);
            QVERIFY(!cycle);
            for (const auto& [from, to] : edges) {
                QVERIFY2(layer[static_cast<std::size_t>(from)] <
                             layer[static_cast<std::size_t>(to)],
                         qPrintable(QString("seed %1: edge %2->%3").arg(seed).arg(from).arg(to)));
            }
        }
    }

    void chainTakesOneLayerPerNode() {
        const std::vector<Edge> edges{{0, 1}, {1, 2}, {2, 3}};
        const auto layer = assignLayers(4, edges);
        QCOMPARE(layer, (std::vector<int>{0, 1, 2, 3}));
    }

    void sourcesSitAboveTheirConsumer() {
        // 0 -> 1 -> 2 -> 3 and a source 4 feeding 3: it is placed in layer 2.
        const std::vector<Edge> edges{{0, 1}, {1, 2}, {2, 3}, {4, 3}};
        const auto layer = assignLayers(5, edges);
        QCOMPARE(layer[4], 2);
    }

    void cyclesAreBrokenNotFatal() {
        const std::vector<Edge> edges{{0, 1}, {1, 2}, {2, 0}, {2, 2}};
        bool cycle = false;
        const auto layer = assignLayers(3, edges, &cycle);
        QVERIFY(cycle);
        QVERIFY(layer[0] < layer[1] && layer[1] < layer[2]);
        const Layout l = layoutGraph(boxes(3), edges);
        QVERIFY(l.hadCycle);
        QCOMPARE(l.position.size(), std::size_t(3));
    }

    void crossingReductionFindsKnownOptimum() {
        // Top a b c (0 1 2), bottom x y z (3 4 5); a-z, b-y, c-x: 3 crossings,
        // optimum 0 (reverse the bottom).
        const std::vector<int> layerOf{0, 0, 0, 1, 1, 1};
        const std::vector<Edge> edges{{0, 5}, {1, 4}, {2, 3}};
        const std::vector<std::vector<int>> initial{{0, 1, 2}, {3, 4, 5}};
        QCOMPARE(countCrossings(initial, edges, layerOf), std::size_t(3));
        const auto reduced = reduceCrossings(initial, edges, layerOf, 8);
        QCOMPARE(countCrossings(reduced, edges, layerOf), std::size_t(0));

        // K2,2 always has exactly one crossing: the optimum is 1.
        const std::vector<Edge> k22{{0, 2}, {0, 3}, {1, 2}, {1, 3}};
        const std::vector<int> layers22{0, 0, 1, 1};
        const auto r22 = reduceCrossings({{0, 1}, {2, 3}}, k22, layers22, 8);
        QCOMPARE(countCrossings(r22, k22, layers22), std::size_t(1));

        // Three layers, optimum 0: two interleaved chains a-c-e and b-d-f,
        // started in a crossed order.
        const std::vector<int> layers3{0, 0, 1, 1, 2, 2};
        const std::vector<Edge> chains{{0, 3}, {3, 4}, {1, 2}, {2, 5}};
        const std::vector<std::vector<int>> crossed{{0, 1}, {2, 3}, {4, 5}};
        QCOMPARE(countCrossings(crossed, chains, layers3), std::size_t(2));
        QCOMPARE(countCrossings(reduceCrossings(crossed, chains, layers3, 8), chains, layers3),
                 std::size_t(0));
    }

    void crossingReductionNeverIncreasesCrossings() {
        for (unsigned seed = 1; seed <= 30; ++seed) {
            const auto edges = randomDag(30, 60, seed);
            const Layout l = layoutGraph(boxes(30), edges);
            QVERIFY2(l.crossings <= l.initialCrossings, qPrintable(QString("seed %1: %2 > %3")
                                                                       .arg(seed)
                                                                       .arg(l.crossings)
                                                                       .arg(l.initialCrossings)));
        }
    }

    void layoutIsDeterministic() {
        const auto edges = randomDag(50, 90, 7);
        const Layout a = layoutGraph(boxes(50), edges);
        const Layout b = layoutGraph(boxes(50), edges);
        QCOMPARE(a.order, b.order);
        for (std::size_t v = 0; v < a.position.size(); ++v) {
            QCOMPARE(a.position[v].x, b.position[v].x);
            QCOMPARE(a.position[v].y, b.position[v].y);
        }
    }

    void nodesDoNotOverlapAndEdgesRunDownwards() {
        const auto edges = randomDag(40, 60, 3);
        std::vector<Size> sizes;
        for (int i = 0; i < 40; ++i) {
            sizes.push_back({60.0 + (i % 5) * 20.0, 30.0});
        }
        LayoutOptions options;
        const Layout l = layoutGraph(sizes, edges, options);
        for (std::size_t a = 0; a < sizes.size(); ++a) {
            for (std::size_t b = a + 1; b < sizes.size(); ++b) {
                if (l.layer[a] == l.layer[b]) {
                    const double need =
                        (sizes[a].width + sizes[b].width) / 2 + options.nodeGap - 1e-6;
                    QVERIFY(std::abs(l.position[a].x - l.position[b].x) >= need);
                }
            }
            QVERIFY(l.position[a].x - sizes[a].width / 2 >= -1e-6);
            QVERIFY(l.position[a].x + sizes[a].width / 2 <= l.width + 1e-6);
        }
        for (std::size_t e = 0; e < edges.size(); ++e) {
            const auto& pts = l.edgePoints[e];
            QVERIFY(pts.size() >= 2);
            for (std::size_t i = 1; i < pts.size(); ++i) {
                QVERIFY(pts[i].y > pts[i - 1].y);
            }
        }
    }

    void largeGraphsLayOutQuickly() {
        // The pane draws at most 400 steps; with their tensors and long-lived
        // tensors spanning many layers that is a few thousand nodes with dummies.
        const std::size_t steps = 400;
        std::vector<Edge> edges;
        std::size_t n = steps;
        for (std::size_t s = 0; s + 1 < steps; ++s) {
            const int tensor = static_cast<int>(n++);
            edges.emplace_back(static_cast<int>(s), tensor);
            edges.emplace_back(tensor, static_cast<int>(s + 1));
            if (s % 10 == 0 && s + 40 < steps) { // a tensor living across 40 steps
                const int longLived = static_cast<int>(n++);
                edges.emplace_back(static_cast<int>(s), longLived);
                edges.emplace_back(longLived, static_cast<int>(s + 40));
            }
        }
        QElapsedTimer timer;
        timer.start();
        const Layout l = layoutGraph(boxes(n), edges);
        const qint64 ms = timer.elapsed();
        qInfo("%zu nodes, %zu edges, %zu layers: %lld ms, crossings %zu -> %zu", n, edges.size(),
              l.order.size(), ms, l.initialCrossings, l.crossings);
        QVERIFY(l.crossings <= l.initialCrossings);
        QVERIFY2(ms < 3000, qPrintable(QString("layout took %1 ms").arg(ms)));
    }

    void emptyGraph() {
        const Layout l = layoutGraph({}, {});
        QVERIFY(l.position.empty());
        QCOMPARE(l.crossings, std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestGraphLayout)
#include "tst_graph_layout.moc"
