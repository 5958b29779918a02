// Writes the seed corpus of fuzz_executable: small real executables saved
// with Executable::serialize (PopLibs' generated map and reduce codelets, a
// remote buffer, control programs, streams and host handles), and copies of
// one cut short at several points.
//   tessera_executable_seeds OUT_DIR
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

namespace {

std::string saved(Graph& graph, const std::vector<Program>& programs) {
    std::ostringstream out;
    compileGraph(graph, programs).serialize(out);
    return out.str();
}

std::string mapReduceRemote(const Target& target) {
    Graph graph(target);
    Tensor in = graph.addVariable(FLOAT, {2, 8}, "in");
    graph.setTileMapping(in[0], 0);
    graph.setTileMapping(in[1], 1);
    Sequence prog;
    Tensor y = popops::map(graph, pe::Add(pe::Mul(pe::_1, pe::_1), pe::Const(3.0f)), {in}, prog);
    Tensor sums = popops::reduce(graph, y, FLOAT, {1}, popops::Operation::MAX, prog);
    RemoteBuffer rb = graph.addRemoteBuffer("rb", FLOAT, 2, 3);
    prog.add(Copy(sums, rb));
    graph.createHostWrite("in", in);
    graph.createHostRead("sums", sums);
    return saved(graph, {prog});
}

std::string control(const Target& target) {
    Graph graph(target);
    Tensor x = graph.addVariable(INT, {4}, "x");
    Tensor flag = graph.addConstant<int>(INT, {}, 1, "flag");
    graph.setTileMapping(x, 2);
    graph.setTileMapping(flag, 3);
    DataStream s = graph.addHostToDeviceFIFO("x-in", INT, 4);
    Sequence body;
    popops::addInPlace(graph, x, x, body);
    Sequence prog{Copy(s, x), Repeat(3, body), If(flag, Sequence{PrintTensor("x", x)}, Sequence{})};
    return saved(graph, {prog, Sequence{}});
}

void write(const std::filesystem::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: tessera_executable_seeds OUT_DIR\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    IPUModel model;
    model.tilesPerIPU = 4;
    const Target target = model.createDevice().getTarget();
    const std::string a = mapReduceRemote(target);
    write(dir / "map-reduce-remote.exe", a);
    write(dir / "control.exe", control(target));
    for (const std::size_t cut : {8u, 20u, 64u, 200u, 1000u}) {
        if (cut < a.size()) {
            write(dir / ("cut-" + std::to_string(cut) + ".exe"), a.substr(0, cut));
        }
    }
    write(dir / "other-format.exe", "TSRX0001" + a.substr(8));
    std::cout << "executable seeds written to " << dir.string() << "\n";
    return 0;
}
