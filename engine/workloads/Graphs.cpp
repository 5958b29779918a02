// gather-scatter (GNN-style message passing) and stress (many small steps).
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/workloads/Library.h"

#include <cmath>
#include <random>

namespace tessera::workloads {

namespace {

// Each round: every node sums its own features and its in-neighbours' (a
// gather across tiles through the exchange), then x = relu(sum . W).
class GatherScatter : public Workload {
public:
    std::string name() const override { return "gather-scatter"; }
    std::string description() const override {
        return "message passing on a random graph: gather neighbour features across tiles, sum, "
               "transform";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("nodes", "256", "graph nodes", 1, 65536),
                Parameter::integer("edges", "1024", "directed edges", 1, 1 << 20),
                Parameter::integer("features", "16", "features per node", 1, 1024),
                Parameter::integer("rounds", "2", "message-passing rounds", 1, 1000)};
    }
    // Features and weights (always live), and the working memory of the
    // transform's matrix product (or the aggregate, if larger).
    std::uint64_t minimumTileMemory(const Parameters& p, const Target& target) const override {
        const std::uint64_t n = p.getSize("nodes"), f = p.getSize("features");
        return 4 * (n * f + f * f) +
               std::max(4 * n * f, ops::matMulWorkingBytes(target, n, f, f, Type::Float));
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t n = p.getSize("nodes"), m = p.getSize("edges"), f = p.getSize("features"),
                          rounds = p.getSize("rounds");
        std::mt19937 rng(51);
        std::vector<std::vector<std::size_t>> incoming(n);
        for (std::size_t e = 0; e < m; ++e) {
            const std::size_t src = rng() % n, dst = rng() % n;
            incoming[dst].push_back(src);
        }
        Tensor x = g.addVariable(Type::Float, {n, f}, "features");
        ops::mapLinearly(g, x, f);
        g.createHostWrite("features", x);
        g.createHostRead("features/read", x);
        Tensor w = g.addVariable(Type::Float, {f, f}, "weights");
        ops::mapLinearly(g, w, f);
        g.createHostWrite("weights", w);
        Tensor agg = g.addVariable(Type::Float, {n, f}, "aggregate");
        ops::mapLinearly(g, agg, f);
        const ComputeSet gather = g.addComputeSet("gather-sum");
        const auto mapping = g.getTileMapping(agg);
        for (const TileId tile : record::idRange<TileId>(mapping.size())) {
            for (const auto& [b, e] : mapping[tile.value()]) {
                for (std::size_t node = b / f; node < e / f; ++node) {
                    std::vector<Tensor> messages{x[node]};
                    for (std::size_t src : incoming[node]) {
                        messages.push_back(x[src]);
                    }
                    VertexRef v =
                        g.addVertex(gather, "ReducePartials<float,float>", {{"out", agg[node]}});
                    g.connect(v["partials"], messages);
                    g.setTileMapping(v, tile);
                }
            }
        }
        program::Sequence round;
        round.add(
            program::Block(program::Sequence{program::Execute(gather)}, "message-passing/gather"));
        const Tensor h = ops::matMul(g, round, agg, w, "message-passing/transform");
        const Tensor act = ops::unary(g, round, "Relu", h, "message-passing/relu");
        round.add(program::Copy(act, x, "message-passing/update"));
        program::Sequence prog{program::Repeat(rounds, round, "rounds")};

        const auto xv = randomValues(n * f, 52, Type::Float);
        const auto wv = randomValues(f * f, 53, Type::Float, -0.5f, 0.5f);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            writeFloats(e, x, xv);
            writeFloats(e, w, wv);
        };
        built.verify = [=](Engine& e) {
            std::vector<double> cur = toDouble(xv);
            for (std::size_t r = 0; r < rounds; ++r) {
                std::vector<double> sum(n * f, 0.0);
                for (std::size_t node = 0; node < n; ++node) {
                    for (std::size_t j = 0; j < f; ++j) {
                        sum[node * f + j] = cur[node * f + j];
                        for (std::size_t src : incoming[node]) {
                            sum[node * f + j] += cur[src * f + j];
                        }
                    }
                }
                cur = hostMatMul(sum, toDouble(wv), n, f, f);
                for (double& v : cur) {
                    v = v > 0 ? v : 0;
                }
            }
            return compare(e.readValues(x), cur, 1e-4, 1e-4, "node features after message passing");
        };
        return built;
    }
};

