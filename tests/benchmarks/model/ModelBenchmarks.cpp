// tessera-model-bench: the model-fidelity microbenchmarks (issue 18,
// docs/model-fidelity.md). Each is a small Poplar program written against
// Tessera's SDK, run on the simulated IPU; its figure is what the engine's
// report says (bytes or FLOPs over the cycles of the step that does the work,
// at the target's clock), beside the published figure it is designed to reach.
// Prints one JSON object a line, as tessera-bench does; `tessera-bench --only
// model` runs this program.
#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <pva/pva.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

bool quick = false;

void printResult(const std::string& name, double value, const std::string& unit, double reference) {
    std::printf("{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"reference\": %.6g, "
                "\"ratio\": %.4g}\n",
                name.c_str(), value, unit.c_str(), reference, value / reference);
    std::fflush(stdout);
}

Device device(const char* version, unsigned numIPUs = 1) {
    IPUModel model(version);
    model.numIPUs = numIPUs;
    return model.createDevice();
}

// The executed steps of the report whose program is named `name` or runs a
// compute set whose name ends with `name`.
std::vector<pva::ExecutionStep> stepsNamed(const pva::Report& report, const std::string& name) {
    std::vector<pva::ExecutionStep> found;
    for (const pva::ExecutionStep& step : report.execution().steps()) {
        bool match = step.program() && step.program()->name().find(name) != std::string::npos;
        for (const pva::ComputeSet& cs : step.computeSets()) {
            const std::string& n = cs.name();
            match = match || (n.size() >= name.size() &&
                              n.compare(n.size() - name.size(), name.size(), name) == 0);
        }
        if (match) {
            found.push_back(step);
        }
    }
    if (found.empty()) {
        throw std::runtime_error("no executed step named '" + name + "' in the report");
    }
    return found;
}

// The cycles a step's slowest tile works (exchange + compute): the step without
// its sync, which is a fixed cost per superstep and not part of the rate.
std::uint64_t workCycles(const pva::ExecutionStep& step) {
    const std::vector<std::uint64_t> tiles = step.cyclesByTile();
    return tiles.empty() ? 0 : *std::max_element(tiles.begin(), tiles.end());
}

// The programs are tests of the SDK too: each checks what it computed or moved
// against the host's own arithmetic and throws, naming the figure, if it differs.
void expect(bool ok, const std::string& what) {
    if (!ok) {
        throw std::runtime_error("wrong result: " + what);
    }
}

void writeFloats(Engine& engine, const std::string& handle, const std::vector<float>& values) {
    engine.writeTensor(handle, values.data(), values.data() + values.size());
}

std::vector<float> readFloats(Engine& engine, const std::string& handle, std::size_t n) {
    std::vector<float> values(n);
    engine.readTensor(handle, values.data(), values.data() + n);
    return values;
}

double clockOf(const pva::Report& report) {
    return report.compilation().target().clockFrequency();
}

// Every tile sends a distinct block to every other tile (src[i][j] lives on
// tile i, dst[j][i] on tile j), so each tile's bytes in and out are equal.
void allToAllExchange() {
    Device dev = device("ipu2");
    Graph graph(dev.getTarget());
    const unsigned tiles = graph.getTarget().getNumTiles();
    const unsigned perPair = 4; // floats each tile sends each other tile
    Tensor src = graph.addVariable(FLOAT, {tiles, tiles, perPair}, "src");
    Tensor dst = graph.addVariable(FLOAT, {tiles, tiles, perPair}, "dst");
    for (unsigned t = 0; t < tiles; ++t) {
        graph.setTileMapping(src[t], t);
        graph.setTileMapping(dst[t], t);
    }
    Sequence prog;
    prog.add(Copy(src, dst.dimShuffle({1, 0, 2}), false, "allToAll"));
    graph.createHostWrite("src", src);
    graph.createHostRead("dst", dst);
    Engine engine(graph, prog);
    engine.load(dev);
    std::vector<float> values(src.numElements());
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>(i); // exact: fewer than 2^24 elements
    }
    writeFloats(engine, "src", values);
    engine.run(0);
    const std::vector<float> got = readFloats(engine, "dst", values.size());
    for (std::size_t i = 0; i < tiles; ++i) {
        for (std::size_t j = 0; j < tiles; ++j) {
            for (std::size_t p = 0; p < perPair; ++p) {
                expect(got[(j * tiles + i) * perPair + p] == values[(i * tiles + j) * perPair + p],
                       "all-to-all: dst[j][i] must be src[i][j]");
            }
        }
    }
    const pva::Report report = engine.getReport();
    const pva::ExecutionStep step = stepsNamed(report, "allToAll").front();
    // Bytes that crossed the exchange: every block but the ones a tile keeps.
    const double bytes = 4.0 * perPair * tiles * (tiles - 1);
    const double seconds = workCycles(step) / clockOf(report);
    printResult("model.mk2.exchange_all_to_all", bytes / seconds, "B/s", 8e12);

    const pva::Target target = report.compilation().target();
    printResult("model.mk2.tiles", static_cast<double>(target.numTiles()), "tiles", 1472);
    printResult("model.mk2.memory", static_cast<double>(target.totalMemory()), "B", 900e6);
}

