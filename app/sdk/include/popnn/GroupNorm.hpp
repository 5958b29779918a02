// popnn::gn: group normalisation of activations [batch][channels][field...]
// with one statistic per (batch, group), index batch * numGroups + group,
// over the group's channels and the field; channel c belongs to group
// c % numGroups (PopLibs' strided grouping). gamma and beta are per channel. The
// statistics are reduced in partialsType and returned in the activations'
// type: mean and invStdDev = 1 / sqrt(variance + eps), the variance biased
// or unbiased; stableAlgo subtracts the mean before squaring.
#ifndef TESSERA_POPNN_GROUPNORM_HPP
#define TESSERA_POPNN_GROUPNORM_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <utility>

namespace popnn {
namespace gn {

// (mean, invStdDev), each {batch * numGroups}.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, unsigned numGroups, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = poplar::DebugContext(),
                    const poplar::OptionFlags& options = poplar::OptionFlags());

// (acts - mean) * invStdDev.
poplar::Tensor groupNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),
                               const poplar::OptionFlags& options = poplar::OptionFlags());

// (whitened * gamma + beta, whitened).
std::pair<poplar::Tensor, poplar::Tensor>
groupNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = poplar::DebugContext(),
               const poplar::OptionFlags& options = poplar::OptionFlags());

// (gammaDelta, betaDelta) = (sum of gradsIn * whitened, sum of gradsIn) per channel.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormParamGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                        const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                        const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType = poplar::FLOAT,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());
std::pair<poplar::Tensor, poplar::Tensor>
groupNormParamGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                        const poplar::Tensor& gradsIn, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType = poplar::FLOAT,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());

// The gradient at the activations through the layer and its statistics.
poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags& options = poplar::OptionFlags());
poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags& options = poplar::OptionFlags());

// gamma += scale * gammaDelta; beta += scale * betaDelta.
void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags());
void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace gn
} // namespace popnn

#endif
