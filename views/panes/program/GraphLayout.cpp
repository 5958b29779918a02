#include "views/panes/program/GraphLayout.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/topological_sort.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <numeric>

namespace tessera::views::graph {

namespace {

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

std::vector<int> topologicalOrder(std::size_t n, const std::vector<Edge>& edges, bool& isDag) {
    BoostGraph g(n);
    for (const auto& [from, to] : edges) {
        boost::add_edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), g);
    }
    std::vector<std::size_t> reversed;
    reversed.reserve(n);
    try {
        boost::topological_sort(g, std::back_inserter(reversed));
        isDag = true;
    } catch (const boost::not_a_dag&) {
        isDag = false;
        return {};
    }
    std::vector<int> order;
    order.reserve(n);
    for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
        order.push_back(static_cast<int>(*it));
    }
    return order;
}

// Edges without self-loops; when the graph has a cycle, every edge is made
// to point from the lower to the higher index (which breaks all cycles).
std::vector<Edge> acyclicEdges(std::size_t n, const std::vector<Edge>& edges, bool& hadCycle,
                               std::vector<int>& topo) {
    std::vector<Edge> clean;
    for (const auto& e : edges) {
        if (e.first != e.second && e.first >= 0 && e.second >= 0 &&
            static_cast<std::size_t>(e.first) < n && static_cast<std::size_t>(e.second) < n) {
            clean.push_back(e);
        }
    }
    bool isDag = false;
    topo = topologicalOrder(n, clean, isDag);
    hadCycle = !isDag;
    if (!isDag) {
        for (auto& e : clean) {
            if (e.first > e.second) {
                std::swap(e.first, e.second);
            }
        }
        topo = topologicalOrder(n, clean, isDag);
    }
    return clean;
}

// Adjacency between consecutive layers, for ordering and placement.
struct Adjacency {
    std::vector<std::vector<int>> up;   // neighbours in the layer above
    std::vector<std::vector<int>> down; // neighbours in the layer below
    Adjacency(std::size_t count, const std::vector<Edge>& proper)
        : up(count)
        , down(count) {
        for (const auto& [from, to] : proper) {
            down[static_cast<std::size_t>(from)].push_back(to);
            up[static_cast<std::size_t>(to)].push_back(from);
        }
    }
};

std::vector<int> positionsOf(const std::vector<std::vector<int>>& order, std::size_t count) {
    std::vector<int> pos(count, 0);
    for (const auto& layer : order) {
        for (std::size_t i = 0; i < layer.size(); ++i) {
            pos[static_cast<std::size_t>(layer[i])] = static_cast<int>(i);
        }
    }
    return pos;
}

// Crossings between the edges of a and of b (a left of b) towards one side.
std::size_t pairCrossings(const std::vector<int>& na, const std::vector<int>& nb,
                          const std::vector<int>& pos) {
    std::size_t c = 0;
    for (const int x : na) {
        for (const int y : nb) {
            c += pos[static_cast<std::size_t>(x)] > pos[static_cast<std::size_t>(y)] ? 1 : 0;
        }
    }
    return c;
}

// Adjacent swaps that lower the crossings around a layer, until none helps.
void transpose(std::vector<std::vector<int>>& order, const Adjacency& adj, std::vector<int>& pos) {
    for (int round = 0; round < 24; ++round) {
        bool improved = false;
        for (auto& layer : order) {
            for (std::size_t i = 0; i + 1 < layer.size(); ++i) {
                const auto v = static_cast<std::size_t>(layer[i]);
                const auto w = static_cast<std::size_t>(layer[i + 1]);
                const std::size_t now = pairCrossings(adj.up[v], adj.up[w], pos) +
                                        pairCrossings(adj.down[v], adj.down[w], pos);
                const std::size_t swapped = pairCrossings(adj.up[w], adj.up[v], pos) +
                                            pairCrossings(adj.down[w], adj.down[v], pos);
                if (swapped < now) {
                    std::swap(layer[i], layer[i + 1]);
                    pos[v] = static_cast<int>(i + 1);
                    pos[w] = static_cast<int>(i);
                    improved = true;
                }
            }
        }
        if (!improved) {
            break;
        }
    }
}