// Runs `prog` with a[i] = i % ma and b[i] = i % mb, checks c == a + b
// (`what` names the check) and returns the run's report.
pva::Report runSum(Graph& graph, const Sequence& prog, const Device& dev, const Tensor& a,
                   const Tensor& b, const Tensor& c, unsigned ma, unsigned mb,
                   const std::string& what) {
    graph.createHostWrite("a", a);
    graph.createHostWrite("b", b);
    graph.createHostRead("c", c);
    Engine engine(graph, prog);
    engine.load(dev);
    const std::size_t n = a.numElements();
    std::vector<float> av(n), bv(n);
    for (std::size_t i = 0; i < n; ++i) {
        av[i] = static_cast<float>(i % ma);
        bv[i] = static_cast<float>(i % mb);
    }
    writeFloats(engine, "a", av);
    writeFloats(engine, "b", bv);
    engine.run(0);
    const std::vector<float> cv = readFloats(engine, "c", n);
    for (std::size_t i = 0; i < n; ++i) {
        expect(cv[i] == av[i] + bv[i], what + ": c must be a + b");
    }
    return engine.getReport();
}

// Memory-bound sweep: Add<float> vertices, one per worker on every tile, each
// loading two operands and storing one result (12 bytes an element).
void memorySweep(const char* version, const std::string& name, double published) {
    Device dev = device(version);
    Graph graph(dev.getTarget());
    popops::addCodelets(graph);
    const unsigned tiles = graph.getTarget().getNumTiles();
    const unsigned workers = graph.getTarget().getNumWorkerContexts();
    const unsigned perWorker = 2048; // a vertex's 14 fixed cycles are 1.4% of its 1024
    Tensor a = graph.addVariable(FLOAT, {tiles, workers, perWorker}, "a");
    Tensor b = graph.addVariable(FLOAT, {tiles, workers, perWorker}, "b");
    Tensor c = graph.addVariable(FLOAT, {tiles, workers, perWorker}, "c");
    ComputeSet cs = graph.addComputeSet("sweep");
    for (unsigned t = 0; t < tiles; ++t) {
        graph.setTileMapping(a[t], t);
        graph.setTileMapping(b[t], t);
        graph.setTileMapping(c[t], t);
        for (unsigned w = 0; w < workers; ++w) {
            VertexRef v = graph.addVertex(cs, "Add<float>",
                                          {{"in1", a[t][w]}, {"in2", b[t][w]}, {"out", c[t][w]}});
            graph.setTileMapping(v, t);
        }
    }
    Sequence prog;
    prog.add(Execute(cs));
    const pva::Report report = runSum(graph, prog, dev, a, b, c, 7, 5, name);
    const pva::ExecutionStep step = stepsNamed(report, "sweep").front();
    const double bytes = 12.0 * tiles * workers * perWorker;
    printResult(name, bytes / (workCycles(step) / clockOf(report)), "B/s", published);
}

// The same sweep the way a Poplar program usually writes it: popops::add of
// two tensors spread over every tile (the SDK generates a popops::Map codelet).
void popopsAddSweep() {
    Device dev = device("ipu2");
    Graph graph(dev.getTarget());
    popops::addCodelets(graph);
    const unsigned tiles = graph.getTarget().getNumTiles();
    const unsigned perTile = 6 * 2048;
    Tensor a = graph.addVariable(FLOAT, {tiles, perTile}, "a");
    Tensor b = graph.addVariable(FLOAT, {tiles, perTile}, "b");
    for (unsigned t = 0; t < tiles; ++t) {
        graph.setTileMapping(a[t], t);
        graph.setTileMapping(b[t], t);
    }
    Sequence prog;
    const Tensor c = popops::add(graph, a, b, prog, "popopsAdd");
    const pva::Report report = runSum(graph, prog, dev, a, b, c, 11, 3, "popops::add");
    std::uint64_t cycles = 0; // the add's compute step(s): no exchange, operands are local
    for (const pva::ExecutionStep& step : stepsNamed(report, "popopsAdd")) {
        cycles += workCycles(step);
    }
    const double bytes = 12.0 * tiles * perTile;
    printResult("model.mk2.memory_bandwidth_popops_add", bytes / (cycles / clockOf(report)), "B/s",
                47.5e12);
}

