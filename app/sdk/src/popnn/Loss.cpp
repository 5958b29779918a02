// popnn's Loss.hpp on the engine's operations, planned as PopLibs plans it:
// the labels one-hot encoded beside the model's outputs, an element-wise
// transform giving deltas and per-element loss terms, a reduction of each row
// into the loss; accuracy from each row's arg-max (max, then the first
// column holding it, both reductions) compared with the labels and summed
// into numCorrect, which it updates (PopLibs' CalcAccuracy adds to it).
#include "Common.h"
#include "engine/codelets/Codelet.h"
#include "engine/codelets/Vertex.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Order.h"

#include <popnn/Loss.hpp>
#include <popnn/codelets.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace popnn {

using namespace detail;
using tessera::ops::ReduceOp;

namespace {

constexpr double kEpsLogFloat = 1.17549435e-38; // PopLibs' EPS_LOG_N_FLOAT
constexpr double kEpsLogHalf = 0.000000059605;  // EPS_LOG_N_HALF

// The K largest of one row, largest first (stable: the lower index first
// among equals), with their indices.
template <typename T>
class TopKRow : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> in;
    tessera::Output<tessera::Vector<T>> values;
    tessera::Output<tessera::Vector<unsigned>> indices;
    bool compute() {
        std::vector<unsigned> order(in.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](unsigned a, unsigned b) { return in[a] > in[b]; });
        for (std::size_t k = 0; k < values.size(); ++k) {
            values[k] = in[order[k]];
            indices[k] = order[k];
        }
        return true;
    }
};

template <typename T>
void addTopK(tessera::Graph& g, tessera::Type type) {
    using V = TopKRow<T>;
    g.addCodelet(tessera::CodeletBuilder<V>("popnn::TopKRow<" + typeString(type) + ">")
                     .field("in", &V::in)
                     .field("values", &V::values)
                     .field("indices", &V::indices)
                     .sameSize({"values", "indices"})
                     .codeBytes(256)
                     .estimator("20 + 4 * n * log2(n) (a sort of the row)",
                                [](const tessera::VertexIntrospector& v, const tessera::Target&) {
                                    const std::size_t n =
                                        std::max<std::size_t>(v.fieldSize("in"), 2);
                                    const auto logn = static_cast<std::uint64_t>(
                                        std::ceil(std::log2(static_cast<double>(n))));
                                    return tessera::PerfEstimate{20 + 4 * n * logn, 0};
                                })
                     .build());
}

double maskedCode(tessera::Type labelType) {
    return labelType == tessera::Type::Int ? -1.0 : double(MASKED_LABEL_CODE);
}

void checkLabels(const tessera::Tensor& expected, const std::string& what) {
    if (expected.elementType() != tessera::Type::UnsignedInt &&
        expected.elementType() != tessera::Type::Int) {
        fail(what + ": Unexpected 'expected' tensor type, only UNSIGNED_INT or INT are supported");
    }
}

std::string dims2(const tessera::Tensor& t) {
    return "{" + std::to_string(t.dim(0)) + "," + std::to_string(t.dim(1)) + "}";
}

// A one-element tensor of `type` as a scalar view, or the constant 1 on
// `tile` when not given.
tessera::Tensor scalarOrOne(tessera::Graph& g, const poplar::Tensor& given, tessera::Type type,
                            tessera::TileId tile, const std::string& what) {
    if (given.valid()) {
        const tessera::Tensor& t = Access::tensor(given);
        if (t.numElements() != 1 || t.elementType() != type) {
            fail("calcLoss: '" + what + "' must be a one-element " + typeString(type) + " tensor");
        }
        return t.reshape({});
    }
    tessera::Tensor one = g.addConstant(type, {}, 1.0, "calcLoss/" + what);
    g.setTileMapping(one, tile);
    return one;
}

