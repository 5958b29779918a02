// poplin convolutions on the engine's convolution (engine/ops/Convolution).
#include "engine/ops/Convolution.h"

#include "Common.h"
#include "engine/ops/Map.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Reduction.h"

#include <poplin/Convolution.hpp>

namespace poplin {

using poplar::detail::Access;
using poplar::detail::engineType;
using poplar::detail::intoSequence;
using poplar::detail::translatePoplibs;
using namespace poplin::detail;

namespace {

std::vector<std::size_t> sizes(const std::vector<unsigned>& v) {
    return std::vector<std::size_t>(v.begin(), v.end());
}

tessera::ops::ConvTransform transform(const ConvParams::InputTransform& t) {
    tessera::ops::ConvTransform out;
    out.truncationLower = sizes(t.truncationLower);
    out.truncationUpper = sizes(t.truncationUpper);
    out.dilation = sizes(t.dilation);
    out.paddingLower = sizes(t.paddingLower);
    out.paddingUpper = sizes(t.paddingUpper);
    out.flip = t.flip;
    return out;
}

// The engine's description of `params` (validated as PopLibs validates).
tessera::ops::ConvSpec spec(const ConvParams& params, const std::string& what) {
    params.validate();
    if (params.inputType != poplar::FLOAT && params.inputType != poplar::HALF) {
        throw poputil::poplibs_error(what + ": the input type must be float or half, not " +
                                     params.inputType.toString());
    }
    if (params.outputType != params.inputType) {
        throw poplar::poplar_error(what + ": not supported by Tessera: a convolution of " +
                                   params.inputType.toString() + " giving " +
                                   params.outputType.toString() +
                                   " (the input and output types must be equal)");
    }
    tessera::ops::ConvSpec s;
    s.inputType = engineType(params.inputType);
    s.outputType = engineType(params.outputType);
    s.batchSize = params.batchSize;
    s.inputFieldShape = params.inputFieldShape;
    s.kernelShape = params.kernelShape;
    s.inputChannelsPerGroup = params.inputChannels;
    s.outputChannelsPerGroup = params.outputChannels;
    s.numGroups = params.numConvGroups;
    s.input = transform(params.inputTransform);
    s.kernel = transform(params.kernelTransform);
    const ConvParams::OutputTransform& o = params.outputTransform;
    s.output.truncationLower = sizes(o.truncationLower);
    s.output.truncationUpper = sizes(o.truncationUpper);
    s.output.stride = sizes(o.stride);
    s.output.paddingLower = sizes(o.paddingLower);
    s.output.paddingUpper = sizes(o.paddingUpper);
    translatePoplibs([&] {
        s.validate(what);
        return 0;
    });
    return s;
}

// [G][A][B][kernel...] as [G][B][A][kernel...] with every kernel dimension
// reversed (a view).
tessera::Tensor transposeChansFlip(const tessera::Tensor& w) {
    std::vector<std::size_t> perm(w.rank());
    for (std::size_t i = 0; i < perm.size(); ++i) {
        perm[i] = i;
    }
    std::swap(perm[1], perm[2]);
    tessera::Tensor out = w.dimShuffle(perm);
    for (std::size_t d = 3; d < w.rank(); ++d) {
        out = out.reverse(d);
    }
    return out;
}

[[noreturn]] void unsupported(const std::string& item) {
    throw poplar::poplar_error("not supported by Tessera: " + item);
}

} // namespace

std::uint64_t getFwdFlops(const ConvParams& params) {
    const tessera::ops::ConvSpec s = spec(params, "poplin::getFwdFlops");
    std::uint64_t macs =
        s.batchSize * s.numGroups * s.outputChannelsPerGroup * s.inputChannelsPerGroup;
    for (unsigned d = 0; d < params.getNumFieldDims(); ++d) {
        macs *= params.getUntransformedOutputSize(d) * params.getTruncatedKernelSize(d);
    }
    return 2 * macs;
}

poplar::Tensor createWeights(poplar::Graph& graph, const ConvParams& params,
                             const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                             PlanningCache* cache) {
    checkOptions(options, "poplin::createWeights");
    const tessera::ops::ConvSpec s = spec(params, "poplin::createWeights");
    if (cache) {
        cache->recordUse();
    }
    return translatePoplibs([&] {
        return Access::makeTensor(
            tessera::ops::createConvWeights(Access::graph(graph).graph, s, opName(dc, "weights")));
    });
}

poplar::Tensor createInput(poplar::Graph& graph, const ConvParams& params,
                           const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                           PlanningCache* cache) {
    checkOptions(options, "poplin::createInput");
    const tessera::ops::ConvSpec s = spec(params, "poplin::createInput");
    if (cache) {
        cache->recordUse();
    }
    return translatePoplibs([&] {
        return Access::makeTensor(
            tessera::ops::createConvInput(Access::graph(graph).graph, s, opName(dc, "input")));
    });
}

poplar::Tensor convolution(poplar::Graph& graph, const poplar::Tensor& in,
                           const poplar::Tensor& weights, const ConvParams& params,
                           bool transposeAndFlipWeights, poplar::program::Sequence& prog,
                           const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                           PlanningCache* cache) {
    checkOptions(options, "poplin::convolution");
    const std::string name = opName(dc, "convolution");
    const tessera::ops::ConvSpec s = spec(params, "poplin::convolution '" + name + "'");
    if (cache) {
        cache->recordUse();
    }
    return translatePoplibs([&] {
        tessera::Tensor w = Access::tensor(weights);
        if (transposeAndFlipWeights) {
            if (w.rank() < 3) {
                throw poputil::poplibs_error(
                    "poplin::convolution '" + name + "': the weights to transpose and flip " +
                    tessera::shapeString(w.shape()) + " are not [G][Cin][Cout][kernel...]");
            }
            w = transposeChansFlip(w);
        }
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::convolution(Access::graph(graph).graph, seq, Access::tensor(in), w,
                                             s, name);
        }));
    });
}