struct MatMulShape {
    unsigned m, k, n;
};

// Runs poplin::matMul of an m x k by a k x n matrix and returns its report.
pva::Report runMatMul(const char* version, const Type& type, MatMulShape s) {
    Device dev = device(version);
    Graph graph(dev.getTarget());
    poplin::addCodelets(graph);
    Tensor a = graph.addVariable(type, {s.m, s.k}, "a");
    Tensor b = graph.addVariable(type, {s.k, s.n}, "b");
    poputil::mapTensorLinearly(graph, a);
    poputil::mapTensorLinearly(graph, b);
    Sequence prog;
    const Tensor c = poplin::matMul(graph, a, b, prog, "mm");
    graph.createHostWrite("a", a);
    graph.createHostWrite("b", b);
    graph.createHostRead("c", c);
    Engine engine(graph, prog);
    engine.load(dev);
    // Entries of 0 and 1: every sum is an integer of at most k (2048), exact in
    // half and float whatever the order of the additions.
    std::vector<float> av(std::size_t{s.m} * s.k), bv(std::size_t{s.k} * s.n);
    for (std::size_t i = 0; i < av.size(); ++i) {
        av[i] = static_cast<float>((i * 7 / 3) % 2);
    }
    for (std::size_t i = 0; i < bv.size(); ++i) {
        bv[i] = static_cast<float>((i * 5 / 4) % 2);
    }
    const bool isHalf = type == HALF;
    const auto write = [&](const std::string& handle, const std::vector<float>& v) {
        if (!isHalf) {
            writeFloats(engine, handle, v);
            return;
        }
        std::vector<std::uint16_t> h(v.size());
        copyFloatToDeviceHalf(dev.getTarget(), v.data(), h.data(), v.size());
        engine.writeTensor(handle, h.data(), h.data() + h.size());
    };
    write("a", av);
    write("b", bv);
    engine.run(0);
    std::vector<float> cv(std::size_t{s.m} * s.n);
    if (isHalf) {
        std::vector<std::uint16_t> h(cv.size());
        engine.readTensor("c", h.data(), h.data() + h.size());
        copyDeviceHalfToFloat(dev.getTarget(), h.data(), cv.data(), h.size());
    } else {
        cv = readFloats(engine, "c", cv.size());
    }
    for (std::size_t e = 0; e < cv.size(); e += 997) { // a sample spread over C
        const std::size_t i = e / s.n, j = e % s.n;
        double want = 0;
        for (std::size_t l = 0; l < s.k; ++l) {
            want += double{av[i * s.k + l]} * bv[l * s.n + j];
        }
        expect(cv[e] == want, "matMul: C[" + std::to_string(i) + "][" + std::to_string(j) +
                                  "] must be " + std::to_string(want));
    }
    return engine.getReport();
}

// A matMul shaped so that matMul's plan puts equal blocks on every tile (m a
// multiple of the tile count's odd factor, 23 on mk2 and 19 on mk1, times 96
// rows: 16 rows a worker) with blocks large enough that the AMP work dwarfs a
// vertex's fixed overhead. The figure is the products step's FLOPs over its
// cycles; the whole matMul (block copies, products, reduction, syncs) is
// reported beside it as utilisation of the published peak.
void matMul(const char* version, const Type& type, MatMulShape s, const std::string& name,
            double published) {
    const pva::Report report = runMatMul(version, type, s);
    const double flops = 2.0 * s.m * s.k * s.n;
    const double clock = clockOf(report);
    const pva::ExecutionStep products = stepsNamed(report, "mm/products").front();
    printResult(name, flops / (workCycles(products) / clock), "FLOP/s", published);
    const pva::Run run = report.execution().runs().front();
    printResult(name + ".whole_matmul", flops / (run.cycles() / clock), "FLOP/s", published);
}

// Square matMuls on mk2: the whole operation's FLOPs over its run's cycles,
// as a fraction of the published peak (docs/model-fidelity.md compares it with
// published PopLibs measurements).
void matMulUtilisation(const Type& type, const std::string& typeName, double peak) {
    for (unsigned size : {256u, 512u, 1024u, 2048u}) {
        const pva::Report report = runMatMul("ipu2", type, {size, size, size});
        const double flops = 2.0 * size * size * size;
        const double seconds = report.execution().runs().front().cycles() / clockOf(report);
        printResult("model.mk2.matmul_" + typeName + "_" + std::to_string(size) + ".utilisation",
                    flops / seconds, "FLOP/s", peak);
    }
}