// Many short steps with a varying load per tile, for scale tests of the panes.
class Stress : public Workload {
public:
    std::string name() const override { return "stress"; }
    std::string description() const override {
        return "many short supersteps with uneven per-tile work and neighbour exchange (scale "
               "tests)";
    }
    std::vector<Parameter> parameters() const override {
        return {
            Parameter::integer("steps", "2000", "supersteps to execute", 1, 1000000),
            Parameter::integer("phases", "4", "distinct compute sets (at most steps)", 1, 4096)};
    }
    // Each phase's counters and constant ones: 8 x (1 + (7t + 13c) mod 17)
    // floats of each on tile t.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target& target) const override {
        const std::uint64_t phases = std::min(p.getSize("phases"), p.getSize("steps"));
        const std::uint64_t tiles = target.numTiles();
        std::uint64_t elements = 0;
        for (std::uint64_t c = 0; c < phases; ++c) {
            // (7t + 13c) mod 17 runs through 0..16 once every 17 tiles.
            elements += 8 * (tiles + (tiles / 17) * 136);
            for (std::uint64_t t = tiles / 17 * 17; t < tiles; ++t) {
                elements += 8 * ((t * 7 + c * 13) % 17);
            }
        }
        return 2 * 4 * elements;
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t steps = p.getSize("steps"), phases = std::min(p.getSize("phases"), steps);
        const std::size_t tiles = g.getTarget().numTiles();
        program::Sequence body;
        std::vector<Tensor> counters;
        std::vector<std::size_t> sizes;
        for (std::size_t c = 0; c < phases; ++c) {
            // Uneven load: a different size per tile and per phase.
            std::vector<std::size_t> perTile(tiles);
            std::size_t total = 0;
            for (std::size_t t = 0; t < tiles; ++t) {
                perTile[t] = 8 * (1 + (t * 7 + c * 13) % 17);
                total += perTile[t];
            }
            Tensor counter = g.addVariable(Type::Float, {total}, "counter" + std::to_string(c));
            Tensor ones = g.addConstant(Type::Float, {total}, 1.0, "ones" + std::to_string(c));
            g.createHostRead("counter" + std::to_string(c), counter);
            g.setInitialValue(counter, 0.0);
            const ComputeSet cs = g.addComputeSet("phase" + std::to_string(c));
            std::size_t offset = 0;
            for (std::size_t t = 0; t < tiles; ++t) {
                const Tensor mine = counter.slice(offset, offset + perTile[t]);
                g.setTileMapping(mine, record::idAt<TileId>(t));
                // The constant lives on the next tile, so each step exchanges.
                g.setTileMapping(ones.slice(offset, offset + perTile[t]),
                                 record::idAt<TileId>((t + 1) % tiles));
                VertexRef v = g.addVertex(
                    cs, "ScaledAdd<float>",
                    {{"data", mine}, {"deltas", ones.slice(offset, offset + perTile[t])}});
                g.setInitialValue(v["scale"], 1.0);
                g.setTileMapping(v, record::idAt<TileId>(t));
                offset += perTile[t];
            }
            body.add(program::Execute(cs));
            counters.push_back(counter);
            sizes.push_back(total);
        }
        const std::size_t repeats = steps / phases;
        program::Sequence prog{program::Repeat(repeats, body, "stress")};
        Built built;
        built.programs = {prog};
        built.verify = [=](Engine& e) {
            std::vector<double> device, expected;
            for (std::size_t c = 0; c < counters.size(); ++c) {
                const auto v = e.readValues(counters[c]);
                device.insert(device.end(), v.begin(), v.end());
                expected.insert(expected.end(), sizes[c], static_cast<double>(repeats));
            }
            return compare(device, expected, 0, 0,
                           "counters after " + std::to_string(repeats * phases) + " steps");
        };
        return built;
    }
};

} // namespace

const Workload& gatherScatterWorkload() {
    static const GatherScatter w;
    return w;
}
const Workload& stressWorkload() {
    static const Stress w;
    return w;
}

} // namespace tessera::workloads