// Minimises sum (x_i - desired_i)^2 subject to x_{i+1} - x_i >= minGap_i, by
// pool-adjacent-violators on x_i - offset_i.
std::vector<double> placeInOrder(const std::vector<double>& desired,
                                 const std::vector<double>& widths, double gap) {
    const std::size_t n = desired.size();
    std::vector<double> offset(n, 0);
    for (std::size_t i = 1; i < n; ++i) {
        offset[i] = offset[i - 1] + (widths[i - 1] + widths[i]) / 2 + gap;
    }
    struct Block {
        double sum;
        std::size_t count;
        double mean() const { return sum / static_cast<double>(count); }
    };
    std::vector<Block> blocks;
    for (std::size_t i = 0; i < n; ++i) {
        blocks.push_back({desired[i] - offset[i], 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() > blocks.back().mean()) {
            const Block last = blocks.back();
            blocks.pop_back();
            blocks.back().sum += last.sum;
            blocks.back().count += last.count;
        }
    }
    std::vector<double> x(n);
    std::size_t i = 0;
    for (const Block& b : blocks) {
        for (std::size_t k = 0; k < b.count; ++k, ++i) {
            x[i] = b.mean() + offset[i];
        }
    }
    return x;
}

} // namespace

std::vector<int> assignLayers(std::size_t nodeCount, const std::vector<Edge>& edges,
                              bool* hadCycle) {
    bool cycle = false;
    std::vector<int> topo;
    const std::vector<Edge> clean = acyclicEdges(nodeCount, edges, cycle, topo);
    if (hadCycle) {
        *hadCycle = cycle;
    }
    std::vector<std::vector<int>> preds(nodeCount), succs(nodeCount);
    for (const auto& [from, to] : clean) {
        preds[static_cast<std::size_t>(to)].push_back(from);
        succs[static_cast<std::size_t>(from)].push_back(to);
    }
    std::vector<int> layer(nodeCount, 0);
    for (const int v : topo) {
        for (const int p : preds[static_cast<std::size_t>(v)]) {
            layer[static_cast<std::size_t>(v)] = std::max(layer[static_cast<std::size_t>(v)],
                                                          layer[static_cast<std::size_t>(p)] + 1);
        }
    }
    // A source (e.g. an input tensor) sits just above its first consumer.
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const auto v = static_cast<std::size_t>(*it);
        if (preds[v].empty() && !succs[v].empty()) {
            int lowest = std::numeric_limits<int>::max();
            for (const int s : succs[v]) {
                lowest = std::min(lowest, layer[static_cast<std::size_t>(s)]);
            }
            layer[v] = std::max(0, lowest - 1);
        }
    }
    return layer;
}

std::size_t countCrossings(const std::vector<std::vector<int>>& order,
                           const std::vector<Edge>& properEdges, const std::vector<int>& layerOf) {
    const std::vector<int> pos = positionsOf(order, layerOf.size());
    // Edges grouped by their upper layer, as (upper pos, lower pos).
    std::vector<std::vector<std::pair<int, int>>> byLayer(order.size());
    for (const auto& [from, to] : properEdges) {
        const int lf = layerOf[static_cast<std::size_t>(from)];
        const int lt = layerOf[static_cast<std::size_t>(to)];
        const bool down = lt == lf + 1;
        const int upper = down ? from : to;
        const int lower = down ? to : from;
        if ((down || lf == lt + 1) && std::min(lf, lt) >= 0 &&
            static_cast<std::size_t>(std::min(lf, lt)) < order.size()) {
            byLayer[static_cast<std::size_t>(std::min(lf, lt))].emplace_back(
                pos[static_cast<std::size_t>(upper)], pos[static_cast<std::size_t>(lower)]);
        }
    }
    std::size_t total = 0;
    for (auto& edges : byLayer) {
        std::sort(edges.begin(), edges.end());
        // Count inversions of the lower positions (a Fenwick tree over them).
        int maxPos = 0;
        for (const auto& e : edges) {
            maxPos = std::max(maxPos, e.second);
        }
        std::vector<std::size_t> tree(static_cast<std::size_t>(maxPos) + 2, 0);
        std::size_t seen = 0;
        for (const auto& e : edges) {
            // Edges seen so far with a lower position strictly greater cross this one.
            std::size_t notGreater = 0;
            for (int i = e.second + 1; i > 0; i -= i & -i) {
                notGreater += tree[static_cast<std::size_t>(i)];
            }
            total += seen - notGreater;
            for (int i = e.second + 1; i < static_cast<int>(tree.size()); i += i & -i) {
                ++tree[static_cast<std::size_t>(i)];
            }
            ++seen;
        }
    }
    return total;
}