void lossImpl(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& p,
              const tessera::Tensor& expected, const tessera::Tensor& loss,
              const tessera::Tensor& deltas, const poplar::Tensor& deltasScale,
              const poplar::Tensor& modelOutputScaling, LossType lossType,
              const std::string& name) {
    if (p.rank() != 2) {
        fail("calcLoss: Rank mismatch. 'modelOutputs' tensor rank is: " + std::to_string(p.rank()) +
             ". Must be a 2D tensor");
    }
    if (expected.rank() != 1 || expected.dim(0) != p.dim(0)) {
        fail("calcLoss: 'expected' must be a 1D tensor of " + std::to_string(p.dim(0)) +
             " labels (the rows of 'modelOutputs')");
    }
    if (loss.rank() != 1 || loss.dim(0) != p.dim(0)) {
        fail("calcLoss: 'loss' must be a 1D tensor of " + std::to_string(p.dim(0)) +
             " elements (the rows of 'modelOutputs')");
    }
    if (deltas.rank() != 2 || deltas.shape() != p.shape()) {
        fail("calcLoss: 'deltas' must be a 2D tensor of the same dimensions as 'modelOutputs': " +
             dims2(p));
    }
    if (lossType != SUM_SQUARED_LOSS && lossType != CROSS_ENTROPY_LOSS) {
        fail("calcLoss: Unknown loss type requested in calcLoss");
    }
    const tessera::Type type = p.elementType();
    if (type != tessera::Type::Float && type != tessera::Type::Half) {
        fail("calcLoss: 'modelOutputs' must be float or half, not " + typeString(type));
    }
    if (deltas.elementType() != type || loss.elementType() != type) {
        fail("calcLoss: 'loss' and 'deltas' must have the type of 'modelOutputs' (" +
             typeString(type) + ")");
    }
    checkLabels(expected, "calcLoss");
    const bool ce = lossType == CROSS_ENTROPY_LOSS;
    const std::string prefix = name + (ce ? "/LossCrossEntropy" : "/LossSumSquared");
    const tessera::Tensor oneHot = tessera::ops::cloneLike(g, p, type, prefix + "/OneHotEncoded");
    tessera::ops::encodeOneHot(g, seq, expected, oneHot, std::nullopt, std::nullopt,
                               prefix + "/OneHot");
    Ex delta, term;
    std::vector<tessera::Tensor> inputs = {p, oneHot};
    if (ce) {
        const tessera::TileId tile = firstTile(g, p);
        inputs.push_back(scalarOrOne(g, deltasScale, type, tile, "deltasScale"));
        inputs.push_back(scalarOrOne(g, modelOutputScaling, type, tile, "modelOutputScaling"));
        // deltas = deltasScale / modelOutputScaling * (p - onehot * modelOutputScaling)
        const auto s = delta.placeholder(3);
        delta.binary(BinaryOp::Multiply, delta.binary(BinaryOp::Divide, delta.placeholder(2), s),
                     delta.binary(BinaryOp::Subtract, delta.placeholder(0),
                                  delta.binary(BinaryOp::Multiply, delta.placeholder(1), s)));
        // term = -onehot * (log(p + eps) - log(modelOutputScaling))
        const double eps = type == tessera::Type::Float ? kEpsLogFloat : kEpsLogHalf;
        const auto logP =
            term.unary(UnaryOp::Logarithm,
                       term.binary(BinaryOp::Add, term.placeholder(0), term.constant(eps, type)));
        const auto diff = term.binary(BinaryOp::Subtract, logP,
                                      term.unary(UnaryOp::Logarithm, term.placeholder(3)));
        term.unary(UnaryOp::Negate, term.binary(BinaryOp::Multiply, term.placeholder(1), diff));
    } else {
        delta.binary(BinaryOp::Subtract, delta.placeholder(0), delta.placeholder(1));
        const auto d = term.binary(BinaryOp::Subtract, term.placeholder(0), term.placeholder(1));
        term.binary(BinaryOp::Multiply, term.constant(0.5, type),
                    term.binary(BinaryOp::Multiply, d, d));
    }
    tessera::ops::mapWithOutput(g, seq, delta, inputs, deltas, prefix + "/deltas");
    const tessera::Tensor transformed = tessera::ops::map(g, seq, term, inputs, prefix + "/loss");
    if (ce && expected.numElements() > 1) {
        // Masked labels' deltas are zeroed (PopLibs does so for batches > 1).
        Ex keep;
        keep.cast(
            keep.binary(BinaryOp::NotEqual, keep.placeholder(0),
                        keep.constant(maskedCode(expected.elementType()), expected.elementType())),
            type);
        const tessera::Tensor scale = tessera::ops::map(g, seq, keep, {expected}, prefix + "/mask");
        Ex mul;
        mul.binary(BinaryOp::Multiply, mul.placeholder(0), mul.placeholder(1));
        tessera::ops::mapInPlace(g, seq, mul, {deltas, alongRows(scale, p.dim(1))},
                                 prefix + "/maskDeltas");
    }
    reduceInto(g, seq, transformed, loss, {1}, ReduceOp::Add, false, prefix + "/reduce_loss");
}

