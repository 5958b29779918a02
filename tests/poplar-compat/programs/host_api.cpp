// Devices, targets, streams (buffers and callbacks), several programs,
// compileGraph, tensor views, exceptions, options and the profile summary,
// with codelets precompiled by popc.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

#include <iostream>
#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

class Counter : public StreamCallback {
public:
    Counter(float start, int* fetches, int* completes)
        : next_(start)
        , fetches_(fetches)
        , completes_(completes) {}
    Result prefetch(void*) override { return Result::NotAvailable; }
    void fetch(void* p) override {
        float* f = static_cast<float*>(p);
        for (int i = 0; i < 4; ++i) {
            f[i] = next_ + float(i);
        }
        next_ += 10;
        ++*fetches_;
    }
    void complete() override { ++*completes_; }

private:
    float next_;
    int* fetches_;
    int* completes_;
};

class Collect : public LegacyStreamCallback {
public:
    explicit Collect(std::vector<float>* out)
        : out_(out) {}
    void fetch(void* p) override {
        const float* f = static_cast<const float*>(p);
        out_->insert(out_->end(), f, f + 4);
    }

private:
    std::vector<float>* out_;
};

static void printTarget(const char* name, const Target& t) {
    std::cout << name << ": tiles " << t.getNumTiles() << " per IPU " << t.getTilesPerIPU()
              << " workers " << t.getNumWorkerContexts() << " exchange "
              << t.getExchangeBytesPerCycle() << " bytes " << t.getBytesPerTile() << " clock "
              << t.getTileClockFrequency() << "\n";
}

