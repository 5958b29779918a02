// Graph API items of issue 12: addCodelets with a list of files and compile
// flags, addCodelets(istream), addVertex with a plain value in its braced
// list, setCycleEstimate, setFieldSize, every clone overload, addVariable with
// VariableMappingMethod::LINEAR, addFunction with Call, serialize (JSON and
// binary), outputVertexGraph / outputComputeGraph.
#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static void printMapping(const Graph& graph, const std::string& name, const Tensor& t) {
    std::cout << name << " mapping:";
    TileToTensorMapping m = graph.getTileMapping(t);
    for (std::size_t tile = 0; tile < m.size(); ++tile) {
        for (const Interval& i : m[tile]) {
            std::cout << " tile" << tile << "[" << i.begin() << "," << i.end() << ")";
        }
    }
    std::cout << "\n";
}

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());

    // Two files in one call; the second needs -I inc and -DOFFSET=10.
    mkdir("inc", 0755);
    std::ofstream("inc/tessera_shift.h") << "#define SHIFT 100\n";
    graph.addCodelets({"graph_api_codelets.cpp", "graph_api_extra.cpp"}, "-O3 -I inc -DOFFSET=10");
    // A codelet from a stream.
    std::istringstream streamed("#include <poplar/Vertex.hpp>\n"
                                "class Negate : public poplar::Vertex {\n"
                                "public:\n"
                                "    poplar::InOut<poplar::Vector<float>> data;\n"
                                "    bool compute() { for (auto& x : data) x = -x; return true; }\n"
                                "};\n");
    graph.addCodelets(streamed);

    Tensor in = graph.addVariable(FLOAT, {4}, "in");
    Tensor scaled = graph.addVariable(FLOAT, {4}, "scaled");
    Tensor shifted = graph.addVariable(FLOAT, {4}, "shifted");
    graph.setTileMapping(in, 0);
    graph.setTileMapping(scaled, 0);
    graph.setTileMapping(shifted, 1);

    ComputeSet cs = graph.addComputeSet("scale");
    VertexRef sv = graph.addVertex(cs, "Scale", {{"in", in}, {"out", scaled}, {"scale", 3.0f}});
    graph.setTileMapping(sv, 0);
    graph.setCycleEstimate(sv, 1000); // 6 workers x 1000 = 6000 tile cycles
    ComputeSet shiftCs = graph.addComputeSet("shift");
    VertexRef hv = graph.addVertex(shiftCs, "Shift", {{"in", scaled}, {"out", shifted}});
    graph.setTileMapping(hv, 1);
    graph.setCycleEstimate(hv, 500);

    // setFieldSize, then one list entry at a time.
    Tensor m = graph.addVariable(FLOAT, {3, 2}, "m");
    Tensor sums = graph.addVariable(FLOAT, {3}, "sums");
    graph.setTileMapping(m, 2);
    graph.setTileMapping(sums, 2);
    ComputeSet listCs = graph.addComputeSet("listSum");
    VertexRef lv = graph.addVertex(listCs, "ListSum");
    graph.setFieldSize(lv["in"], 3);
    for (unsigned i = 0; i < 3; ++i) {
        graph.connect(lv["in"][i], m[i]);
    }
    graph.connect(lv["out"], sums);
    graph.setTileMapping(lv, 2);

    ComputeSet negCs = graph.addComputeSet("negate");
    VertexRef nv = graph.addVertex(negCs, "Negate", {{"data", sums}});
    graph.setTileMapping(nv, 2);

    // Clones keep shape and mapping; cloneN stacks them.
    Tensor c1 = graph.clone(m);
    Tensor c2 = graph.clone(HALF, m, "halfClone");
    Tensor c3 = graph.clone(shifted, "newOrder", TensorCloneMethod::CREATE_NEW_ORDER);
    Tensor c4 = graph.cloneN(shifted, 2, "two");
    std::cout << "clone shape " << c1.shape()[0] << "x" << c1.shape()[1] << " type "
              << c1.elementType().toString() << "; half clone type " << c2.elementType().toString()
              << "; cloneN shape " << c4.shape()[0] << "x" << c4.shape()[1] << "\n";
    printMapping(graph, "clone of m", c1);
    printMapping(graph, "clone of shifted", c3);
    printMapping(graph, "cloneN", c4);

    // LINEAR: spread over the 4 tiles in order.
    Tensor lin = graph.addVariable(INT, {10}, VariableMappingMethod::LINEAR, "lin");
    printMapping(graph, "LINEAR", lin);

    // A function called twice.
    Tensor counter = graph.addVariable(INT, {}, "counter");
    graph.setTileMapping(counter, 3);
    ComputeSet incCs = graph.addComputeSet("increment");
    VertexRef iv = graph.addVertex(incCs, "Increment", {{"counter", counter}});
    graph.setTileMapping(iv, 3);
    Function inc = graph.addFunction(Execute(incCs));

    graph.createHostWrite("in", in);
    graph.createHostWrite("m", m);
    graph.createHostWrite("counter", counter);
    graph.createHostRead("shifted", shifted);
    graph.createHostRead("sums", sums);
    graph.createHostRead("counter", counter);

    Sequence timed({Execute(cs)});
    Tensor cycles = cycleCount(graph, timed, 0, SyncType::INTERNAL);
    graph.createHostRead("cycles", cycles);
    Sequence prog({timed, Execute(shiftCs), Execute(listCs), Execute(negCs), Call(inc), Call(inc)});

    std::ostringstream json;
    graph.serialize(json, SerializationFormat::JSON);
    std::ostringstream binary;
    graph.serialize(binary, SerializationFormat::Binary);
    std::cout << "binary serialization starts with " << binary.str().substr(0, 4)
              << (binary.str().size() > 100 ? ", over 100 bytes" : ", too short") << "\n";
    std::cout << json.str();
    graph.outputVertexGraph(std::cout);
    graph.outputComputeGraph(std::cout);

    Engine engine(graph, prog);
    engine.load(device);
    float inValues[4] = {1, 2, 3, 4};
    float mValues[6] = {1, 2, 3, 4, 5, 6};
    int zero = 0;
    engine.writeTensor("in", inValues, inValues + 4);
    engine.writeTensor("m", mValues, mValues + 6);
    engine.writeTensor("counter", &zero, &zero + 1);
    engine.run(0);

    float out[4], s[3];
    int count = 0;
    unsigned cyc[2];
    engine.readTensor("shifted", out, out + 4);
    engine.readTensor("sums", s, s + 3);
    engine.readTensor("counter", &count, &count + 1);
    engine.readTensor("cycles", cyc, cyc + 2);
    std::cout << "shifted: " << out[0] << " " << out[1] << " " << out[2] << " " << out[3] << "\n";
    std::cout << "negated sums: " << s[0] << " " << s[1] << " " << s[2] << "\n";
    std::cout << "counter after two calls: " << count << "\n";
    std::cout << "cycles of scale: " << cyc[0] << " (high word " << cyc[1] << ")\n";
    return 0;
}
