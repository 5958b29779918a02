// A saved mk2 executable keeps its target's memory regions (interleaved and
// not): run directly and after a serialize/deserialize round trip, each with
// autoReport into its own directory; the test compares the two reports'
// regions tables.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <sstream>
#include <string>

using namespace poplar;
using namespace poplar::program;

static void run(bool roundTrip) {
    IPUModel model("ipu2");
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor x = graph.addVariable(FLOAT, {70000}, "x");
    Tensor y = graph.addVariable(FLOAT, {70000}, "y");
    graph.setTileMapping(x, 0);
    graph.setTileMapping(y, 0);
    Executable exe = compileGraph(graph, {Sequence{Copy(x, y)}});
    if (roundTrip) {
        std::stringstream saved;
        exe.serialize(saved);
        exe = Executable::deserialize(saved);
    }
    const std::string dir = roundTrip ? "loaded" : "direct";
    Engine engine(std::move(exe),
                  OptionFlags{{"autoReport.all", "true"}, {"autoReport.directory", dir}});
    engine.load(device);
    engine.run(0);
    std::cout << "ran " << dir << "\n";
}

int main() {
    run(false);
    run(true);
    return 0;
}
