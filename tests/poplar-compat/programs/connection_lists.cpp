// addVertex's braced list: {"field", std::vector<Tensor>{...}} connects a
// vector-list field entry by entry, a list of one entry included (it was
// once connected as the whole field), next to plain tensors and values.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 2;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("graph_api_codelets.cpp");
    Tensor m = graph.addVariable(FLOAT, {3, 2}, "m");
    Tensor one = graph.addVariable(FLOAT, {1}, "one");
    Tensor two = graph.addVariable(FLOAT, {2}, "two");
    Tensor in = graph.addVariable(FLOAT, {2}, "in");
    Tensor scaled = graph.addVariable(FLOAT, {2}, "scaled");
    for (const Tensor& t : {m, one, two, in, scaled}) {
        graph.setTileMapping(t, 1);
    }
    ComputeSet cs = graph.addComputeSet("lists");
    // One entry: row 1 of m, summed into one[0].
    VertexRef a = graph.addVertex(cs, "ListSum", {{"in", std::vector<Tensor>{m[1]}}, {"out", one}});
    // Two entries from a vector built first: rows 2 and 0.
    const std::vector<ConnectionDesc> desc = {{"in", std::vector<Tensor>{m[2], m[0]}},
                                              {"out", two}};
    VertexRef b = graph.addVertex(cs, "ListSum", desc);
    // A tensor and a state value.
    VertexRef c = graph.addVertex(cs, "Scale", {{"in", in}, {"out", scaled}, {"scale", 0.5f}});
    for (const VertexRef& v : {a, b, c}) {
        graph.setTileMapping(v, 1);
    }
    graph.createHostWrite("m", m);
    graph.createHostWrite("in", in);
    graph.createHostRead("one", one);
    graph.createHostRead("two", two);
    graph.createHostRead("scaled", scaled);

    Engine engine(graph, Execute(cs));
    engine.load(device);
    const float mValues[6] = {1, 2, 3, 4, 5, 6};
    const float inValues[2] = {8, 10};
    engine.writeTensor("m", mValues, mValues + 6);
    engine.writeTensor("in", inValues, inValues + 2);
    engine.run(0);
    float o[1], t[2], s[2];
    engine.readTensor("one", o, o + 1);
    engine.readTensor("two", t, t + 2);
    engine.readTensor("scaled", s, s + 2);
    std::cout << "one entry: " << o[0] << "\n";
    std::cout << "two entries: " << t[0] << " " << t[1] << "\n";
    std::cout << "scaled: " << s[0] << " " << s[1] << "\n";
    return 0;
}
