// popnn: non-linearities on the engine's operations, and the loss codelets.
#include "Impl.h"
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Softmax.h"

#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>

#include <cmath>

namespace popnn {

using poplar::detail::Access;
using poplar::detail::intoSequence;
using poplar::detail::translate;

namespace {

// One row of a batch: loss, deltas = p - onehot(label) and whether the
// largest output is at the label.
template <typename L>
class LossRow : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<float>> probs;
    tessera::Input<L> label;
    tessera::Output<float> loss;
    tessera::Output<tessera::Vector<float>> deltas;
    tessera::Output<unsigned> correct;
    unsigned crossEntropy = 1;

    bool compute() {
        const std::size_t n = probs.size();
        const std::size_t target = static_cast<std::size_t>(label);
        std::size_t best = 0;
        float sumSquares = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const float onehot = i == target ? 1.0f : 0.0f;
            deltas[i] = probs[i] - onehot;
            sumSquares += (probs[i] - onehot) * (probs[i] - onehot);
            if (probs[i] > probs[best]) {
                best = i;
            }
        }
        if (crossEntropy) {
            const float p = target < n ? float(probs[target]) : 0.0f;
            loss = -std::log(std::max(p, 1e-30f));
        } else {
            loss = 0.5f * sumSquares;
        }
        correct = best == target ? 1u : 0u;
        return true;
    }
};

// out += the sum of `in` (unsigned): PopLibs adds each batch's correct
// predictions to numCorrect.
class SumUnsigned : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<unsigned>> in;
    tessera::InOut<unsigned> out;
    bool compute() {
        unsigned s = out;
        for (unsigned v : in) {
            s += v;
        }
        out = s;
        return true;
    }
};

template <typename L>
tessera::CodeletInfo lossRowCodelet(const std::string& name) {
    using V = LossRow<L>;
    return tessera::CodeletBuilder<V>(name)
        .field("probs", &V::probs)
        .field("label", &V::label)
        .field("loss", &V::loss)
        .field("deltas", &V::deltas)
        .field("correct", &V::correct)
        .state("crossEntropy", &V::crossEntropy)
        .sameSize({"probs", "deltas"})
        .codeBytes(320)
        .estimator("30 + 4 * n (n classes; the log costs 30 once)",
                   [](const tessera::VertexIntrospector& v, const tessera::Target&) {
                       const std::size_t n = v.fieldSize("probs");
                       return tessera::PerfEstimate{30 + 4 * n, 4 * n};
                   })
        .build();
}

void addLossCodelets(tessera::Graph& g) {
    g.addCodelet(lossRowCodelet<unsigned>("popnn::LossRow<unsigned int>"));
    g.addCodelet(lossRowCodelet<int>("popnn::LossRow<int>"));
    g.addCodelet(tessera::CodeletBuilder<SumUnsigned>("popnn::SumUnsigned")
                     .field("in", &SumUnsigned::in)
                     .field("out", &SumUnsigned::out)
                     .codeBytes(96)
                     .estimator("12 + n / 2",
                                [](const tessera::VertexIntrospector& v, const tessera::Target&) {
                                    return tessera::PerfEstimate{
                                        tessera::vectorCycles(v.fieldSize("in"),
                                                              tessera::Type::UnsignedInt, 0.5, 12),
                                        v.fieldSize("in")};
                                })
                     .build());
}

// A deserialised executable gets the loss codelets too.
[[maybe_unused]] const bool kProviderRegistered =
    (poplar::detail::registerCodeletProvider(&addLossCodelets), true);

std::string nameOr(const poplar::DebugContext& dc, const std::string& fallback) {
    return dc.getPathName().empty() ? fallback : dc.getPathName();
}

} // namespace

void addCodelets(poplar::Graph& graph) {
    translate([&] {
        addLossCodelets(Access::graph(graph).graph);
        return 0;
    });
}

poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType type, poplar::Tensor t,
                            poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    return translate([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& in = Access::tensor(t);
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            switch (type) {
            case NonLinearityType::RELU:
                return tessera::ops::unary(g, seq, "Relu", in, nameOr(dc, "relu"));
            case NonLinearityType::SIGMOID:
                return tessera::ops::unary(g, seq, "Sigmoid", in, nameOr(dc, "sigmoid"));
            case NonLinearityType::TANH:
                return tessera::ops::unary(g, seq, "Tanh", in, nameOr(dc, "tanh"));
            case NonLinearityType::SOFTMAX:
            case NonLinearityType::SOFTMAX_STABLE: {
                // Over the innermost dimension; the engine's softmax is stable.
                if (in.rank() == 0) {
                    throw poplar::poplar_error("nonLinearity: SOFTMAX of a scalar");
                }
                const std::size_t cols = in.dim(in.rank() - 1);
                const tessera::Tensor rows = in.reshape({in.numElements() / cols, cols});
                return tessera::ops::softmaxRows(g, seq, rows, nameOr(dc, "softmax"))
                    .reshape(in.shape());
            }
            default:
                throw poplar::poplar_error("nonLinearity: type not supported by Tessera yet "
                                           "(SIGMOID, RELU, TANH, SOFTMAX, SOFTMAX_STABLE are)");
            }
        }));
    });
}

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType type, poplar::Tensor t,
                         poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    const poplar::Tensor result = nonLinearity(graph, type, t, prog, dc);
    prog.add(poplar::program::Copy(result, t));
}

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& numCorrect,
                                  LossType lossType, const poplar::DebugContext& dc) {
    return translate([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        addLossCodelets(g);
        const tessera::Tensor& p = Access::tensor(modelOutputs);
        const tessera::Tensor& labels = Access::tensor(expected);
        const tessera::Tensor& l = Access::tensor(loss);
        const tessera::Tensor& d = Access::tensor(deltas);
        if (p.rank() != 2 || p.elementType() != tessera::Type::Float) {
            throw poplar::poplar_error("calcLoss: modelOutputs must be FLOAT {batch, classes}");
        }
        const std::size_t batch = p.dim(0);
        if (labels.numElements() != batch || l.numElements() != batch ||
            d.numElements() != p.numElements()) {
            throw poplar::poplar_error("calcLoss: expected and loss need batch (" +
                                       std::to_string(batch) +
                                       ") elements, deltas the shape of modelOutputs");
        }
        const std::string labelType =
            labels.elementType() == tessera::Type::Int ? "int" : "unsigned int";
        if (labels.elementType() != tessera::Type::Int &&
            labels.elementType() != tessera::Type::UnsignedInt) {
            throw poplar::poplar_error("calcLoss: expected must hold INT or UNSIGNED_INT labels");
        }
        const std::string name = nameOr(dc, "calcLoss");
        tessera::program::Sequence body;
        // Each row runs on the tile holding the first of its outputs.
        const tessera::Tensor correct =
            g.addVariable(tessera::Type::UnsignedInt, {batch}, name + "/correct");
        const tessera::ComputeSet cs = g.addComputeSet(name + "/rows");
        const tessera::Tensor dd = d.reshape(p.shape());
        const tessera::Tensor lf = l.flatten();
        const tessera::Tensor lab = labels.flatten();
        for (std::size_t b = 0; b < batch; ++b) {
            const tessera::TileId tile = [&] {
                const auto mapping = g.getTileMapping(p[b]);
                for (std::size_t t = 0; t < mapping.size(); ++t) {
                    if (!mapping[t].empty()) {
                        return tessera::TileId(t);
                    }
                }
                return tessera::TileId(0);
            }();
            g.setTileMapping(correct[b], tile);
            const tessera::VertexRef v = g.addVertex(cs, "popnn::LossRow<" + labelType + ">",
                                                     {{"probs", p[b]},
                                                      {"label", lab[b].reshape({})},
                                                      {"loss", lf[b].reshape({})},
                                                      {"deltas", dd[b]},
                                                      {"correct", correct[b].reshape({})}});
            g.setInitialValue(v["crossEntropy"], lossType == CROSS_ENTROPY_LOSS ? 1.0 : 0.0);
            g.setTileMapping(v, tile);
        }
        body.add(tessera::program::Execute(cs, name + "/rows"));
        const tessera::Tensor* counted = nullptr;
        tessera::Tensor nc;
        if (numCorrect.valid()) {
            nc = Access::tensor(numCorrect);
            counted = &nc;
        }
        if (counted) {
            const tessera::ComputeSet sum = g.addComputeSet(name + "/numCorrect");
            const tessera::VertexRef v = g.addVertex(
                sum, "popnn::SumUnsigned", {{"in", correct}, {"out", counted->reshape({})}});
            const auto mapping = g.getTileMapping(*counted);
            tessera::TileId tile = 0;
            for (std::size_t t = 0; t < mapping.size(); ++t) {
                if (!mapping[t].empty()) {
                    tile = tessera::TileId(t);
                    break;
                }
            }
            g.setTileMapping(v, tile);
            body.add(tessera::program::Execute(sum, name + "/numCorrect"));
        }
        poplar::program::Program out;
        Access::setProgram(out, tessera::program::Block(body, name));
        return out;
    });
}

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, LossType lossType,
                                  const poplar::DebugContext& dc) {
    return calcLoss(graph, modelOutputs, expected, loss, deltas, poplar::Tensor(), lossType, dc);
}

} // namespace popnn