// IPU 0's tiles send a tensor to IPU 1's tiles over the IPU-Links.
void ipuToIpu() {
    Device dev = device("ipu2", 2);
    Graph graph(dev.getTarget());
    const unsigned perIpu = graph.getTarget().getTilesPerIPU();
    const unsigned perTile = 2048; // floats each tile of IPU 0 sends
    Tensor src = graph.addVariable(FLOAT, {perIpu, perTile}, "src");
    Tensor dst = graph.addVariable(FLOAT, {perIpu, perTile}, "dst");
    for (unsigned t = 0; t < perIpu; ++t) {
        graph.setTileMapping(src[t], t);
        graph.setTileMapping(dst[t], perIpu + t);
    }
    Sequence prog;
    prog.add(Copy(src, dst, false, "ipuToIpu"));
    graph.createHostWrite("src", src);
    graph.createHostRead("dst", dst);
    Engine engine(graph, prog);
    engine.load(dev);
    std::vector<float> values(src.numElements());
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>(i);
    }
    writeFloats(engine, "src", values);
    engine.run(0);
    expect(readFloats(engine, "dst", values.size()) == values, "IPU-to-IPU copy: dst must be src");
    const pva::Report report = engine.getReport();
    const pva::ExecutionStep step = stepsNamed(report, "ipuToIpu").front();
    const double bytes = 4.0 * perIpu * perTile;
    printResult("model.mk2.ipu_link", bytes / (workCycles(step) / clockOf(report)), "B/s", 320e9);
}

// A host-to-device stream filling a tensor spread over every tile.
void hostStream() {
    Device dev = device("ipu2");
    Graph graph(dev.getTarget());
    const unsigned tiles = graph.getTarget().getNumTiles();
    const unsigned perTile = 2048;
    Tensor t = graph.addVariable(FLOAT, {tiles, perTile}, "t");
    for (unsigned i = 0; i < tiles; ++i) {
        graph.setTileMapping(t[i], i);
    }
    DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, t.numElements());
    graph.createHostRead("t", t);
    Sequence prog;
    prog.add(Copy(in, t, false, "hostStream"));
    Engine engine(graph, prog);
    engine.load(dev);
    std::vector<float> host(t.numElements());
    for (std::size_t i = 0; i < host.size(); ++i) {
        host[i] = static_cast<float>(i);
    }
    engine.connectStream("in", host.data(), host.data() + host.size());
    engine.run(0);
    expect(readFloats(engine, "t", host.size()) == host, "host stream: t must be what was sent");
    const pva::Report report = engine.getReport();
    const pva::ExecutionStep step = stepsNamed(report, "hostStream").front();
    const double bytes = 4.0 * tiles * perTile;
    printResult("model.mk2.host_stream", bytes / (workCycles(step) / clockOf(report)), "B/s", 64e9);
}

void mk1Capacity() {
    Device dev = device("ipu1");
    Graph graph(dev.getTarget());
    Tensor x = graph.addVariable(FLOAT, {1}, "x");
    graph.setTileMapping(x, 0);
    Sequence prog;
    prog.add(Copy(x, x, false, "nothing"));
    Engine engine(graph, prog);
    engine.load(dev);
    engine.run(0);
    const pva::Target target = engine.getReport().compilation().target();
    printResult("model.mk1.tiles", static_cast<double>(target.numTiles()), "tiles", 1216);
    printResult("model.mk1.memory", static_cast<double>(target.totalMemory()), "B",
                304.0 * 1024 * 1024);
}

} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") {
            quick = true;
        } else {
            std::cerr << "usage: tessera-model-bench [--quick]\n";
            return 2;
        }
    }
    try {
        allToAllExchange();
        memorySweep("ipu2", "model.mk2.memory_bandwidth", 47.5e12);
        memorySweep("ipu1", "model.mk1.memory_bandwidth", 45e12);
        popopsAddSweep();
        matMul("ipu2", HALF, {2208, 2048, 1024}, "model.mk2.matmul_fp16", 250e12);
        matMul("ipu2", FLOAT, {2208, 2048, 1024}, "model.mk2.matmul_fp32", 62.5e12);
        matMul("ipu1", HALF, {1824, 1024, 1024}, "model.mk1.matmul_mixed", 124.5e12);
        matMul("ipu1", FLOAT, {1824, 1024, 512}, "model.mk1.matmul_fp32", 31.1e12);
        ipuToIpu();
        hostStream();
        mk1Capacity();
        if (!quick) { // not bounded: reported beside published PopLibs figures
            matMulUtilisation(HALF, "fp16", 250e12);
            matMulUtilisation(FLOAT, "fp32", 62.5e12);
        }
    } catch (const std::exception& e) {
        std::cerr << "tessera-model-bench: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
