// popnn::calcLoss ADDS this batch's correct predictions to numCorrect
// (PopLibs' CalcAccuracy vertex updates it in place): a program zeroes it
// once and accumulates over a Repeat (issue 13).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Loss.hpp>
#include <popnn/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popnn::addCodelets(graph);

    // Four samples of three classes; the largest output is at the label for
    // rows 0, 1 and 3 (row 2's label is 0, its largest output at 2).
    Tensor probs = graph.addConstant<float>(
        FLOAT, {4, 3}, {0.7f, 0.2f, 0.1f, 0.1f, 0.8f, 0.1f, 0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f},
        "probs");
    poputil::mapTensorLinearly(graph, probs);
    Tensor labels = graph.addConstant<unsigned>(UNSIGNED_INT, {4}, {0, 1, 0, 2}, "labels");
    graph.setTileMapping(labels, 1);
    Tensor loss = graph.addVariable(FLOAT, {4}, "loss");
    Tensor deltas = graph.addVariable(FLOAT, {4, 3}, "deltas");
    poputil::mapTensorLinearly(graph, loss);
    poputil::mapTensorLinearly(graph, deltas);
    Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {}, "numCorrect");
    graph.setTileMapping(numCorrect, 2);
    Tensor zero = graph.addConstant(UNSIGNED_INT, {}, 0u, "zero");
    graph.setTileMapping(zero, 2);

    Sequence prog;
    prog.add(Copy(zero, numCorrect));
    prog.add(Repeat(5, popnn::calcLoss(graph, probs, labels, loss, deltas, numCorrect,
                                       popnn::CROSS_ENTROPY_LOSS, "loss")));
    prog.add(PrintTensor("numCorrect after 5 batches", numCorrect));

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    return 0;
}
