// A saved executable run by another process: this program compiles a graph
// that uses PopLibs' generated codelets (a fused map expression, a two-stage
// reduction) and a remote buffer, saves it, and runs itself again with "load":
// that process never built a graph, so everything must come from the file.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

static void save(const Target& target) {
    Graph graph(target);
    Tensor in = graph.addVariable(FLOAT, {2, 4}, "in");
    graph.setTileMapping(in[0], 0);
    graph.setTileMapping(in[1], 1);
    Sequence prog;
    // y = x * x + 3, then the sum of each row.
    Tensor y = popops::map(graph, pe::Add(pe::Mul(pe::_1, pe::_1), pe::Const(3.0f)), {in}, prog,
                           "square-plus-three");
    Tensor sums = popops::reduce(graph, y, FLOAT, {1}, popops::Operation::ADD, prog, "row-sums");
    RemoteBuffer rb = graph.addRemoteBuffer("sums-buffer", FLOAT, 2, 1);
    Tensor back = graph.addVariable(FLOAT, {2}, "back");
    graph.setTileMapping(back, 2);
    prog.add(Copy(sums, rb));
    prog.add(Copy(rb, back));
    prog.add(PrintTensor("sums", sums));
    graph.createHostWrite("in", in);
    graph.createHostRead("back", back);
    Executable exe = compileGraph(graph, {prog});
    std::ofstream out("across.exe", std::ios::binary);
    exe.serialize(out);
}

static void load(const Device& device) {
    std::ifstream in("across.exe", std::ios::binary);
    Engine engine(Executable::deserialize(in));
    engine.load(device);
    const std::vector<float> data = {1, 2, 3, 4, 0.5f, -1, 2, -2};
    engine.writeTensor("in", data.data(), data.data() + data.size());
    engine.run(0);
    std::vector<float> back(2), remote(2);
    engine.readTensor("back", back.data(), back.data() + back.size());
    engine.copyFromRemoteBuffer("sums-buffer", remote.data(), 0);
    std::cout << "loaded: back " << back[0] << " " << back[1] << ", remote " << remote[0] << " "
              << remote[1] << "\n";
}

// Damaged copies are refused with a poplar_error saying what is wrong.
static void refuse(const std::string& what, const std::string& bytes) {
    std::istringstream in(bytes);
    try {
        Executable::deserialize(in);
        std::cout << what << ": loaded?\n";
    } catch (const poplar_error& e) {
        const std::string m = e.what();
        std::cout << what << ": " << m.substr(0, m.find(" (")) << "\n";
    }
}

static void damaged() {
    std::ifstream in("across.exe", std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string exe = bytes.str();
    refuse("cut in half", exe.substr(0, exe.size() / 2));
    refuse("older format", "TSRX0002" + exe.substr(8));
    std::string flipped = exe;
    flipped[8 + 4] = 1; // the target name's length becomes 2^32 + n
    refuse("bad length", flipped);
}

int main(int argc, char** argv) {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    if (argc > 1 && std::string(argv[1]) == "load") {
        load(device);
        damaged();
        return 0;
    }
    save(device.getTarget());
    std::cout << "saved\n" << std::flush;
    return std::system((std::string(argv[0]) + " load").c_str()) == 0 ? 0 : 1;
}