void weightsTransposeChansFlipXY(poplar::Graph&, const poplar::Tensor& weightsIn,
                                 const poplar::Tensor& weightsOut, poplar::program::Sequence& prog,
                                 const poplar::DebugContext& dc) {
    const std::string name = opName(dc, "weightsTransposeChansFlipXY");
    translatePoplibs([&] {
        const tessera::Tensor& w = Access::tensor(weightsIn);
        if (w.rank() < 3) {
            throw poputil::poplibs_error("poplin::weightsTransposeChansFlipXY: the weights " +
                                         tessera::shapeString(w.shape()) +
                                         " are not [G][Cout][Cin][kernel...]");
        }
        const tessera::Tensor view = transposeChansFlip(w);
        if (view.shape() != weightsOut.shape()) {
            throw poputil::poplibs_error("poplin::weightsTransposeChansFlipXY: weightsOut " +
                                         tessera::shapeString(weightsOut.shape()) + " is not " +
                                         tessera::shapeString(view.shape()));
        }
        prog.add(poplar::program::Copy(Access::makeTensor(view), weightsOut, false, name));
        return 0;
    });
}

namespace {

// The weight-update pass as a convolution of its own (the gradient of
// out_u[o] = sum_k in_t[o + k] w_t[k] is dW_t[k] = sum_o in_t[o + k] dOut_u[o]):
//   input   the activations with the forward input transform, batch and
//           channels swapped: [Ci][G * B][field]
//   kernel  zDeltas, undoing the output transform (truncated by its padding,
//           dilated by its stride, padded by its truncation): [G][Co][B][out]
//   output  dW_t, with the kernel transform undone by the output transform
//           (padding truncated, dilation strided, truncation padded, the
//           flip reversed): [Ci][G * Co][kernel], viewed as [G][Co][Ci][kernel].
tessera::Tensor weightDeltas(tessera::Graph& g, tessera::program::Sequence& seq,
                             const tessera::Tensor& zDeltas, const tessera::Tensor& acts,
                             const ConvParams& fwd, const std::string& name) {
    const tessera::ops::ConvSpec f = spec(fwd, "poplin::calculateWeightDeltas '" + name + "'");
    const std::size_t B = fwd.batchSize, G = fwd.numConvGroups, Ci = fwd.inputChannels,
                      Co = fwd.outputChannels, nd = fwd.getNumFieldDims();
    if (acts.shape() != f.inputShape() || zDeltas.shape() != f.outputShape()) {
        throw poputil::poplibs_error("poplin::calculateWeightDeltas '" + name +
                                     "': the activations " + tessera::shapeString(acts.shape()) +
                                     " and zDeltas " + tessera::shapeString(zDeltas.shape()) +
                                     " are not " + tessera::shapeString(f.inputShape()) + " and " +
                                     tessera::shapeString(f.outputShape()));
    }
    auto at = [](const std::vector<unsigned>& v, std::size_t d, unsigned fallback) {
        return v.empty() ? fallback : v[d];
    };
    tessera::ops::ConvSpec wu;
    wu.inputType = wu.outputType = f.inputType;
    wu.batchSize = Ci;
    wu.inputFieldShape = fwd.inputFieldShape;
    wu.kernelShape = f.outputFieldShape();
    wu.inputChannelsPerGroup = B;
    wu.outputChannelsPerGroup = Co;
    wu.numGroups = G;
    wu.input = transform(fwd.inputTransform);
    const ConvParams::OutputTransform& o = fwd.outputTransform;
    const ConvParams::InputTransform& k = fwd.kernelTransform;
    std::vector<bool> flipped(nd, false);
    for (std::size_t d = 0; d < nd; ++d) {
        const std::size_t untransformed = fwd.getUntransformedOutputSize(static_cast<unsigned>(d));
        const std::size_t stride = at(o.stride, d, 1);
        const std::size_t kept = wu.kernelShape[d] - at(o.paddingLower, d, 0) -
                                 at(o.paddingUpper, d, 0); // strided outputs
        const std::size_t dilated = kept == 0 ? 0 : (kept - 1) * stride + 1;
        wu.kernel.truncationLower.push_back(at(o.paddingLower, d, 0));
        wu.kernel.truncationUpper.push_back(at(o.paddingUpper, d, 0));
        wu.kernel.dilation.push_back(stride);
        wu.kernel.paddingLower.push_back(at(o.truncationLower, d, 0));
        wu.kernel.paddingUpper.push_back(untransformed - at(o.truncationLower, d, 0) - dilated);
        flipped[d] = !k.flip.empty() && k.flip[d];
        const std::size_t lo = at(k.paddingLower, d, 0), hi = at(k.paddingUpper, d, 0);
        const std::size_t tlo = at(k.truncationLower, d, 0), thi = at(k.truncationUpper, d, 0);
        wu.output.truncationLower.push_back(flipped[d] ? hi : lo);
        wu.output.truncationUpper.push_back(flipped[d] ? lo : hi);
        wu.output.stride.push_back(at(k.dilation, d, 1));
        wu.output.paddingLower.push_back(flipped[d] ? thi : tlo);
        wu.output.paddingUpper.push_back(flipped[d] ? tlo : thi);
    }
    wu.validate(name);
    std::vector<std::size_t> field(acts.shape().begin() + 2, acts.shape().end());
    std::vector<std::size_t> perm = {2, 1, 0};  // [B][G][Ci] -> [Ci][G][B]
    std::vector<std::size_t> zperm = {1, 2, 0}; // [B][G][Co] -> [G][Co][B]
    for (std::size_t d = 0; d < nd; ++d) {
        perm.push_back(3 + d);
        zperm.push_back(3 + d);
    }
    auto withField = [&](std::vector<std::size_t> head, const std::vector<std::size_t>& f_) {
        head.insert(head.end(), f_.begin(), f_.end());
        return head;
    };
    const tessera::Tensor in = acts.reshape(withField({B, G, Ci}, field))
                                   .dimShuffle(perm)
                                   .reshape(withField({Ci, G * B}, field));
    const std::vector<std::size_t> outField = f.outputFieldShape();
    const tessera::Tensor kern = zDeltas.reshape(withField({B, G, Co}, outField)).dimShuffle(zperm);
    tessera::Tensor dw = tessera::ops::convolution(g, seq, in, kern, wu, name);
    dw = dw.reshape(withField({Ci, G, Co}, fwd.kernelShape)).dimShuffle(zperm);
    for (std::size_t d = 0; d < nd; ++d) {
        if (flipped[d]) {
            dw = dw.reverse(3 + d);
        }
    }
    return dw;
}

} // namespace

