// The codelet ABI of issue 12: SupervisorVertex with the supervisor target
// attribute, MultiVertex compute(workerId) once per worker, Vector layout and
// alignment arguments, VectorList with a layout, half fields, <print.h>
// printf and the IPU builtins headers (<ipudef.h>, <ipu_builtins.h>,
// <ipu_vector_math>, <ipu_memory_intrinsics>).
#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("abi_codelets.cpp");

    Tensor in = graph.addConstant<float>(FLOAT, {4}, {1.5f, 2.5f, 3.5f, 4.5f});
    Tensor sum = graph.addVariable(FLOAT, {}, "sum");
    graph.setTileMapping(in, 0);
    graph.setTileMapping(sum, 0);

    Tensor many = graph.addConstant<float>(FLOAT, {13}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    Tensor doubled = graph.addVariable(FLOAT, {13}, "doubled");
    Tensor calls = graph.addVariable(INT, {6}, "calls");
    graph.setTileMapping(many, 1);
    graph.setTileMapping(doubled, 1);
    graph.setTileMapping(calls, 1);
    graph.setInitialValue(calls, std::vector<int>(6, 0));

    Tensor a = graph.addConstant<float>(HALF, {}, {1.5f});
    Tensor b = graph.addConstant<float>(HALF, {3}, {2.0f, 0.25f, 1000.0f});
    Tensor c = graph.addVariable(HALF, {}, "c");
    Tensor d = graph.addVariable(HALF, {3}, "d");
    for (const Tensor& t : {a, b, c, d}) {
        graph.setTileMapping(t, 2);
    }
    graph.setInitialValue(c, 0.125f);

    Tensor rows = graph.addConstant<float>(FLOAT, {2, 2}, {1, 9, 4, 16});
    Tensor results = graph.addVariable(FLOAT, {4}, "results");
    graph.setTileMapping(rows, 3);
    graph.setTileMapping(results, 3);

    ComputeSet cs = graph.addComputeSet("abi");
    graph.setTileMapping(graph.addVertex(cs, "SupervisorSum", {{"in", in}, {"out", sum}}), 0);
    graph.setTileMapping(
        graph.addVertex(cs, "Doubler", {{"in", many}, {"out", doubled}, {"calls", calls}}), 1);
    graph.setTileMapping(graph.addVertex(cs, "HalfOps", {{"a", a}, {"b", b}, {"c", c}, {"d", d}}),
                         2);
    VertexRef bv = graph.addVertex(cs, "Builtins");
    graph.connect(bv["rows"], rows);
    graph.connect(bv["out"], results);
    graph.setTileMapping(bv, 3);

    graph.createHostRead("d", d);
    Engine engine(graph,
                  Sequence({Execute(cs), PrintTensor("sum", sum), PrintTensor("doubled", doubled),
                            PrintTensor("calls", calls), PrintTensor("c", c), PrintTensor("d", d),
                            PrintTensor("results", results)}));
    engine.load(device);
    engine.run(0);
    unsigned short raw[3];
    float back[3];
    engine.readTensor("d", raw, raw + 3);
    copyDeviceHalfToFloat(graph.getTarget(), raw, back, 3);
    std::cout << "d through copyDeviceHalfToFloat: " << back[0] << " " << back[1] << " " << back[2]
              << "\n";
    const float tenth = 0.1f;
    unsigned short h;
    copyFloatToDeviceHalf(graph.getTarget(), &tenth, &h, 1);
    double again;
    copyDeviceHalfToDouble(graph.getTarget(), &h, &again, 1);
    std::cout << "0.1 as half: 0x" << std::hex << h << std::dec << " = " << std::setprecision(12)
              << again << "\n";

    // Builtins that read the machine's own state fail by name.
    std::istringstream tileId("#include <poplar/Vertex.hpp>\n#include <ipu_builtins.h>\n"
                              "class TileId : public poplar::Vertex {\npublic:\n"
                              "    poplar::Output<unsigned> out;\n"
                              "    void compute() { *out = __builtin_ipu_get_tile_id(); }\n};\n");
    try {
        graph.addCodelets(tileId);
        std::cout << "__builtin_ipu_get_tile_id compiled\n";
    } catch (const graph_object_load_error& e) {
        const std::string what = e.what();
        std::cout << "__builtin_ipu_get_tile_id: graph_object_load_error naming it: "
                  << (what.find("not supported by Tessera: __builtin_ipu_get_tile_id") !=
                      std::string::npos)
                  << "\n";
    }
    return 0;
}
