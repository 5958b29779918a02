// compileGraph, Executable::serialize to a file, then, with the graph gone,
// Executable::deserialize and run: runtime-compiled codelets, popops'
// integer codelets, streams, host handles and constants come back.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static void build(const Target& target) {
    Graph graph(target);
    graph.addCodelets("basic_codelets.cpp");
    Tensor in = graph.addVariable(FLOAT, {4}, "in");
    Tensor sums = graph.addVariable(FLOAT, {2}, "sums");
    graph.setTileMapping(in, 0);
    graph.setTileMapping(sums, 1);
    ComputeSet cs = graph.addComputeSet("sum");
    for (unsigned i = 0; i < 2; ++i) {
        VertexRef v = graph.addVertex(cs, "SumVertex",
                                      {{"in", in.slice(2 * i, 2 * i + 2)}, {"out", sums[i]}});
        graph.setTileMapping(v, i);
    }
    Tensor k = graph.addConstant<int>(INT, {3}, {5, 6, 7}, "k");
    graph.setTileMapping(k, 2);
    DataStream stream = graph.addHostToDeviceFIFO("in", FLOAT, 4);
    Sequence prog{Copy(stream, in), Execute(cs), PrintTensor("sums", sums)};
    prog.add(PrintTensor("k*k", popops::mul(graph, k, k, prog)));
    graph.createHostRead("sums", sums);
    Executable exe = compileGraph(graph, {prog});
    std::ofstream out("program.exe", std::ios::binary);
    exe.serialize(out);
}

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    build(device.getTarget());

    std::ifstream in("program.exe", std::ios::binary);
    Executable exe = Executable::deserialize(in);
    Engine engine(std::move(exe));
    engine.load(device);
    std::vector<float> data = {1, 2, 3, 4.5f};
    engine.connectStream("in", data.data(), data.data() + data.size());
    engine.run(0);
    std::vector<float> sums(2);
    engine.readTensor("sums", sums.data(), sums.data() + sums.size());
    std::cout << "host sums: " << sums[0] << " " << sums[1] << "\n";
    try {
        std::istringstream junk("not an executable");
        Executable::deserialize(junk);
    } catch (const poplar_error&) {
        std::cout << "caught poplar_error for a bad stream\n";
    }
    return 0;
}
