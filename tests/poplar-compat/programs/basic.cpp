// The host API a first Poplar program uses: a model device, variables,
// constants, tile mapping, runtime-compiled codelets, compute sets, copies,
// PrintTensor, Repeat and host reads and writes.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();
    Target target = device.getTarget();
    Graph graph(target);
    graph.addCodelets("basic_codelets.cpp");

    Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
    Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
    for (unsigned i = 0; i < 4; ++i) {
        graph.setTileMapping(v1[i], i);
        graph.setTileMapping(v2[i], i);
    }
    Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0f, 1.5f, 2.0f, 2.5f});
    graph.setTileMapping(c1, 0);

    // v2[i] = sum of v1[i..4)
    ComputeSet sumCs = graph.addComputeSet("sum");
    for (unsigned i = 0; i < 4; ++i) {
        VertexRef v = graph.addVertex(sumCs, "SumVertex", {{"in", v1.slice(i, 4)}, {"out", v2[i]}});
        graph.setTileMapping(v, i);
        graph.setPerfEstimate(v, 20);
    }

    // v1 = v1 * 2 + 0.5, twice per execution
    Tensor half = graph.addConstant(FLOAT, {}, 0.5f);
    graph.setTileMapping(half, 1);
    ComputeSet scaleCs = graph.addComputeSet("scale");
    VertexRef s = graph.addVertex(scaleCs, "ScaleAdd");
    graph.connect(s["data"], v1);
    graph.connect(s["offset"], half);
    graph.setInitialValue(s["scale"], 2.0f);
    graph.setInitialValue(s["repeats"], 2u);
    graph.setTileMapping(s, 2);

    // A 2-D matrix, summed by column with a vector-list field.
    Tensor m = graph.addVariable(FLOAT, {3, 2}, "m");
    graph.setTileMapping(m, 3);
    Tensor colSum = graph.addVariable(FLOAT, {2}, "colSum");
    graph.setTileMapping(colSum, 3);
    ComputeSet colCs = graph.addComputeSet("columns");
    VertexRef cv = graph.addVertex(colCs, "ColumnSum");
    graph.connect(cv["rows"], {m[0], m[1], m[2]});
    graph.connect(cv["out"], colSum);
    graph.setTileMapping(cv, 3);

    // Integer data through a template vertex and int / unsigned / bool fields.
    Tensor ints = graph.addConstant<int>(INT, {2, 3}, {1, -2, 3, -4, 5, 0});
    graph.setTileMapping(ints, 0);
    Tensor tripled = graph.addVariable(INT, {2, 3}, "tripled");
    graph.setTileMapping(tripled, 0);
    Tensor count = graph.addVariable(UNSIGNED_INT, {}, "count");
    Tensor any = graph.addVariable(BOOL, {}, "any");
    graph.setTileMapping(count, 1);
    graph.setTileMapping(any, 1);
    ComputeSet intCs = graph.addComputeSet("ints");
    // Spaced as some Poplar code spells templates: the same vertex type.
    VertexRef t = graph.addVertex(intCs, "ops::Triple< int >", {{"in", ints}, {"out", tripled}});
    graph.setTileMapping(t, 0);
    VertexRef cp = graph.addVertex(intCs, "CountPositive",
                                   {{"in", ints.flatten()}, {"count", count}, {"any", any}});
    graph.setTileMapping(cp, 1);

    // HALF data through a codelet; shapes from unsigned and size_t variables.
    const unsigned three = 3;
    const std::size_t one = 1;
    Tensor halves = graph.addConstant<float>(HALF, {one, three}, {0.5f, 1.25f, -2.0f});
    graph.setTileMapping(halves, 2);
    Tensor doubled = graph.addVariable(FLOAT, {three}, "doubled");
    graph.setTileMapping(doubled, 2);
    VertexRef hv = graph.addVertex(intCs, "HalfToFloat", {{"in", halves}, {"out", doubled}});
    graph.setTileMapping(hv, 2);

    Tensor negated = graph.addVariable(FLOAT, {3}, "negated");
    graph.setTileMapping(negated, 2);
    ComputeSet negCs = graph.addComputeSet("negate");
    VertexRef nv = graph.addVertex(negCs, "Negate", {{"in", doubled}, {"out", negated}});
    graph.setTileMapping(nv, 2);

    graph.createHostWrite("m-write", m);
    graph.createHostRead("v2-read", v2);
    graph.createHostRead("colSum-read", colSum);

    Sequence prog({Copy(c1, v1), PrintTensor("v1", v1), Execute(sumCs), PrintTensor("v2", v2)});
    prog.add(Repeat(2, Execute(scaleCs)));
    prog.add(PrintTensor("v1 scaled", v1));
    prog.add(Execute(colCs));
    prog.add(PrintTensor("m", m));
    prog.add(PrintTensor("colSum", colSum));
    prog.add(Execute(intCs));
    prog.add(PrintTensor("tripled", tripled));
    prog.add(PrintTensor("count", count));
    prog.add(PrintTensor("any", any));
    prog.add(PrintTensor("m transposed", m.transpose()));
    prog.add(PrintTensor("halves", halves));
    prog.add(PrintTensor("doubled", doubled));
    prog.add(Execute(negCs));
    prog.add(PrintTensor("negated", negated));

    Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> mValues = {1, 2, 3, 4, 5, 6.25f};
    engine.writeTensor("m-write", mValues.data(), mValues.data() + mValues.size());
    engine.run(0);

    std::vector<float> sums(4);
    engine.readTensor("v2-read", sums.data(), sums.data() + sums.size());
    std::vector<float> cols(2);
    engine.readTensor("colSum-read", cols.data(), cols.data() + cols.size());
    std::cout << "host v2:";
    for (float f : sums) {
        std::cout << " " << f;
    }
    std::cout << "\nhost colSum: " << cols[0] << " " << cols[1] << "\n";
    std::cout << "tiles " << target.getNumTiles() << ", workers " << target.getNumWorkerContexts()
              << "\n";
    return 0;
}