// Each row's max (or min) and the first column holding it, as `indexType`.
std::pair<tessera::Tensor, tessera::Tensor>
extremeAndIndex(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& in,
                tessera::Type indexType, bool max, const std::string& name) {
    if (in.rank() != 2) {
        fail("input tensor must be of rank 2");
    }
    const tessera::Type type = in.elementType();
    if (type != tessera::Type::Float && type != tessera::Type::Half && type != tessera::Type::Int &&
        type != tessera::Type::UnsignedInt) {
        fail(std::string(max ? "arg max" : "arg min") + " on input type is not supported");
    }
    const std::size_t rows = in.dim(0), cols = in.dim(1);
    const tessera::Tensor value =
        reduce(g, seq, in, type, {1}, max ? ReduceOp::Max : ReduceOp::Min, name + "/value");
    std::vector<double> columns(cols);
    std::iota(columns.begin(), columns.end(), 0.0);
    tessera::Tensor iota = g.addConstant(indexType, {cols}, columns, name + "/columns");
    g.setTileMapping(iota, firstTile(g, in));
    // Each element's column where it equals the row's extreme, else cols.
    Ex e;
    e.ternary(TernaryOp::Select, e.placeholder(2), e.constant(double(cols), indexType),
              e.binary(BinaryOp::Equal, e.placeholder(0), e.placeholder(1)));
    const tessera::Tensor candidates = tessera::ops::map(
        g, seq, e, {in, alongRows(value, cols), iota.expand({0}).broadcast(rows, 0)},
        name + "/candidates");
    const tessera::Tensor index =
        reduce(g, seq, candidates, indexType, {1}, ReduceOp::Min, name + "/index");
    return {value, index};
}

void accuracyImpl(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& p,
                  const tessera::Tensor& expected, const tessera::Tensor& numCorrect,
                  const std::string& name) {
    if (numCorrect.numElements() != 1) {
        fail("numCorrect must be scalar or single element tensor");
    }
    if (numCorrect.elementType() != tessera::Type::UnsignedInt) {
        fail("calcAccuracy: numCorrect must be UNSIGNED_INT, not " +
             typeString(numCorrect.elementType()));
    }
    if (p.rank() != 2) {
        fail("calcAccuracy: modelOutputs must be a 2D tensor");
    }
    if (expected.rank() > 1) {
        fail("expected must be a 1-dimensional tensor");
    }
    if (expected.rank() == 0 || expected.dim(0) != p.dim(0)) {
        fail("expected tensor must be of length equal the number of batches given in "
             "modelOutputs tensor");
    }
    checkLabels(expected, "calcAccuracy");
    const std::string prefix = name + "/Accuracy";
    const tessera::Type labelType = expected.elementType();
    const tessera::Tensor index =
        extremeAndIndex(g, seq, p, labelType, true, prefix + "/argMax").second;
    Ex hit;
    hit.cast(hit.binary(BinaryOp::LogicalAnd,
                        hit.binary(BinaryOp::Equal, hit.placeholder(0), hit.placeholder(1)),
                        hit.binary(BinaryOp::NotEqual, hit.placeholder(1),
                                   hit.constant(maskedCode(labelType), labelType))),
             tessera::Type::UnsignedInt);
    const tessera::Tensor hits =
        tessera::ops::map(g, seq, hit, {index, expected}, prefix + "/hits");
    reduceInto(g, seq, hits, numCorrect.reshape({}), {0}, ReduceOp::Add, true,
               prefix + "/numCorrect");
}

