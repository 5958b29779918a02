// poplar::Tensor as a value: an empty tensor is not valid and refuses a
// query by name; copies, assignments (self-assignment included) and views
// that outlive the tensor they came from all keep their elements.
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

    Tensor empty;
    std::cout << "empty valid: " << empty.valid() << "\n";
    try {
        const std::size_t n = empty.numElements();
        std::cout << "elements: " << n << "\n";
    } catch (const poplar_error& e) {
        std::cout << "error: " << e.what() << "\n";
    }

    Tensor v = graph.addVariable(FLOAT, {2, 3}, "v");
    graph.setTileMapping(v, 0);
    Tensor row;
    {
        const Tensor copy = v;
        row = copy[1]; // the copy goes; its view stays
    }
    Tensor same = row;
    Tensor& alias = same;
    same = alias;
    Tensor column;
    column = v.slice(2, 3, 1);
    std::vector<Tensor> many(100, row);
    many.push_back(column); // the vector grows by copying
    std::cout << "row " << same.valid() << " " << same.shapeToString() << ", column "
              << column.shapeToString() << ", list " << many.size() << " "
              << many.front().shapeToString() << " " << many.back().shapeToString() << "\n";

    Tensor out = graph.addVariable(FLOAT, {5}, "out");
    graph.setTileMapping(out, 1);
    graph.createHostWrite("v", v);
    graph.createHostRead("out", out);
    Sequence prog({Copy(concat(many.front(), many.back().flatten()), out)});
    Engine engine(graph, prog);
    engine.load(device);
    const float values[6] = {1, 2, 3, 4, 5, 6};
    engine.writeTensor("v", values, values + 6);
    engine.run(0);
    float o[5];
    engine.readTensor("out", o, o + 5);
    std::cout << "row then column:";
    for (float x : o) {
        std::cout << " " << x;
    }
    std::cout << "\n";
    return 0;
}