std::vector<std::vector<int>> reduceCrossings(std::vector<std::vector<int>> order,
                                              const std::vector<Edge>& properEdges,
                                              const std::vector<int>& layerOf, int sweeps) {
    const std::size_t count = layerOf.size();
    const Adjacency adj(count, properEdges);
    std::vector<std::vector<int>> best = order;
    std::size_t bestCrossings = countCrossings(order, properEdges, layerOf);
    std::vector<int> pos = positionsOf(order, count);
    auto sweepLayer = [&](std::vector<int>& layer,
                          const std::vector<std::vector<int>>& neighbours) {
        std::vector<std::pair<double, int>> keyed;
        keyed.reserve(layer.size());
        for (const int v : layer) {
            const auto& ns = neighbours[static_cast<std::size_t>(v)];
            double key = pos[static_cast<std::size_t>(v)];
            if (!ns.empty()) {
                double sum = 0;
                for (const int u : ns) {
                    sum += pos[static_cast<std::size_t>(u)];
                }
                key = sum / static_cast<double>(ns.size());
            }
            keyed.emplace_back(key, v);
        }
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < layer.size(); ++i) {
            layer[i] = keyed[i].second;
            pos[static_cast<std::size_t>(layer[i])] = static_cast<int>(i);
        }
    };
    for (int s = 0; s < sweeps && bestCrossings > 0; ++s) {
        if (s % 2 == 0) {
            for (std::size_t l = 1; l < order.size(); ++l) {
                sweepLayer(order[l], adj.up);
            }
        } else {
            for (std::size_t l = order.size(); l-- > 1;) {
                sweepLayer(order[l - 1], adj.down);
            }
        }
        const std::size_t c = countCrossings(order, properEdges, layerOf);
        if (c < bestCrossings) {
            bestCrossings = c;
            best = order;
        }
    }
    pos = positionsOf(best, count);
    std::vector<std::vector<int>> refined = best;
    transpose(refined, adj, pos);
    if (countCrossings(refined, properEdges, layerOf) <= bestCrossings) {
        best = std::move(refined);
    }
    return best;
}

