// Mistakes a Poplar program can make that once killed the process: a codelet
// whose compute() throws (here an int, on one tile of many, run on several
// threads) and a variable whose element count overflows 64 bits. Both must
// come back as a poplar_error the program can catch, naming the culprit.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

void says(const std::string& message, const char* what) {
    std::cout << "  names " << what << ": "
              << (message.find(what) != std::string::npos ? "yes" : "no") << "\n";
}

} // namespace

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 8;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("misuse_codelets.cpp");

    Tensor x = graph.addVariable(FLOAT, {8}, "x");
    ComputeSet cs = graph.addComputeSet("check");
    for (unsigned t = 0; t < 8; ++t) {
        graph.setTileMapping(x[t], t);
        VertexRef v = graph.addVertex(cs, "ThrowsOnNegative", {{"in", x.slice(t, t + 1)}});
        graph.setTileMapping(v, t);
    }
    graph.createHostWrite("x", x);
    Engine engine(graph, Sequence{Execute(cs)});
    engine.load(device);
    std::vector<float> values = {1, 2, 3, 4, 5, -6, 7, 8};
    engine.writeTensor("x", values.data(), values.data() + values.size());
    try {
        engine.run(0);
        std::cout << "throwing codelet: no error\n";
    } catch (const poplar_error& e) {
        std::cout << "throwing codelet: poplar_error\n";
        says(e.what(), "ThrowsOnNegative");
        says(e.what(), "tile 5");
        says(e.what(), "'int'");
        says(e.what(), "step");
    }
    values[5] = 6;
    engine.writeTensor("x", values.data(), values.data() + values.size());
    engine.run(0);
    std::cout << "after fixing the input: ran\n";

    const std::size_t big = std::size_t(1) << 33;
    try {
        graph.addVariable(FLOAT, {big, big}, "huge");
        std::cout << "2^33 x 2^33 variable: no error\n";
    } catch (const poplar_error& e) {
        std::cout << "2^33 x 2^33 variable: poplar_error\n";
        says(e.what(), "'huge'");
        says(e.what(), "{8589934592,8589934592}");
    }
    return 0;
}
