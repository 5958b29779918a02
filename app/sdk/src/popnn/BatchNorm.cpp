// popnn::bn (BatchNorm.hpp): one statistic per channel (Norms.h).
#include "Norms.h"

#include <popnn/BatchNorm.hpp>

namespace popnn {

using namespace detail;

namespace bn {

std::pair<poplar::Tensor, poplar::Tensor>
batchNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, bool unbiasedVarEstimate, bool stableAlgo,
                    const poplar::Type& partialsType, const poplar::DebugContext& dc,
                    const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/statistics");
        const NormView v = makeView(T(acts), 0, "batchNormStatistics");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return statistics(G(graph), seq, v, eps, unbiasedVarEstimate, stableAlgo,
                              partialsOf(partialsType), name);
        }));
    });
}

poplar::Tensor batchNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                               const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/whiten");
        const NormView v = makeView(T(acts), 0, "batchNormWhiten");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return whiten(G(graph), seq, v, T(mean), T(invStdDev), name);
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor>
batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/batchNormalise");
        const NormView v = makeView(T(acts), 0, "batchNormalise");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            const tessera::Tensor w = whiten(G(graph), seq, v, T(mean), T(invStdDev), name);
            return std::make_pair(affine(G(graph), seq, v, w, T(gamma), T(beta), name + "/affine"),
                                  w);
        }));
    });
}

poplar::Tensor batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::Tensor& combinedMultiplicand,
                              const poplar::Tensor& addend, poplar::program::Sequence& prog,
                              const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/batchNormaliseInference");
        const NormView v = makeView(T(acts), 0, "batchNormalise");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return affine(G(graph), seq, v, T(acts), T(combinedMultiplicand), T(addend), name);
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor> batchNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType, const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/paramGradients");
        const NormView v = makeView(T(acts), 0, "batchNormParamGradients");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            const tessera::Tensor w = whiten(G(graph), seq, v, T(mean), T(iStdDev), name);
            return paramGradients(G(graph), seq, v, w, T(gradsIn), partialsOf(partialsType), name);
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                        const poplar::Tensor& gradsIn, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType, const poplar::DebugContext& dc,
                        const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/paramGradients");
        const NormView v = makeView(T(actsWhitened), 0, "batchNormParamGradients");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return paramGradients(G(graph), seq, v, T(actsWhitened), T(gradsIn),
                                  partialsOf(partialsType), name);
        }));
    });
}

poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog, const poplar::Type& partialsType,
                                  const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/gradients");
        const NormView v = makeView(T(acts), 0, "batchNormGradients");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            const tessera::Tensor w = whiten(G(graph), seq, v, T(mean), T(invStdDev), name);
            return inputGradients(G(graph), seq, v, v, w, T(gradsIn), T(invStdDev), T(gamma),
                                  partialsOf(partialsType), name);
        }));
    });
}

poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType, const poplar::DebugContext& dc,
                                  const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/gradients");
        const NormView v = makeView(T(actsWhitened), 0, "batchNormGradients");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return inputGradients(G(graph), seq, v, v, T(actsWhitened), T(gradsIn), T(invStdDev),
                                  T(gamma), partialsOf(partialsType), name);
        }));
    });
}

void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/paramUpdate");
        return inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            paramUpdate(G(graph), seq, T(gammaDelta), T(betaDelta), nullptr, scale, T(gamma),
                        T(beta), name);
            return 0;
        });
    });
}

void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                          const poplar::OptionFlags&) {
    translatePoplibs([&] {
        const std::string name = nameOr(dc, "BN/paramUpdate");
        return inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            paramUpdate(G(graph), seq, T(gammaDelta), T(betaDelta), &T(scale), 0.0f, T(gamma),
                        T(beta), name);
            return 0;
        });
    });
}

} // namespace bn

} // namespace popnn
