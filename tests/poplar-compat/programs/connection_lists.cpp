// addVertex's braced list: {"field", std::vector<Tensor>{...}} connects a
// vector-list field entry by entry, a list of one entry included (it was
// once connected as the whole field), next to plain tensors and values. A
// whole 2-D tensor (a transpose too) connects a vector list a row an entry, a
// 3-D one an entry per index of its first dimension, and a vector field
// flattened, in the braced list and through connect(); a field the codelet
// lacks, or of another graph's vertex, is refused by name.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <functional>
#include <iostream>
#include <string>
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
    Tensor rowSums = graph.addVariable(FLOAT, {3}, "rowSums");
    Tensor rowSums2 = graph.addVariable(FLOAT, {3}, "rowSums2");
    Tensor doubled = graph.addVariable(FLOAT, {2}, "doubled");
    Tensor tripled = graph.addVariable(FLOAT, {2}, "tripled");
    Tensor rowSums3 = graph.addVariable(FLOAT, {3}, "rowSums3");
    Tensor colSums = graph.addVariable(FLOAT, {2}, "colSums");
    for (const Tensor& t :
         {m, one, two, in, scaled, rowSums, rowSums2, doubled, tripled, rowSums3, colSums}) {
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
    // Whole 2-D tensors: m's three rows as the list; in as a 2 x 1 column.
    VertexRef d = graph.addVertex(cs, "ListSum", {{"in", m}, {"out", rowSums}});
    VertexRef e = graph.addVertex(cs, "Scale",
                                  {{"in", in.reshape({2, 1})}, {"out", doubled}, {"scale", 2.0f}});
    // The same through connect().
    VertexRef f = graph.addVertex(cs, "ListSum");
    graph.connect(f["in"], m);
    graph.connect(f["out"], rowSums2);
    VertexRef g = graph.addVertex(cs, "Scale", {{"scale", 3.0f}});
    graph.connect(g["in"], in.reshape({2, 1}));
    graph.connect(g["out"], tripled.reshape({1, 2}));
    // A 3-D tensor: an entry per index of its first dimension, flattened; and
    // a transpose, whose rows are m's columns.
    VertexRef h = graph.addVertex(cs, "ListSum", {{"in", m.reshape({3, 1, 2})}, {"out", rowSums3}});
    VertexRef k = graph.addVertex(cs, "ListSum");
    graph.connect(k["in"], m.transpose());
    graph.connect(k["out"], colSums);
    for (const VertexRef& v : {a, b, c, d, e, f, g, h, k}) {
        graph.setTileMapping(v, 1);
    }
    auto refused = [](const char* what, const std::function<void()>& connect) {
        try {
            connect();
            std::cout << what << ": accepted\n";
        } catch (const poplar_error& error) {
            std::cout << what << ": refused, " << error.what() << "\n";
        }
    };
    refused("a field Scale lacks", [&] { graph.connect(c["nope"], in); });
    // In a graph never compiled: the vertex is made before its fields fail.
    Graph other(device.getTarget());
    other.addCodelets("graph_api_codelets.cpp");
    const ComputeSet elsewhere = other.addComputeSet("elsewhere");
    const Tensor otherIn = other.addVariable(FLOAT, {2}, "otherIn");
    refused("a field Scale lacks, braced", [&] {
        other.addVertex(elsewhere, "Scale", {{"nope", otherIn}});
    });
    VertexRef foreign = other.addVertex(elsewhere, "Scale");
    refused("another graph's vertex", [&] { graph.connect(foreign["in"], in); });
    graph.createHostWrite("m", m);
    graph.createHostWrite("in", in);
    graph.createHostRead("one", one);
    graph.createHostRead("two", two);
    graph.createHostRead("scaled", scaled);
    graph.createHostRead("rowSums", rowSums);
    graph.createHostRead("rowSums2", rowSums2);
    graph.createHostRead("doubled", doubled);
    graph.createHostRead("tripled", tripled);
    graph.createHostRead("rowSums3", rowSums3);
    graph.createHostRead("colSums", colSums);

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
    for (const char* name : {"rowSums", "rowSums2", "doubled", "tripled", "rowSums3", "colSums"}) {
        float v[3] = {};
        const std::size_t n = std::string(name).rfind("rowSums", 0) == 0 ? 3 : 2;
        engine.readTensor(name, v, v + n);
        std::cout << name << ":";
        for (std::size_t i = 0; i < n; ++i) {
            std::cout << " " << v[i];
        }
        std::cout << "\n";
    }
    return 0;
}