poplar::Tensor calculateWeightDeltas(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                                     const poplar::Tensor& activations, const ConvParams& params,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& dc,
                                     const poplar::OptionFlags& options, PlanningCache* cache) {
    checkOptions(options, "poplin::calculateWeightDeltas");
    if (cache) {
        cache->recordUse();
    }
    const std::string name = opName(dc, "calculateWeightDeltas");
    return translatePoplibs([&] {
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return weightDeltas(Access::graph(graph).graph, seq, Access::tensor(zDeltas),
                                Access::tensor(activations), params, name);
        }));
    });
}

namespace {

// weights += scale * weight deltas, as one operation.
void weightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                  const poplar::Tensor& weights, const poplar::Tensor& activations,
                  const ConvParams& params, const poplar::Tensor* scaleTensor, float scale,
                  poplar::program::Sequence& prog, const std::string& name,
                  const poplar::OptionFlags& options) {
    checkOptions(options, "poplin::convolutionWeightUpdate");
    translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            asOperation(seq, name, [&](tessera::program::Sequence& body) {
                const tessera::Tensor dw =
                    weightDeltas(g, body, Access::tensor(zDeltas), Access::tensor(activations),
                                 params, name + "/deltas");
                const tessera::Tensor& w = Access::tensor(weights);
                if (w.shape() != dw.shape()) {
                    throw poputil::poplibs_error("poplin::convolutionWeightUpdate '" + name +
                                                 "': the weights " +
                                                 tessera::shapeString(w.shape()) + " are not " +
                                                 tessera::shapeString(dw.shape()));
                }
                namespace ex = tessera::ops::expr;
                ex::Expression e; // w + scale * dw
                std::vector<tessera::Tensor> inputs = {w, dw};
                if (scaleTensor != nullptr) {
                    if (scaleTensor->numElements() != 1) {
                        throw poputil::poplibs_error("poplin::convolutionWeightUpdate '" + name +
                                                     "': the scale must have one element");
                    }
                    inputs.push_back(Access::tensor(*scaleTensor).flatten());
                    e.binary(ex::BinaryOp::Add, e.placeholder(0),
                             e.binary(ex::BinaryOp::Multiply,
                                      e.cast(e.placeholder(2), w.elementType()), e.placeholder(1)));
                } else {
                    e.binary(ex::BinaryOp::Add, e.placeholder(0),
                             e.binary(ex::BinaryOp::Multiply, e.constant(scale, w.elementType()),
                                      e.placeholder(1)));
                }
                tessera::ops::mapInPlace(g, body, e, inputs, name + "/update");
            });
        });
        return 0;
    });
}

} // namespace