poplar::program::Program
asProgram(tessera::program::Sequence body, const std::string& name,
          const tessera::SourceLocation& where = tessera::SourceLocation::current()) {
    poplar::program::Program out;
    Access::setProgram(
        out, tessera::program::Block(body, name, tessera::program::LibraryCall::at(where)));
    return out;
}

poplar::program::Program calcLossAll(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                     const poplar::Tensor& expected, const poplar::Tensor& loss,
                                     const poplar::Tensor& deltas,
                                     const poplar::Tensor& deltasScale,
                                     const poplar::Tensor& modelOutputScaling,
                                     const poplar::Tensor* numCorrect, LossType lossType,
                                     const poplar::DebugContext& dc) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const std::string name = nameOr(dc, "calcLoss");
        tessera::program::Sequence body;
        const tessera::Tensor& p = Access::tensor(modelOutputs);
        lossImpl(g, body, p, Access::tensor(expected), Access::tensor(loss), Access::tensor(deltas),
                 deltasScale, modelOutputScaling, lossType, name);
        if (numCorrect) {
            accuracyImpl(g, body, p, Access::tensor(expected), Access::tensor(*numCorrect), name);
        }
        return asProgram(body, name);
    });
}

tessera::Tensor topKRows(tessera::Graph& g, tessera::program::Sequence& seq,
                         const tessera::Tensor& in, unsigned k, tessera::Tensor& indices,
                         const std::string& name) {
    if (in.rank() != 2) {
        fail("Topk: input tensor must be of rank 2");
    }
    const tessera::Type type = in.elementType();
    if (type == tessera::Type::Bool) {
        fail("not supported by Tessera: popnn::topK of BOOL");
    }
    if (in.dim(1) < k) {
        fail("K must be smaller or equal to the size of the dimensions which the TopK is being "
             "calculated for.");
    }
    addLossCodelets(g);
    const std::size_t rows = in.dim(0);
    const tessera::Tensor values = g.addVariable(type, {rows, k}, name + "/values");
    indices = g.addVariable(tessera::Type::UnsignedInt, {rows, k}, name + "/indices");
    const tessera::ComputeSet cs = g.addComputeSet(name);
    for (std::size_t r = 0; r < rows; ++r) {
        const tessera::TileId tile = firstTile(g, in[r]);
        g.setTileMapping(values[r], tile);
        g.setTileMapping(indices[r], tile);
        g.setTileMapping(
            g.addVertex(cs, "popnn::TopKRow<" + typeString(type) + ">",
                        {{"in", in[r]}, {"values", values[r]}, {"indices", indices[r]}}),
            tile);
    }
    seq.add(tessera::program::Execute(cs, name));
    indices = indices.expand({1});
    return values.expand({1});
}

} // namespace

