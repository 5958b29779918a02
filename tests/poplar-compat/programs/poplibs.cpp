// The PopLibs subset: popops element-wise ops (with broadcasting), map,
// scaledAddTo, reductions, zero and fill; poplin::matMul; poputil mapping and
// templateVertex; popnn non-linearities and calcLoss.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>

#include <iomanip>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel model;
    model.tilesPerIPU = 16;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);
    std::cout << poputil::templateVertex("ScaledAdd", FLOAT) << " "
              << poputil::templateVertex("Cast", FLOAT, HALF) << "\n";

    Sequence prog;
    Tensor a = graph.addConstant<float>(FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6}, "a");
    Tensor b = graph.addConstant<float>(FLOAT, {3, 2}, {1, 0, 0, 1, 2, -1}, "b");
    poputil::mapTensorLinearly(graph, a);
    poputil::mapTensorLinearly(graph, b);

    Tensor c = poplin::matMul(graph, a, b, prog, "matmul");
    prog.add(PrintTensor("a.b", c));
    prog.add(PrintTensor("a+a", popops::add(graph, a, a, prog, "add")));
    Tensor halfC = graph.addConstant(FLOAT, {}, 0.5f, "half");
    graph.setTileMapping(halfC, 0);
    prog.add(PrintTensor("a*0.5", popops::map(graph, popops::expr::BinaryOpType::MULTIPLY, a, halfC,
                                              prog, "scale")));
    Tensor ones = graph.addConstant<float>(FLOAT, {3}, {1, 1, 1}, "ones");
    graph.setTileMapping(ones, 1);
    prog.add(PrintTensor("a-row", popops::sub(graph, a, ones, prog)));
    Tensor three = graph.addConstant(FLOAT, {1}, 3.0f);
    graph.setTileMapping(three, 2);
    prog.add(PrintTensor("max(a,3)", popops::max(graph, a, three, prog)));

    // Integer element-wise operations.
    Tensor iv = graph.addConstant<int>(INT, {4}, {1, -2, 3, -4}, "iv");
    poputil::mapTensorLinearly(graph, iv);
    prog.add(PrintTensor("iv+iv", popops::add(graph, iv, iv, prog)));
    prog.add(PrintTensor("iv*iv", popops::mul(graph, iv, iv, prog)));
    prog.add(PrintTensor("|iv|", popops::abs(graph, iv, prog)));
    Tensor un = graph.addConstant<unsigned>(UNSIGNED_INT, {3}, {7, 8, 9}, "un");
    Tensor ud = graph.addConstant<unsigned>(UNSIGNED_INT, {3}, {2, 0, 3}, "ud");
    graph.setTileMapping(un, 6);
    graph.setTileMapping(ud, 7);
    prog.add(PrintTensor("un/ud", popops::div(graph, un, ud, prog)));

    Tensor x = graph.addVariable(FLOAT, {4}, "x");
    Tensor y = graph.addConstant<float>(FLOAT, {4}, {10, 20, 30, 40}, "y");
    poputil::mapTensorLinearly(graph, x);
    poputil::mapTensorLinearly(graph, y);
    graph.setInitialValue(x, ArrayRef<float>({1, 2, 3, 4}));
    popops::scaledAddTo(graph, x, y, 0.5f, prog, "sgd");
    prog.add(PrintTensor("x+0.5y", x));

    Tensor colSums = graph.addVariable(FLOAT, {3}, "colSums");
    Tensor total = graph.addVariable(FLOAT, {}, "total");
    poputil::mapTensorLinearly(graph, colSums);
    graph.setTileMapping(total, 2);
    popops::reduceWithOutput(graph, a, colSums, {0}, popops::ReduceParams(popops::Operation::ADD),
                             prog, "colSums");
    popops::reduceWithOutput(graph, a, total, {0, 1}, {popops::Operation::ADD}, prog, "total");
    prog.add(PrintTensor("sum over rows", colSums));
    prog.add(PrintTensor("sum", total));
    prog.add(
        PrintTensor("row sums", popops::reduce(graph, a, {1}, {popops::Operation::ADD}, prog)));
    prog.add(PrintTensor("row max", popops::reduce(graph, a, {1}, {popops::Operation::MAX}, prog)));
    prog.add(PrintTensor("col min", popops::reduce(graph, a, {0}, {popops::Operation::MIN}, prog)));
    prog.add(PrintTensor("row squares",
                         popops::reduce(graph, a, {1}, {popops::Operation::SQUARE_ADD}, prog)));

    Tensor z = graph.addVariable(INT, {2, 2}, "z");
    poputil::mapTensorLinearly(graph, z);
    popops::fill(graph, z, prog, 7, "seven");
    prog.add(PrintTensor("filled", z));
    popops::zero(graph, x, prog, "zero");
    prog.add(PrintTensor("zeroed", x));

    Tensor r = graph.addConstant<float>(FLOAT, {4}, {-1, 2, -3, 4}, "r");
    graph.setTileMapping(r, 3);
    prog.add(
        PrintTensor("relu", popnn::nonLinearity(graph, popnn::NonLinearityType::RELU, r, prog)));

    // Softmax and cross-entropy loss on three samples of two classes.
    Tensor logits = graph.addConstant<float>(FLOAT, {3, 2}, {2, 0, 0, 2, 2, 0}, "logits");
    poputil::mapTensorLinearly(graph, logits);
    Tensor probs =
        popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, prog, "softmax");
    Tensor labels = graph.addConstant<unsigned>(UNSIGNED_INT, {3}, {0, 1, 1}, "labels");
    graph.setTileMapping(labels, 4);
    Tensor loss = graph.addVariable(FLOAT, {3}, "loss");
    Tensor deltas = graph.addVariable(FLOAT, {3, 2}, "deltas");
    Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {}, "numCorrect");
    poputil::mapTensorLinearly(graph, loss);
    poputil::mapTensorLinearly(graph, deltas);
    graph.setTileMapping(numCorrect, 5);
    prog.add(popnn::calcLoss(graph, probs, labels, loss, deltas, numCorrect,
                             popnn::CROSS_ENTROPY_LOSS, "loss"));
    prog.add(PrintTensor("numCorrect", numCorrect));
    graph.createHostRead("probs", probs);
    graph.createHostRead("loss", loss);
    graph.createHostRead("deltas", deltas);
    Tensor sig = popnn::nonLinearity(graph, popnn::NonLinearityType::SIGMOID, r, prog);
    graph.createHostRead("sig", sig);

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);

    std::vector<float> p(6), l(3), d(6), s(4);
    engine.readTensor("probs", p.data(), p.data() + p.size());
    engine.readTensor("loss", l.data(), l.data() + l.size());
    engine.readTensor("deltas", d.data(), d.data() + d.size());
    engine.readTensor("sig", s.data(), s.data() + s.size());
    std::cout << std::fixed << std::setprecision(4) << "probs:";
    for (float f : p) {
        std::cout << " " << f;
    }
    std::cout << "\nloss:";
    for (float f : l) {
        std::cout << " " << f;
    }
    std::cout << "\ndeltas:";
    for (float f : d) {
        std::cout << " " << f;
    }
    std::cout << "\nsigmoid:";
    for (float f : s) {
        std::cout << " " << f;
    }
    std::cout << "\n";
    return 0;
}