void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, const poplar::Tensor& scale,
                             poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                             const poplar::OptionFlags& options, PlanningCache*) {
    weightUpdate(graph, zDeltas, weights, activations, params, &scale, 0, prog,
                 opName(dc, "convolutionWeightUpdate"), options);
}

void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, float scale, poplar::program::Sequence& prog,
                             const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                             PlanningCache*) {
    weightUpdate(graph, zDeltas, weights, activations, params, nullptr, scale, prog,
                 opName(dc, "convolutionWeightUpdate"), options);
}

poplar::Tensor fullyConnectedWeightTranspose(poplar::Graph&, poplar::Tensor, const ConvParams&,
                                             poplar::program::Sequence&,
                                             const poplar::DebugContext&,
                                             const poplar::OptionFlags&, PlanningCache*) {
    unsupported("poplin::fullyConnectedWeightTranspose");
}

namespace {

void biasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas, const poplar::Tensor& biases,
                const poplar::Tensor* scaleTensor, float scale, poplar::program::Sequence& prog,
                const std::string& name) {
    if (zDeltas.rank() < 2 || biases.rank() != 1 || biases.dim(0) != zDeltas.dim(1)) {
        throw poputil::poplibs_error("poplin::convolutionBiasUpdate '" + name + "': biases " +
                                     tessera::shapeString(biases.shape()) +
                                     " do not match the channels of zDeltas " +
                                     tessera::shapeString(zDeltas.shape()));
    }
    translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        std::vector<std::size_t> dims = {0}; // batch and every field dimension
        for (std::size_t d = 2; d < zDeltas.rank(); ++d) {
            dims.push_back(d);
        }
        const tessera::ops::ReduceSpec spec(
            tessera::ops::ReduceOp::Add, true, scale,
            scaleTensor ? std::optional<tessera::Tensor>(Access::tensor(*scaleTensor))
                        : std::nullopt);
        std::vector<tessera::ComputeSet> css;
        tessera::ops::reduceWithOutput(g, Access::tensor(zDeltas), Access::tensor(biases), dims,
                                       spec, css, name);
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::addStages(seq, css, name);
        });
        return 0;
    });
}

} // namespace

