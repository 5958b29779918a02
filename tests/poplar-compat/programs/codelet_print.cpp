// A codelet's printf (<print.h>) goes to Engine::setPrintStream's stream:
// per engine, one line per vertex, tile by tile (vertices on one tile in the
// order they were added) whatever the engine's thread count; without a print
// stream, to standard output. Eight vertices on four tiles, added in an order
// that is not tile order.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <sstream>
#include <string>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("print_codelets.cpp");
    ComputeSet cs = graph.addComputeSet("say");
    for (int v = 0; v < 8; ++v) {
        const unsigned tile = 3 - unsigned(v % 4); // vertex 0 on tile 3, 3 on tile 0, ...
        Tensor tag = graph.addConstant<int>(INT, {}, {v});
        Tensor value = graph.addConstant<float>(FLOAT, {}, {0.25f * float(v)});
        graph.setTileMapping(tag, tile);
        graph.setTileMapping(value, tile);
        VertexRef vx = graph.addVertex(cs, "Say", {{"tag", tag}, {"value", value}});
        graph.setTileMapping(vx, tile);
    }
    Sequence prog({Execute(cs)});

    Engine first(graph, prog);
    Engine second(graph, prog);
    first.load(device);
    second.load(device);
    std::ostringstream firstStream, secondStream;
    first.setPrintStream(firstStream);
    second.setPrintStream(secondStream);
    std::cout << "before any run\n";
    first.run(0);
    std::cout << "first engine's stream:\n" << firstStream.str();
    std::cout << "second engine's stream before its run: '" << secondStream.str() << "'\n";
    second.run(0);
    second.run(0);
    std::cout << "second engine's stream after two runs:\n" << secondStream.str();

    Engine plain(graph, prog);
    plain.load(device);
    std::cout << "an engine without a print stream:\n" << std::flush;
    plain.run(0);
    std::cout << "done\n";
    return 0;
}
