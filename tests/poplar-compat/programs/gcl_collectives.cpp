// gcl collectives within a replica on graphs of 2 and 3 IPUs, property-based:
// random shapes and values, slice i of the data on IPU i; every result
// compared with a host reduction, and its slices checked to sit on their own
// IPU; each CollectiveOperator (float, int, bool); the in-place and
// to-destination forms; reduceScatter's uneven chunks and allGather of them;
// the errors.
#include "poplin_check.h"

#include <gcl/Collectives.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>

using namespace poplar;
using namespace poplar::program;
using gcl::CollectiveOperator;

namespace {

typedef std::vector<double> Values;

int failures = 0;

// Maps slice i of data (outer dimension) linearly over IPU i's tiles.
void mapPerIpu(Graph& graph, const Tensor& data, unsigned tilesPerIpu) {
    for (std::size_t i = 0; i < data.dim(0); ++i) {
        Tensor flat = data[i].flatten();
        const std::size_t n = flat.numElements();
        for (unsigned t = 0; t < tilesPerIpu; ++t) {
            const std::size_t b = n * t / tilesPerIpu, e = n * (t + 1) / tilesPerIpu;
            if (b < e) {
                graph.setTileMapping(flat.slice(b, e), static_cast<unsigned>(i * tilesPerIpu + t));
            }
        }
    }
}

// Whether every element of t is on a tile of IPU `ipu`.
bool onIpu(const Graph& graph, const Tensor& t, unsigned ipu, unsigned tilesPerIpu) {
    const TileToTensorMapping m = graph.getTileMapping(t);
    std::size_t mapped = 0;
    for (std::size_t tile = 0; tile < m.size(); ++tile) {
        for (std::size_t r = 0; r < m[tile].size(); ++r) {
            if (tile / tilesPerIpu != ipu) {
                return false;
            }
            mapped += m[tile][r].size();
        }
    }
    return mapped == t.numElements();
}

double reduce(CollectiveOperator op, const Values& xs) {
    double r = op == CollectiveOperator::MUL || op == CollectiveOperator::LOGICAL_AND ? 1 : 0;
    if (op == CollectiveOperator::MIN || op == CollectiveOperator::MAX) {
        r = xs[0];
    }
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double x = xs[i];
        switch (op) {
        case CollectiveOperator::ADD:
        case CollectiveOperator::MEAN:
            r += x;
            break;
        case CollectiveOperator::MUL:
            r *= x;
            break;
        case CollectiveOperator::MIN:
            r = std::min(r, x);
            break;
        case CollectiveOperator::MAX:
            r = std::max(r, x);
            break;
        case CollectiveOperator::SQUARE_ADD:
            r += x * x;
            break;
        case CollectiveOperator::LOGICAL_AND:
            r = r && x;
            break;
        case CollectiveOperator::LOGICAL_OR:
            r = r || x;
            break;
        default:
            break;
        }
    }
    return op == CollectiveOperator::MEAN ? r / static_cast<double>(xs.size()) : r;
}

// The reduction of the n rows of data (n x row), per element.
Values reduceRows(CollectiveOperator op, const Values& data, std::size_t n) {
    const std::size_t row = data.size() / n;
    Values out(row);
    for (std::size_t j = 0; j < row; ++j) {
        Values xs(n);
        for (std::size_t i = 0; i < n; ++i) {
            xs[i] = data[i * row + j];
        }
        out[j] = reduce(op, xs);
    }
    return out;
}

