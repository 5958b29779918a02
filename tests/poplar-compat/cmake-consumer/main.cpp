// A tiny Poplar program built by its own CMake project (CMakeLists.txt next to
// it), as users build theirs: adds two 2x3 tensors with popops on an IPUModel
// and prints the sum on the device (PrintTensor) and as read back by the host;
// then reads the run back through libpva (Engine::getReport()).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

#include <iostream>
#include <vector>

int main() {
    poplar::IPUModel ipuModel;
    poplar::Device device = ipuModel.createDevice();
    poplar::Graph graph(device.getTarget());
    popops::addCodelets(graph);

    poplar::Tensor a = graph.addVariable(poplar::FLOAT, {2, 3}, "a");
    poplar::Tensor b = graph.addConstant<float>(poplar::FLOAT, {2, 3},
                                                {0.5f, -1.0f, 2.25f, 10.0f, 0.0f, -4.5f}, "b");
    graph.setTileMapping(a[0], 0);
    graph.setTileMapping(a[1], 1);
    graph.setTileMapping(b, 1);

    poplar::program::Sequence prog;
    poplar::Tensor sum = popops::add(graph, a, b, prog, "sum");
    prog.add(poplar::program::PrintTensor("sum", sum));
    graph.createHostWrite("a-write", a);
    graph.createHostRead("sum-read", sum);

    poplar::Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> hostA = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
    engine.writeTensor("a-write", hostA.data(), hostA.data() + hostA.size());
    engine.run(0);
    std::vector<float> hostSum(6);
    engine.readTensor("sum-read", hostSum.data(), hostSum.data() + hostSum.size());
    std::cout << "read back:";
    for (float v : hostSum) {
        std::cout << ' ' << v;
    }
    std::cout << '\n';

    // The program ran one PrintTensor, once; libpva's target is poplar's.
    pva::Report report = engine.getReport();
    unsigned prints = 0;
    for (const pva::ExecutionStep& step : report.execution().steps()) {
        prints += step.program()->type() == pva::Program::Type::PrintTensor ? 1 : 0;
    }
    const bool sameTiles =
        report.compilation().target().numTiles() == device.getTarget().getNumTiles();
    std::cout << "pva: " << prints << " PrintTensor step, "
              << (sameTiles ? "the target's tiles" : "other tiles") << '\n';
    return 0;
}
