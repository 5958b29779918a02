// A lightweight-profiling program as a PopVision user writes one: a Block
// around a stage run three times, stream copies in and out, a named engine.
// autoReport (from POPLAR_ENGINE_OPTIONS) writes profile.pop; the program
// then prints what engine.getReport() says about blocks, as Graphcore's
// lightweight-profiling tutorial does.
//
// Hand-derived: 4 tiles, x = 8 floats, 2 per tile; the compute set "twice"
// has one Twice vertex per tile with setPerfEstimate 100, 200, 300, 400.
// profiler.blocks.implicitFlush is on (the default): the Repeat's body holds
// the instrumented Block, so a block flush (a Sync of ipuSyncCycles = 150)
// ends each of its 3 iterations, shown on every tile (instrumentExternal-
// Exchange); the report has 8 steps (2 stream copies, 3 Executes, 3 flushes)
// and 2 Sequences (the flush wraps the Repeat's body in one).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("pipeline_codelets.cpp");

    Tensor x = graph.addVariable(FLOAT, {8}, "x");
    ComputeSet cs = graph.addComputeSet("twice");
    for (unsigned tile = 0; tile < 4; ++tile) {
        graph.setTileMapping(x.slice(2 * tile, 2 * tile + 2), tile);
        VertexRef v = graph.addVertex(cs, "Twice", {{"x", x.slice(2 * tile, 2 * tile + 2)}});
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, 100 * (tile + 1));
    }
    DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 8);
    DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 8);

    Sequence prog{Copy(in, x), Repeat(3, Block(Execute(cs), "stage")), Copy(x, out)};

    OptionFlags options{{"debug.name", "pipeline"},
                        {"profiler.blocks.filter", "stage"},
                        {"debug.instrumentExternalExchange", "true"}};
    Engine engine(graph, prog, options);
    engine.load(device);
    std::vector<float> input{1, 2, 3, 4, 5, 6, 7, 8}, output(8);
    engine.connectStream("in", input.data());
    engine.connectStream("out", output.data());
    engine.run(0);
    std::cout << "output:";
    for (float f : output) {
        std::cout << " " << f;
    }
    std::cout << "\n";

    pva::Report report = engine.getReport();
    for (unsigned tile = 0; tile < 4; ++tile) {
        for (const pva::Block& block : report.execution().blocks(tile)) {
            const auto from = block.cyclesFrom();
            const auto to = block.cyclesTo();
            std::cout << "tile " << tile << " ";
            if (block.isStreamCopy()) {
                std::cout << pva::typeName(block.program()->type());
            } else {
                std::cout << block.program()->name();
            }
            std::cout << ": " << (to - from) << "\n";
        }
    }
    std::cout << "report path: " << engine.getReportPath() << "\n";
    return 0;
}