Layout layoutGraph(const std::vector<Size>& sizes, const std::vector<Edge>& edges,
                   const LayoutOptions& options) {
    Layout out;
    const std::size_t n = sizes.size();
    out.layer = assignLayers(n, edges, &out.hadCycle);
    out.position.assign(n, {});
    if (n == 0) {
        return out;
    }
    const int numLayers = *std::max_element(out.layer.begin(), out.layer.end()) + 1;

    // Proper edges: long edges pass through one dummy node per layer crossed.
    std::vector<int> layerOf = out.layer;
    std::vector<double> widths;
    for (const Size& s : sizes) {
        widths.push_back(s.width);
    }
    std::vector<Edge> proper;
    std::vector<std::vector<int>> chains(edges.size()); // node chain per input edge, top to bottom
    for (std::size_t e = 0; e < edges.size(); ++e) {
        auto [from, to] = edges[e];
        if (from == to || from < 0 || to < 0 || static_cast<std::size_t>(from) >= n ||
            static_cast<std::size_t>(to) >= n) {
            continue;
        }
        const bool reversed =
            out.layer[static_cast<std::size_t>(from)] > out.layer[static_cast<std::size_t>(to)];
        if (reversed) {
            std::swap(from, to);
        }
        std::vector<int> chain{from};
        for (int l = out.layer[static_cast<std::size_t>(from)] + 1;
             l < out.layer[static_cast<std::size_t>(to)]; ++l) {
            const int dummy = static_cast<int>(layerOf.size());
            layerOf.push_back(l);
            widths.push_back(options.dummyWidth);
            proper.emplace_back(chain.back(), dummy);
            chain.push_back(dummy);
        }
        proper.emplace_back(chain.back(), to);
        chain.push_back(to);
        if (reversed) {
            std::reverse(chain.begin(), chain.end());
        }
        chains[e] = std::move(chain);
    }
    const std::size_t count = layerOf.size();

    // Initial order: input order within each layer (deterministic).
    std::vector<std::vector<int>> order(static_cast<std::size_t>(numLayers));
    for (std::size_t v = 0; v < count; ++v) {
        order[static_cast<std::size_t>(layerOf[v])].push_back(static_cast<int>(v));
    }
    out.initialCrossings = countCrossings(order, proper, layerOf);
    order = reduceCrossings(std::move(order), proper, layerOf, options.orderingSweeps);
    out.crossings = countCrossings(order, proper, layerOf);

    // Coordinates: relax towards the neighbours' mean, keeping order and gaps.
    const Adjacency adj(count, proper);
    std::vector<double> x(count, 0);
    for (const auto& layer : order) {
        std::vector<double> w;
        for (const int v : layer) {
            w.push_back(widths[static_cast<std::size_t>(v)]);
        }
        const std::vector<double> packed =
            placeInOrder(std::vector<double>(layer.size(), 0), w, options.nodeGap);
        const double centre = packed.empty() ? 0 : (packed.front() + packed.back()) / 2;
        for (std::size_t i = 0; i < layer.size(); ++i) {
            x[static_cast<std::size_t>(layer[i])] = packed[i] - centre;
        }
    }
    for (int pass = 0; pass < options.placementPasses; ++pass) {
        const bool downward = pass % 2 == 0;
        const bool both = pass == options.placementPasses - 1;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const auto& layer = order[downward ? k : order.size() - 1 - k];
            std::vector<double> desired, w;
            for (const int v : layer) {
                const auto vi = static_cast<std::size_t>(v);
                double sum = 0;
                std::size_t m = 0;
                for (const auto* ns : {&adj.up[vi], &adj.down[vi]}) {
                    if (both || (ns == &adj.up[vi]) == downward) {
                        for (const int u : *ns) {
                            sum += x[static_cast<std::size_t>(u)];
                            ++m;
                        }
                    }
                }
                desired.push_back(m ? sum / static_cast<double>(m) : x[vi]);
                w.push_back(widths[vi]);
            }
            const std::vector<double> placed = placeInOrder(desired, w, options.nodeGap);
            for (std::size_t i = 0; i < layer.size(); ++i) {
                x[static_cast<std::size_t>(layer[i])] = placed[i];
            }
        }
    }

    // Layer rows: each as tall as its tallest node.
    std::vector<double> rowHeight(order.size(), 0), rowTop(order.size(), 0);
    for (std::size_t v = 0; v < n; ++v) {
        auto& h = rowHeight[static_cast<std::size_t>(out.layer[v])];
        h = std::max(h, sizes[v].height);
    }
    double y = 0;
    for (std::size_t l = 0; l < order.size(); ++l) {
        rowTop[l] = y;
        y += rowHeight[l] + options.layerGap;
    }
    out.height = y - options.layerGap;
    double minX = std::numeric_limits<double>::max(), maxX = std::numeric_limits<double>::lowest();
    for (std::size_t v = 0; v < count; ++v) {
        minX = std::min(minX, x[v] - widths[v] / 2);
        maxX = std::max(maxX, x[v] + widths[v] / 2);
    }
    out.width = maxX - minX;
    auto centreOf = [&](int v) {
        const auto vi = static_cast<std::size_t>(v);
        const auto l = static_cast<std::size_t>(layerOf[vi]);
        return Point{x[vi] - minX, rowTop[l] + rowHeight[l] / 2};
    };
    for (std::size_t v = 0; v < n; ++v) {
        out.position[v] = centreOf(static_cast<int>(v));
    }
    out.order = std::move(order);
    out.edgePoints.resize(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto& chain = chains[e];
        if (chain.size() < 2) {
            continue;
        }
        auto& pts = out.edgePoints[e];
        for (std::size_t i = 0; i < chain.size(); ++i) {
            Point p = centreOf(chain[i]);
            if (static_cast<std::size_t>(chain[i]) < n) {
                // Leave a real node from its bottom (or top when drawn upwards).
                const double half = sizes[static_cast<std::size_t>(chain[i])].height / 2;
                const bool first = i == 0;
                const Point other = centreOf(first ? chain[1] : chain[i - 1]);
                const bool otherBelow = other.y > p.y;
                p.y += otherBelow ? half : -half;
            }
            pts.push_back(p);
        }
    }
    return out;
}

} // namespace tessera::views::graph