void detail::addLossCodelets(tessera::Graph& g) {
    addTopK<float>(g, tessera::Type::Float);
    addTopK<tessera::half>(g, tessera::Type::Half);
    addTopK<int>(g, tessera::Type::Int);
    addTopK<unsigned>(g, tessera::Type::UnsignedInt);
}

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& deltasScale,
                                  const poplar::Tensor& modelOutputScaling, LossType lossType,
                                  const poplar::DebugContext& dc) {
    return calcLossAll(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                       nullptr, lossType, dc);
}

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, LossType lossType,
                                  const poplar::DebugContext& dc) {
    return calcLossAll(graph, modelOutputs, expected, loss, deltas, poplar::Tensor(),
                       poplar::Tensor(), nullptr, lossType, dc);
}

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& deltasScale,
                                  const poplar::Tensor& modelOutputScaling,
                                  const poplar::Tensor& numCorrect, LossType lossType,
                                  const poplar::DebugContext& dc) {
    return calcLossAll(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                       &numCorrect, lossType, dc);
}

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& numCorrect,
                                  LossType lossType, const poplar::DebugContext& dc) {
    return calcLossAll(graph, modelOutputs, expected, loss, deltas, poplar::Tensor(),
                       poplar::Tensor(), &numCorrect, lossType, dc);
}

poplar::program::Program calcAccuracy(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                      const poplar::Tensor& expected,
                                      const poplar::Tensor& numCorrect,
                                      const poplar::DebugContext& dc) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const std::string name = nameOr(dc, "calcAccuracy");
        tessera::program::Sequence body;
        accuracyImpl(g, body, Access::tensor(modelOutputs), Access::tensor(expected),
                     Access::tensor(numCorrect), name);
        return asProgram(body, name);
    });
}

namespace {

std::pair<poplar::Tensor, poplar::Tensor> extremeOp(poplar::Graph& graph,
                                                    const poplar::Tensor& input,
                                                    poplar::program::Sequence& prog, bool max,
                                                    const std::string& name) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const auto [value, index] = intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::program::Sequence body;
            auto result = extremeAndIndex(g, body, Access::tensor(input),
                                          tessera::Type::UnsignedInt, max, name);
            seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
            return result;
        });
        return std::make_pair(Access::makeTensor(value), Access::makeTensor(index));
    });
}

} // namespace

poplar::Tensor argMax(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    return extremeOp(graph, input, prog, true, nameOr(dc, "argMax")).second;
}

std::pair<poplar::Tensor, poplar::Tensor> maxAndArgMax(poplar::Graph& graph,
                                                       const poplar::Tensor& input,
                                                       poplar::program::Sequence& prog,
                                                       const poplar::DebugContext& dc) {
    return extremeOp(graph, input, prog, true, nameOr(dc, "maxAndArgMax"));
}

poplar::Tensor argMin(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    return extremeOp(graph, input, prog, false, nameOr(dc, "argMin")).second;
}

std::pair<poplar::Tensor, poplar::Tensor> minAndArgMin(poplar::Graph& graph,
                                                       const poplar::Tensor& input,
                                                       poplar::program::Sequence& prog,
                                                       const poplar::DebugContext& dc) {
    return extremeOp(graph, input, prog, false, nameOr(dc, "minAndArgMin"));
}

poplar::Tensor topK(poplar::Graph& graph, const poplar::Tensor& input, poplar::Tensor& indices,
                    unsigned K, bool, poplar::program::Sequence& prog,
                    const poplar::DebugContext& dc) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const std::string name = nameOr(dc, "topK");
        tessera::Tensor idx;
        const tessera::Tensor values = intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::program::Sequence body;
            const tessera::Tensor v = topKRows(g, body, Access::tensor(input), K, idx, name);
            seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
            return v;
        });
        indices = Access::makeTensor(idx);
        return Access::makeTensor(values);
    });
}

void addCodelets(poplar::Graph& graph) {
    translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        addLossCodelets(g);
        addNonLinearityCodelets(g);
        addPoolingCodelets(g);
        return 0;
    });
}

namespace {
void addAll(tessera::Graph& g) {
    addLossCodelets(g);
    addNonLinearityCodelets(g);
    addPoolingCodelets(g);
}
// A deserialised executable gets popnn's codelets too.
[[maybe_unused]] const bool kProviderRegistered =
    (poplar::detail::registerCodeletProvider(&addAll), true);
} // namespace

} // namespace popnn
