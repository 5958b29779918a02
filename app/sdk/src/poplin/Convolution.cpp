// poplin convolutions on the engine's convolution (engine/ops/Convolution).
#include "engine/ops/Convolution.h"

#include "Common.h"
#include "engine/ops/Map.h"
#include "engine/ops/Mapping.h"

#include <poplin/Convolution.hpp>

namespace poplin {

using poplar::detail::Access;
using poplar::detail::engineType;
using poplar::detail::intoSequence;
using poplar::detail::translate;
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
        throw poplar::poplar_error(what + ": the input type must be float or half, not " +
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
    translate([&] {
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
    return translate([&] {
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
    return translate([&] {
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
    return translate([&] {
        tessera::Tensor w = Access::tensor(weights);
        if (transposeAndFlipWeights) {
            if (w.rank() < 3) {
                throw poplar::poplar_error(
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
    translate([&] {
        const tessera::Tensor& w = Access::tensor(weightsIn);
        if (w.rank() < 3) {
            throw poplar::poplar_error("poplin::weightsTransposeChansFlipXY: the weights " +
                                       tessera::shapeString(w.shape()) +
                                       " are not [G][Cout][Cin][kernel...]");
        }
        const tessera::Tensor view = transposeChansFlip(w);
        if (view.shape() != weightsOut.shape()) {
            throw poplar::poplar_error("poplin::weightsTransposeChansFlipXY: weightsOut " +
                                       tessera::shapeString(weightsOut.shape()) + " is not " +
                                       tessera::shapeString(view.shape()));
        }
        prog.add(poplar::program::Copy(Access::makeTensor(view), weightsOut, false, name));
        return 0;
    });
}

poplar::Tensor calculateWeightDeltas(poplar::Graph&, const poplar::Tensor&, const poplar::Tensor&,
                                     const ConvParams&, poplar::program::Sequence&,
                                     const poplar::DebugContext&, const poplar::OptionFlags&,
                                     PlanningCache*) {
    unsupported("poplin::calculateWeightDeltas (the weight-update pass)");
}

void convolutionWeightUpdate(poplar::Graph&, const poplar::Tensor&, const poplar::Tensor&,
                             const poplar::Tensor&, ConvParams, const poplar::Tensor&,
                             poplar::program::Sequence&, const poplar::DebugContext&,
                             const poplar::OptionFlags&, PlanningCache*) {
    unsupported("poplin::convolutionWeightUpdate (the weight-update pass)");
}

void convolutionWeightUpdate(poplar::Graph&, const poplar::Tensor&, const poplar::Tensor&,
                             const poplar::Tensor&, ConvParams, float, poplar::program::Sequence&,
                             const poplar::DebugContext&, const poplar::OptionFlags&,
                             PlanningCache*) {
    unsupported("poplin::convolutionWeightUpdate (the weight-update pass)");
}

poplar::Tensor fullyConnectedWeightTranspose(poplar::Graph&, poplar::Tensor, const ConvParams&,
                                             poplar::program::Sequence&,
                                             const poplar::DebugContext&,
                                             const poplar::OptionFlags&, PlanningCache*) {
    unsupported("poplin::fullyConnectedWeightTranspose");
}

poplar::Tensor createBiases(poplar::Graph& graph, const poplar::Tensor& acts,
                            const poplar::DebugContext& dc) {
    if (acts.rank() < 2) {
        throw poplar::poplar_error("poplin::createBiases: the activations " +
                                   tessera::shapeString(acts.shape()) +
                                   " are not [B][C][field...]");
    }
    poplar::Tensor biases = graph.addVariable(acts.elementType(), {acts.dim(1)}, dc);
    translate([&] {
        tessera::ops::mapLinearly(Access::graph(graph).graph, Access::tensor(biases));
        return 0;
    });
    return biases;
}

void addBias(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& biases,
             poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    const std::string name = opName(dc, "addBias");
    if (acts.rank() < 2 || biases.rank() != 1 || biases.dim(0) != acts.dim(1)) {
        throw poplar::poplar_error(
            "poplin::addBias: biases " + tessera::shapeString(biases.shape()) +
            " do not match the channels of the activations " + tessera::shapeString(acts.shape()));
    }
    if (acts.elementType() != biases.elementType()) {
        throw poplar::poplar_error("poplin::addBias: the biases are " +
                                   biases.elementType().toString() + ", the activations " +
                                   acts.elementType().toString());
    }
    translate([&] {
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