Values repeat(const Values& v, std::size_t times) {
    Values out;
    for (std::size_t i = 0; i < times; ++i) {
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

template <typename F>
void expectError(const std::string& label, F f) {
    try {
        f();
        std::cout << label << ": MISSING ERROR\n";
        ++failures;
    } catch (const poputil::poplibs_error& e) {
        std::cout << label << ": " << e.what() << "\n";
    } catch (const poplar::poplar_error& e) {
        std::cout << label << ": poplar_error: " << e.what() << "\n";
    }
}

void mappingLine(const std::string& label, bool ok) {
    std::cout << label << (ok ? ": ok" : ": WRONG IPU") << "\n";
    failures += ok ? 0 : 1;
}

void run(unsigned ipus, Lcg& rng) {
    const unsigned tiles = 4;
    IPUModel model;
    model.numIPUs = ipus;
    model.tilesPerIPU = tiles;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Sequence prog;
    Checks checks(graph);
    const std::string on = " (" + std::to_string(ipus) + " IPUs)";

    // Each operator on float data of a random shape.
    const CollectiveOperator ops[] = {CollectiveOperator::ADD, CollectiveOperator::MEAN,
                                      CollectiveOperator::MUL, CollectiveOperator::MIN,
                                      CollectiveOperator::MAX, CollectiveOperator::SQUARE_ADD};
    for (std::size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o) {
        std::vector<std::size_t> shape;
        shape.push_back(ipus);
        shape.push_back(rng.range(1, 5));
        shape.push_back(rng.range(1, 6));
        const std::size_t n = shape[1] * shape[2] * ipus;
        Values v(n);
        std::vector<float> f(n);
        for (std::size_t i = 0; i < n; ++i) {
            f[i] = static_cast<float>(v[i] = rng.eighth());
        }
        Tensor data = graph.addConstant<float>(FLOAT, shape, f);
        mapPerIpu(graph, data, tiles);
        Tensor out = gcl::allReduceWithinReplica(graph, data, ops[o], prog, "allReduce");
        std::ostringstream label;
        label << "allReduceWithinReplica " << ops[o] << " float " << shapeOf(shape) << on;
        checks.expect(label.str(), out, repeat(reduceRows(ops[o], v, ipus), ipus), 1e-6);
        bool mapped = true;
        for (unsigned i = 0; i < ipus; ++i) {
            mapped = mapped && onIpu(graph, out[i], i, tiles);
        }
        mappingLine(label.str() + ": slice i on IPU i", mapped);
    }

    // int and bool.
    {
        const std::size_t row = rng.range(2, 9);
        std::vector<int> iv(ipus * row);
        std::vector<unsigned char> bv(ipus * row);
        Values id(iv.size()), bd(bv.size());
        for (std::size_t i = 0; i < iv.size(); ++i) {
            id[i] = iv[i] = rng.range(-50, 50);
            bd[i] = bv[i] = static_cast<unsigned char>(rng.range(0, 3) != 0);
        }
        Tensor ints = graph.addConstant<int>(INT, {ipus, row}, iv);
        mapPerIpu(graph, ints, tiles);
        checks.expect("allReduceWithinReplica ADD int" + on,
                      gcl::allReduceWithinReplica(graph, ints, CollectiveOperator::ADD, prog),
                      repeat(reduceRows(CollectiveOperator::ADD, id, ipus), ipus));
        checks.expect("allReduceWithinReplica MAX int" + on,
                      gcl::allReduceWithinReplica(graph, ints, CollectiveOperator::MAX, prog),
                      repeat(reduceRows(CollectiveOperator::MAX, id, ipus), ipus));
        Tensor b = graph.addVariable(BOOL, {ipus, row}, "bools");
        mapPerIpu(graph, b, tiles);
        // The booleans are written from the host after loading.
        graph.createHostWrite("bools", b);
        checks.expect("allReduceWithinReplica LOGICAL_AND bool" + on,
                      gcl::allReduceWithinReplica(graph, b, CollectiveOperator::LOGICAL_AND, prog),
                      repeat(reduceRows(CollectiveOperator::LOGICAL_AND, bd, ipus), ipus));
        checks.expect("allReduceWithinReplica LOGICAL_OR bool" + on,
                      gcl::allReduceWithinReplica(graph, b, CollectiveOperator::LOGICAL_OR, prog),
                      repeat(reduceRows(CollectiveOperator::LOGICAL_OR, bd, ipus), ipus));

        // In place and to a destination.
        Tensor x = graph.addVariable(FLOAT, {ipus, row}, "x");
        mapPerIpu(graph, x, tiles);
        Values xv(ipus * row);
        std::vector<float> xf(xv.size());
        for (std::size_t i = 0; i < xv.size(); ++i) {
            xf[i] = static_cast<float>(xv[i] = rng.eighth());
        }
        Tensor xc = graph.addConstant<float>(FLOAT, {ipus, row}, xf);
        mapPerIpu(graph, xc, tiles);
        prog.add(Copy(xc, x));
        Tensor dest = graph.addVariable(FLOAT, {ipus, row}, "dest");
        mapPerIpu(graph, dest, tiles);
        gcl::allReduceToDestinationWithinReplica(graph, x, dest, CollectiveOperator::MAX, prog);
        gcl::allReduceInPlaceWithinReplica(graph, x, CollectiveOperator::ADD, prog);
        checks.expect("allReduceToDestinationWithinReplica MAX" + on, dest,
                      repeat(reduceRows(CollectiveOperator::MAX, xv, ipus), ipus));
        checks.expect("allReduceInPlaceWithinReplica ADD" + on, x,
                      repeat(reduceRows(CollectiveOperator::ADD, xv, ipus), ipus));

        // reduceScatter, then allGather of its chunks gives the allReduce.
        const std::size_t len = rng.range(ipus + 1, 4 * ipus + 1);
        Values sv(ipus * len);
        std::vector<float> sf(sv.size());
        for (std::size_t i = 0; i < sv.size(); ++i) {
            sf[i] = static_cast<float>(sv[i] = rng.eighth());
        }
        Tensor s = graph.addConstant<float>(FLOAT, {ipus, len}, sf);
        mapPerIpu(graph, s, tiles);
        const gcl::Chunks chunks =
            gcl::reduceScatterWithinReplica(graph, s, CollectiveOperator::ADD, prog, "rs");
        const Values sum = reduceRows(CollectiveOperator::ADD, sv, ipus);
        std::cout << "reduceScatterWithinReplica {" << ipus << "," << len << "} chunks:";
        bool mapped = true;
        for (std::size_t c = 0; c < chunks.chunks.size(); ++c) {
            const gcl::Chunk& chunk = chunks.chunks[c];
            std::cout << " [" << chunk.index << "]@" << chunk.offset << "+"
                      << chunk.tensor.numElements();
            mapped = mapped && onIpu(graph, chunk.tensor, chunk.index, tiles);
            checks.expect("  chunk " + std::to_string(c) + on, chunk.tensor,
                          Values(sum.begin() + chunk.offset,
                                 sum.begin() + chunk.offset + chunk.tensor.numElements()));
        }
        std::cout << "\n";
        mappingLine("  chunk i on IPU i", mapped);
        Tensor gathered = gcl::allGatherWithinReplica(graph, chunks, prog, "ag");
        checks.expect("allGatherWithinReplica of the chunks " + shapeOf(gathered.shape()) + on,
                      gathered, repeat(sum, ipus));
        bool gmapped = true;
        for (unsigned i = 0; i < ipus; ++i) {
            gmapped = gmapped && onIpu(graph, gathered[i], i, tiles);
        }
        mappingLine("  gathered slice i on IPU i", gmapped);
        Tensor all = gcl::allGatherWithinReplica(graph, xc, prog, "agT");
        checks.expect("allGatherWithinReplica of a tensor " + shapeOf(all.shape()) + on, all,
                      repeat(xv, ipus));

        Sequence scratch;
        expectError("wrong outer dimension", [&] {
            gcl::allReduceWithinReplica(graph, xc.slice(0, 1, 0), CollectiveOperator::ADD, scratch);
        });
        expectError("slice on the wrong IPU", [&] {
            Tensor t = graph.addVariable(FLOAT, {ipus, 2}, "wrong");
            for (unsigned i = 0; i < ipus; ++i) {
                graph.setTileMapping(t[i], ((i + 1) % ipus) * tiles);
            }
            gcl::allReduceWithinReplica(graph, t, CollectiveOperator::ADD, scratch);
        });
        expectError("LOCAL", [&] {
            gcl::allReduceWithinReplica(graph, xc, CollectiveOperator::LOCAL, scratch);
        });

        Engine engine(graph, prog);
        engine.load(device);
        engine.writeTensor("bools", bv.data(), bv.data() + bv.size());
        engine.run(0);
        failures += checks.report(engine);
    }
}

} // namespace

int main() {
    Lcg rng(4242);
    std::istringstream in("MEAN");
    CollectiveOperator op;
    in >> op;
    std::cout << "CollectiveOperator parsed and printed: " << op << "\n";
    expectError("unknown operator name", [&] {
        std::istringstream bad("AVERAGE");
        bad >> op;
    });
    run(2, rng);
    run(3, rng);
    return failures == 0 ? 0 : 1;
}