void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, const poplar::Tensor& scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& dc) {
    checkOptions(options, "poplin::convolutionBiasUpdate");
    biasUpdate(graph, zDeltas, biases, &scale, 1, prog, opName(dc, "convolutionBiasUpdate"));
}

void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, float scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& dc) {
    checkOptions(options, "poplin::convolutionBiasUpdate");
    biasUpdate(graph, zDeltas, biases, nullptr, scale, prog, opName(dc, "convolutionBiasUpdate"));
}

poplar::Tensor createBiases(poplar::Graph& graph, const poplar::Tensor& acts,
                            const poplar::DebugContext& dc) {
    if (acts.rank() < 2) {
        throw poputil::poplibs_error("poplin::createBiases: the activations " +
                                     tessera::shapeString(acts.shape()) +
                                     " are not [B][C][field...]");
    }
    poplar::Tensor biases = graph.addVariable(acts.elementType(), {acts.dim(1)}, dc);
    translatePoplibs([&] {
        tessera::ops::mapLinearly(Access::graph(graph).graph, Access::tensor(biases));
        return 0;
    });
    return biases;
}

void addBias(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& biases,
             poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    const std::string name = opName(dc, "addBias");
    if (acts.rank() < 2 || biases.rank() != 1 || biases.dim(0) != acts.dim(1)) {
        throw poputil::poplibs_error(
            "poplin::addBias: biases " + tessera::shapeString(biases.shape()) +
            " do not match the channels of the activations " + tessera::shapeString(acts.shape()));
    }
    if (acts.elementType() != biases.elementType()) {
        throw poputil::poplibs_error("poplin::addBias: the biases are " +
                                     biases.elementType().toString() + ", the activations " +
                                     acts.elementType().toString());
    }
    translatePoplibs([&] {
        std::vector<std::size_t> shape(acts.rank() - 1, 1);
        shape[0] = biases.dim(0);
        namespace ex = tessera::ops::expr;
        ex::Expression e;
        e.binary(ex::BinaryOp::Add, e.placeholder(0), e.placeholder(1));
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::mapInPlace(Access::graph(graph).graph, seq, e,
                                     {Access::tensor(acts), Access::tensor(biases).reshape(shape)},
                                     name);
        });
        return 0;
    });
}

} // namespace poplin
