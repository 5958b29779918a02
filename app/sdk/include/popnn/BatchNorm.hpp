// popnn::bn: batch normalisation of activations [batch][channels][field...]
// with one statistic per channel (over the batch and the field). The
// statistics are reduced in partialsType and returned in the activations'
// type: mean and invStdDev = 1 / sqrt(variance + eps), the variance biased
// or unbiased; stableAlgo subtracts the mean before squaring.
#ifndef TESSERA_POPNN_BATCHNORM_HPP
#define TESSERA_POPNN_BATCHNORM_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <utility>

namespace popnn {
namespace bn {

// (mean, invStdDev), each {channels}.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = poplar::DebugContext(),
                    const poplar::OptionFlags& options = poplar::OptionFlags());

// (acts - mean) * invStdDev.
poplar::Tensor batchNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),
                               const poplar::OptionFlags& options = poplar::OptionFlags());

// (whitened * gamma + beta, whitened).
std::pair<poplar::Tensor, poplar::Tensor>
batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = poplar::DebugContext(),
               const poplar::OptionFlags& options = poplar::OptionFlags());

// acts * combinedMultiplicand + addend (inference).
poplar::Tensor batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::Tensor& combinedMultiplicand,
                              const poplar::Tensor& addend, poplar::program::Sequence& prog,
                              const poplar::DebugContext& debugContext = poplar::DebugContext(),
                              const poplar::OptionFlags& options = poplar::OptionFlags());

// (gammaDelta, betaDelta) = (sum of gradsIn * whitened, sum of gradsIn) per channel.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                        const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                        const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType = poplar::FLOAT,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());
std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                        const poplar::Tensor& gradsIn, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType = poplar::FLOAT,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());

// The gradient at the activations through the layer and its statistics.
poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags& options = poplar::OptionFlags());
poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags& options = poplar::OptionFlags());

// gamma += scale * gammaDelta; beta += scale * betaDelta.
void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags());
void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace bn
} // namespace popnn

#endif
