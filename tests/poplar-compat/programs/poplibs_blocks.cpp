// Every PopLibs operation is recorded as a named Block carrying its debug
// name, so the Operations view groups by it: a program calls one operation
// of each kind with the debug name "op:<what>", runs, and reads the report's
// program tree (libpva): each name must be a Block's name or the start of one
// ("op:<what>/..."). Also: the groups of a matMulGrouped run in one compute
// set per phase (products, then the partial sums), not one per group.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/AllTrue.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Sort.hpp>
#include <popops/TopK.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <pva/pva.hpp>

#include <iostream>
#include <set>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

Tensor variable(Graph& g, const Type& type, const std::vector<std::size_t>& shape) {
    Tensor t = g.addVariable(type, shape);
    poputil::mapTensorLinearly(g, t);
    return t;
}

void collectBlocks(const pva::Program& p, std::set<std::string>& names) {
    if (p.type() == pva::Program::Type::Block) {
        names.insert(p.name());
    }
    for (std::size_t i = 0; i < p.children().size(); ++i) {
        collectBlocks(*p.children()[i], names);
    }
}

bool hasBlock(const std::set<std::string>& names, const std::string& name) {
    for (std::set<std::string>::const_iterator it = names.begin(); it != names.end(); ++it) {
        if (*it == name || it->compare(0, name.size() + 1, name + "/") == 0) {
            return true;
        }
    }
    return false;
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 16;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    popops::addCodelets(g);
    poplin::addCodelets(g);
    popnn::addCodelets(g);
    poprand::addCodelets(g);
    Sequence prog;
    std::vector<std::string> ops;

    const Tensor x = variable(g, FLOAT, {4, 6});
    const Tensor y = variable(g, FLOAT, {4, 6});
    g.setInitialValue(x, std::vector<float>(24, 0.5f));
    g.setInitialValue(y, std::vector<float>(24, 0.25f));
    const Tensor idx = variable(g, UNSIGNED_INT, {2, 1});
    g.setInitialValue(idx, std::vector<unsigned>(2, 1));

    ops.push_back("op:add");
    popops::add(g, x, y, prog, ops.back());
    ops.push_back("op:map");
    popops::map(g, popops::expr::Mul(popops::expr::_1, popops::expr::_2), {x, y}, prog, ops.back());
    ops.push_back("op:reduce");
    popops::reduce(g, x, {1}, {popops::Operation::ADD}, prog, ops.back());
    ops.push_back("op:reduceLogAdd");
    popops::reduce(g, x, {0}, {popops::Operation::LOG_ADD}, prog, ops.back());
    ops.push_back("op:scaledAddTo");
    popops::scaledAddTo(g, y, x, 0.5f, prog, ops.back());
    ops.push_back("op:fill");
    popops::fill(g, variable(g, INT, {5}), prog, 3, ops.back());
    ops.push_back("op:zero");
    popops::zero(g, variable(g, FLOAT, {5}), prog, ops.back());
    ops.push_back("op:cast");
    popops::cast(g, x, HALF, prog, ops.back());
    ops.push_back("op:dynamicSlice");
    popops::dynamicSlice(g, x, idx[0], {0}, {1}, prog, ops.back());
    ops.push_back("op:multiSlice");
    popops::multiSlice(g, x, idx, {0}, {1}, prog, popops::SlicePlan(), OptionFlags(), ops.back());
    ops.push_back("op:sort");
    popops::sort(g, x, 1, prog, ops.back());
    ops.push_back("op:topK");
    popops::topK(g, prog, x, popops::TopKParams(2, true, popops::SortOrder::DESCENDING),
                 ops.back());
    ops.push_back("op:iota");
    popops::iota(g, variable(g, UNSIGNED_INT, {6}), 0u, prog, ops.back());
    ops.push_back("op:matMul");
    poplin::matMul(g, x, y.transpose(), prog, FLOAT, ops.back());
    ops.push_back("op:matMulGrouped");
    poplin::matMulGrouped(g, variable(g, FLOAT, {4, 8, 16}), variable(g, FLOAT, {4, 16, 8}), prog,
                          FLOAT, ops.back());
    ops.push_back("op:nonLinearity");
    popnn::nonLinearity(g, popnn::NonLinearityType::RELU, x, prog, ops.back());
    ops.push_back("op:softmax");
    popnn::nonLinearity(g, popnn::NonLinearityType::SOFTMAX, x, prog, ops.back());
    ops.push_back("op:uniform");
    poprand::uniform(g, NULL, 0, x, FLOAT, 0.0, 1.0, prog, ops.back());
    ops.push_back("op:dropout");
    poprand::dropout(g, NULL, 0, x, x, 0.5, 2.0, prog, ops.back());
    ops.push_back("op:dynamicUpdate");
    popops::dynamicUpdate(g, x, y.slice(0, 1), idx[0], {0}, {1}, prog, ops.back());
    ops.push_back("op:multiUpdate");
    popops::multiUpdate(g, x, y.slice(0, 2).expand({1}), idx, {0}, {1}, prog, popops::SlicePlan(),
                        OptionFlags(), ops.back());
    ops.push_back("op:sortKeyValue");
    popops::sortKeyValue(g, x, y, 1, prog, ops.back());
    ops.push_back("op:topKWithPermutation");
    popops::topKWithPermutation(g, prog, x, popops::TopKParams(3, false, popops::SortOrder::NONE),
                                ops.back());
    ops.push_back("op:encodeOneHot");
    popops::encodeOneHot(g, idx.flatten(), variable(g, FLOAT, {2, 6}), prog, ops.back());
    ops.push_back("op:allTrue");
    popops::allTrue(g, popops::cast(g, x, BOOL, prog), prog, ops.back());
    ops.push_back("op:matMulAcc");
    poplin::matMulAcc(g, variable(g, FLOAT, {4, 4}), 0.5f, x, y.transpose(), prog, ops.back());
    ops.push_back("op:convolution");
    {
        const poplin::ConvParams params(FLOAT, 1, {5, 5}, {3, 3}, 2, 3, 1);
        const Tensor in = poplin::createInput(g, params, "convIn");
        const Tensor w = poplin::createWeights(g, params, "convW");
        g.setInitialValue(in, std::vector<float>(in.numElements(), 1.0f));
        g.setInitialValue(w, std::vector<float>(w.numElements(), 1.0f));
        poplin::convolution(g, in, w, params, false, prog, ops.back());
    }
    ops.push_back("op:calcLoss");
    {
        const Tensor labels = variable(g, UNSIGNED_INT, {4});
        g.setInitialValue(labels, std::vector<unsigned>(4, 2));
        prog.add(popnn::calcLoss(g, x, labels, variable(g, FLOAT, {4}), variable(g, FLOAT, {4, 6}),
                                 popnn::CROSS_ENTROPY_LOSS, ops.back()));
    }
    ops.push_back("op:pool");
    {
        const Tensor acts = variable(g, FLOAT, {1, 2, 4, 4});
        g.setInitialValue(acts, std::vector<float>(32, 1.0f));
        popnn::pooling::pool(g,
                             popnn::pooling::PoolParams(popnn::PoolingType::MAX, {4, 4}, {2, 2},
                                                        {2, 2}, {0, 0}, {0, 0}, 2, 1, FLOAT),
                             acts, prog, ops.back());
    }
    ops.push_back("op:batchNormStatistics");
    popnn::bn::batchNormStatistics(g, x, 1e-5f, prog, false, false, FLOAT, ops.back());

    Engine engine(g, prog);
    engine.load(device);
    engine.run(0);
    const pva::Report report = engine.getReport();
    std::set<std::string> blocks;
    const std::vector<std::shared_ptr<pva::Program>> roots = report.compilation().controlPrograms();
    for (std::size_t i = 0; i < roots.size(); ++i) {
        collectBlocks(*roots[i], blocks);
    }
    int failures = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const bool found = hasBlock(blocks, ops[i]);
        failures += found ? 0 : 1;
        std::cout << ops[i] << ": " << (found ? "Block" : "NO BLOCK") << "\n";
    }
    // One compute set per phase for all four groups.
    const std::vector<pva::ComputeSet> css = report.compilation().computeSets();
    std::size_t groupedProducts = 0;
    for (std::size_t i = 0; i < css.size(); ++i) {
        if (css[i].name().compare(0, 17, "op:matMulGrouped/") == 0 &&
            css[i].name().find("products") != std::string::npos) {
            ++groupedProducts;
        }
    }
    std::cout << "matMulGrouped product compute sets: " << groupedProducts << "\n";
    return failures == 0 && groupedProducts == 1 ? 0 : 1;
}
