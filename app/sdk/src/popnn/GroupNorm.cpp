// popnn::gn (GroupNorm.hpp): one statistic per (batch, group) (Norms.h).
#include "Norms.h"

#include <popnn/GroupNorm.hpp>

namespace popnn {

using namespace detail;

namespace gn {

namespace {
NormView groupView(const poplar::Tensor& acts, unsigned numGroups, const std::string& what) {
    if (numGroups == 0) {
        fail(what + ": numGroups must be at least 1");
    }
    return makeView(T(acts), numGroups, what);
}
// The number of groups from a per-(batch, group) statistic.
unsigned groupsOf(const poplar::Tensor& acts, const poplar::Tensor& stat, const std::string& what) {
    const tessera::Tensor& a = T(acts);
    if (a.rank() < 2 || a.dim(0) == 0 || T(stat).numElements() % a.dim(0) != 0) {
        fail(what + ": the statistics must have batch * numGroups elements");
    }
    return static_cast<unsigned>(T(stat).numElements() / a.dim(0));
}
} // namespace

std::pair<poplar::Tensor, poplar::Tensor>
groupNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, unsigned numGroups, bool unbiasedVarEstimate,
                    bool stableAlgo, const poplar::Type& partialsType,
                    const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/statistics");
        const NormView v = groupView(acts, numGroups, "groupNormStatistics");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return statistics(G(graph), seq, v, eps, unbiasedVarEstimate, stableAlgo,
                              partialsOf(partialsType), name);
        }));
    });
}

poplar::Tensor groupNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                               const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/whiten");
        const NormView v =
            groupView(acts, groupsOf(acts, mean, "groupNormWhiten"), "groupNormWhiten");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return whiten(G(graph), seq, v, T(mean), T(invStdDev), name);
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor>
groupNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/groupNormalise");
        const NormView v =
            groupView(acts, groupsOf(acts, mean, "groupNormalise"), "groupNormalise");
        const NormView perChannel = makeView(T(acts), 0, "groupNormalise");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            const tessera::Tensor w = whiten(G(graph), seq, v, T(mean), T(invStdDev), name);
            return std::make_pair(
                affine(G(graph), seq, perChannel, w, T(gamma), T(beta), name + "/affine"), w);
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor> groupNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType, const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/paramGradients");
        const NormView v = groupView(acts, groupsOf(acts, mean, "groupNormParamGradients"),
                                     "groupNormParamGradients");
        const NormView perChannel = makeView(T(acts), 0, "groupNormParamGradients");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            const tessera::Tensor w = whiten(G(graph), seq, v, T(mean), T(iStdDev), name);
            return paramGradients(G(graph), seq, perChannel, w, T(gradsIn),
                                  partialsOf(partialsType), name);
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor>
groupNormParamGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                        const poplar::Tensor& gradsIn, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType, const poplar::DebugContext& dc,
                        const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/paramGradients");
        const NormView perChannel = makeView(T(actsWhitened), 0, "groupNormParamGradients");
        return toPoplar(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return paramGradients(G(graph), seq, perChannel, T(actsWhitened), T(gradsIn),
                                  partialsOf(partialsType), name);
        }));
    });
}

poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& iStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog, const poplar::Type& partialsType,
                                  const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/gradients");
        const NormView v =
            groupView(acts, groupsOf(acts, mean, "groupNormGradients"), "groupNormGradients");
        const NormView perChannel = makeView(T(acts), 0, "groupNormGradients");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            const tessera::Tensor w = whiten(G(graph), seq, v, T(mean), T(iStdDev), name);
            return inputGradients(G(graph), seq, v, perChannel, w, T(gradsIn), T(iStdDev), T(gamma),
                                  partialsOf(partialsType), name);
        }));
    });
}

poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& iStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType, const poplar::DebugContext& dc,
                                  const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/gradients");
        const NormView v =
            groupView(actsWhitened, groupsOf(actsWhitened, iStdDev, "groupNormGradients"),
                      "groupNormGradients");
        const NormView perChannel = makeView(T(actsWhitened), 0, "groupNormGradients");
        return Access::makeTensor(inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            return inputGradients(G(graph), seq, v, perChannel, T(actsWhitened), T(gradsIn),
                                  T(iStdDev), T(gamma), partialsOf(partialsType), name);
        }));
    });
}

void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/paramUpdate");
        return inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            paramUpdate(G(graph), seq, T(gammaDelta), T(betaDelta), nullptr, scale, T(gamma),
                        T(beta), name);
            return 0;
        });
    });
}

void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                          const poplar::OptionFlags&) {
    translatePoplibs([&] {
        const std::string name = nameOr(dc, "GN/paramUpdate");
        return inBlock(prog, name, [&](tessera::program::Sequence& seq) {
            paramUpdate(G(graph), seq, T(gammaDelta), T(betaDelta), &T(scale), 0.0f, T(gamma),
                        T(beta), name);
            return 0;
        });
    });
}

} // namespace gn

} // namespace popnn
