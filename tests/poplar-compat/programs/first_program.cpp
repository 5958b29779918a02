// A first program in the shape of Graphcore's public tutorial 1 (full-size
// ipu2 model, constants, slices, a host-to-device FIFO, popops::add).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>

#include <algorithm>
using namespace poplar;
int main() {
    IPUModel ipuModel;
    Device device = ipuModel.createDevice();
    Target target = device.getTarget();
    Graph graph(target);
    Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
    Tensor v3 = graph.addVariable(FLOAT, {4, 4}, "v3");
    for (unsigned i = 0; i < 4; ++i)
        graph.setTileMapping(v1[i], i);
    graph.setTileMapping(v3, 0);
    Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
    graph.setTileMapping(c1, 0);
    program::Sequence prog;
    prog.add(program::Copy(c1, v1));
    prog.add(program::PrintTensor("v1-debug", v1));
    Tensor v1slice = v1.slice(0, 3);
    Tensor v3slice = v3.slice({1, 1}, {2, 4});
    prog.add(program::Copy(v1slice, v3slice));
    Tensor v4 = graph.addVariable(INT, {10}, "v4");
    graph.setTileMapping(v4, 1);
    DataStream inStream = graph.addHostToDeviceFIFO("v4-input-stream", INT, 10);
    prog.add(program::Copy(inStream, v4));
    prog.add(program::PrintTensor("v4-0", v4));
    prog.add(program::Copy(inStream, v4));
    prog.add(program::PrintTensor("v4-1", v4));
    Tensor v5 = popops::add(graph, v1, v1, prog, "Add");
    prog.add(program::PrintTensor("v5", v5));
    graph.createHostRead("v3-read", v3);
    Engine engine(graph, prog);
    engine.load(device);
    std::vector<int> inData(10 * 3);
    for (unsigned i = 0; i < 10 * 3; ++i)
        inData[i] = i;
    engine.connectStream("v4-input-stream", &inData[0], &inData[10 * 3]);
    engine.run(0);
    std::vector<float> h3(16);
    engine.readTensor("v3-read", h3.data(), h3.data() + h3.size());
    for (unsigned i = 0; i < 4; ++i) {
        for (unsigned j = 0; j < 4; ++j)
            std::cout << h3[i * 4 + j] << " ";
        std::cout << "\n";
    }
    return 0;
}