int main() {
    IPUModel mk1("ipu1");
    printTarget("ipu1", mk1.createDevice().getTarget());
    IPUModel mk2("ipu2");
    std::cout << "ipu2 model fields: " << mk2.numIPUs << " " << mk2.tilesPerIPU << " "
              << mk2.memoryBytesPerTile << " " << mk2.numWorkerContexts << "\n";
    mk2.minIPUSyncDelay = 0;
    mk2.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
    printTarget("ipu2", mk2.createDevice().getTarget());

    DeviceManager manager = DeviceManager::createDeviceManager();
    std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
    Device device;
    for (auto& d : devices) {
        if (d.attach()) {
            device = std::move(d);
            break;
        }
    }
    std::cout << "attached device " << device.getId() << "\n";

    IPUModel small;
    small.tilesPerIPU = 4;
    Device dev = small.createDevice();
    Graph graph(dev);
    graph.addCodelets("host_codelets.gp");

    // Streams in and out, 4 floats a transfer.
    Tensor x = graph.addVariable(FLOAT, {4}, "x");
    Tensor y = graph.addVariable(FLOAT, {4}, "y");
    graph.setTileMapping(x, 0);
    graph.setTileMapping(y, 1);
    DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
    DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);
    ComputeSet cs = graph.addComputeSet("addOne");
    VertexRef v = graph.addVertex(cs, "AddOne", {{"in", x}, {"out", y}});
    graph.setTileMapping(v, 1);
    ComputeSet dcs = graph.addComputeSet("double");
    VertexRef dv = graph.addVertex(dcs, "DoubleAll", {{"data", y}});
    graph.setTileMapping(dv, 1);

    // A registered estimator sees the vertex's field sizes.
    static std::size_t seenInSize = 0;
    graph.registerPerfEstimator("AddOne", [](const VertexIntrospector& vi, const Target& tgt) {
        seenInSize = vi.getFieldInfo("in").size();
        return VertexPerfEstimate(10 + seenInSize * tgt.getNumWorkerContexts());
    });

    std::vector<Program> progs;
    progs.push_back(Sequence{Copy(in, x), Block(Execute(cs), "add one"), Copy(y, out)});
    Program second;
    second = Sequence({Copy(in, x), Execute(cs), Execute(dcs), Copy(y, out)});
    progs.push_back(second);

    Engine engine(graph, progs, OptionFlags{{"debug.instrument", "true"}});
    engine.load(dev);
    std::cout << "estimator saw " << seenInSize << " elements\n";

    // A circular buffer of two transfers, its position carried across runs.
    std::vector<float> inBuf = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<float> outBuf(4);
    engine.connectStream("in", inBuf.data(), inBuf.data() + inBuf.size());
    engine.connectStream("out", outBuf.data());
    for (int r = 0; r < 3; ++r) {
        engine.run(0);
        std::cout << "run " << r << ":";
        for (float f : outBuf) {
            std::cout << " " << f;
        }
        std::cout << "\n";
    }
    // Callbacks replace the buffers.
    int fetches = 0, completes = 0;
    std::vector<float> collected;
    engine.connectStreamToCallback(
        "in", std::unique_ptr<StreamCallback>(new Counter(100, &fetches, &completes)));
    engine.connectStreamToCallback("out", std::unique_ptr<StreamCallback>(new Collect(&collected)));
    engine.run(1);
    engine.run(1);
    std::cout << "callbacks: " << fetches << " fetches, " << completes << " completes;";
    for (float f : collected) {
        std::cout << " " << f;
    }
    std::cout << "\n";
    std::vector<float> viaLambda;
    engine.connectStreamToCallback("out", [&viaLambda](void* p) {
        const float* f = static_cast<const float*>(p);
        viaLambda.assign(f, f + 4);
    });
    engine.run(0);
    std::cout << "lambda: " << viaLambda[0] << " " << viaLambda[3] << "\n";

    // The profile summary has its sections.
    std::ostringstream summary;
    engine.printProfileSummary(summary, {{"showExecutionSteps", "true"}});
    const std::string s = summary.str();
    std::cout << "summary sections:"
              << (s.find("Memory Usage:") != std::string::npos ? " memory" : "")
              << (s.find("Execution:") != std::string::npos ? " execution" : "")
              << (s.find("Steps (cycles") != std::string::npos ? " steps" : "") << "\n";

    // Tensor views.
    Graph g2(dev.getTarget());
    Tensor t = g2.addVariable(INT, {2, 3, 4}, "t");
    g2.setTileMapping(t, 0);
    Tensor scalar = g2.addVariable(FLOAT, {}, "scalar");
    g2.setTileMapping(scalar, 0);
    std::cout << "rank " << t.rank() << " dims " << t.dim(0) << "x" << t.dim(1) << "x" << t.dim(2)
              << " elements " << t.numElements() << " scalar rank " << scalar.rank() << " elements "
              << scalar.numElements() << "\n";
    Tensor sl = t.slice({0, 1, 1}, {2, 3, 3});
    Tensor shuffled = t.dimShuffle({2, 0, 1});
    Tensor joined = concat(t[0], t[1], 1);
    std::cout << "slice " << sl.shapeToString() << " shuffle " << shuffled.shapeToString()
              << " concat " << joined.shapeToString() << " reshape "
              << t.reshape({6, 4}).shapeToString() << " flatten " << t.flatten().numElements()
              << " element rank " << t[1][2][3].rank() << "\n";
    const std::vector<std::size_t> shape = t[0].transpose().shape(); // {3,4} transposed
    std::cout << "shape";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        std::cout << " " << shape[i];
    }
    std::cout << "\n";

    // Values through views: write iota, read back a transposed slice.
    Tensor w = g2.addVariable(INT, {2, 3}, "w");
    g2.setTileMapping(w, 1);
    g2.createHostWrite("w", w);
    Tensor wt = g2.addVariable(INT, {3, 2}, "wt");
    g2.setTileMapping(wt, 2);
    Tensor flat6 = g2.addVariable(INT, {6}, "flat6");
    g2.setTileMapping(flat6, 3);
    Sequence views{Copy(w.transpose(), wt), Copy(w, flat6), PrintTensor("wt", wt),
                   PrintTensor("flat6", flat6), PrintTensor("w col 1", w.slice(1, 2, 1))};
    Executable exe = compileGraph(g2, {views});
    Engine e2(std::move(exe));
    e2.load(dev);
    std::vector<int> wv = {1, 2, 3, 4, 5, 6};
    e2.writeTensor("w", wv.data(), wv.data() + wv.size());
    e2.run();

    // Errors are poplar_error (and graph_memory_allocation_error for memory).
    try {
        Graph g3(dev.getTarget());
        ComputeSet c3 = g3.addComputeSet();
        VertexRef bad = g3.addVertex(c3, "AddOne");
        (void)bad;
    } catch (const poplar_error& e) {
        std::cout << "caught poplar_error for an unknown vertex type\n";
    }
    try {
        IPUModel tiny;
        tiny.tilesPerIPU = 2;
        tiny.memoryBytesPerTile = 4096;
        Graph g4(tiny.createDevice().getTarget());
        Tensor big = g4.addVariable(FLOAT, {2048}, "big");
        g4.setTileMapping(big, 0);
        g4.createHostRead("big", big);
        Engine e4(g4, Sequence());
        std::cout << "no error?\n";
    } catch (const graph_memory_allocation_error& e) {
        std::cout << "caught graph_memory_allocation_error\n";
    }
    {
        IPUModel tiny;
        tiny.tilesPerIPU = 2;
        tiny.memoryBytesPerTile = 4096;
        Graph g5(tiny.createDevice().getTarget());
        Tensor big = g5.addVariable(FLOAT, {2048}, "big");
        g5.setTileMapping(big, 0);
        g5.createHostRead("big", big);
        Engine e5(g5, Sequence(), {{"debug.allowOutOfMemory", "true"}});
        e5.run(0);
        std::cout << "ran out of memory with debug.allowOutOfMemory\n";
    }
    try {
        Graph g6(dev.getTarget());
        Tensor u = g6.addVariable(FLOAT, {2}, "unmapped");
        Engine e6(g6, Sequence{PrintTensor("u", u)});
    } catch (const poplar_error& e) {
        std::cout << "caught poplar_error for an unmapped tensor\n";
    }
    return 0;
}
