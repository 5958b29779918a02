// POPLAR_ENGINE_OPTIONS autoReport: the engine writes a Tessera report that
// tessera-cli opens; printProfileSummary without options.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor v = graph.addConstant<float>(FLOAT, {8}, {1, 2, 3, 4, 5, 6, 7, 8}, "v");
    poputil::mapTensorLinearly(graph, v);
    Sequence prog;
    Tensor sq = popops::mul(graph, v, v, prog, "square");
    prog.add(PrintTensor("squares", sq));
    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    std::ostringstream summary;
    engine.printProfileSummary(summary);
    std::cout << (summary.str().find("Memory Usage:") != std::string::npos &&
                          summary.str().find("Execution:") != std::string::npos
                      ? "summary ok"
                      : "summary missing sections")
              << "\n";
    return 0;
}
