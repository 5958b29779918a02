// poprand: random numbers and dropout. Each function takes an optional seed
// (a tensor of two unsigned ints) and a seed modifier; with a seed the numbers
// are the same on every run and for every tile mapping; without one they come
// from the generator state (set by setSeed), which each call advances.
// Tessera's generator is a counter-based hash, not the IPU's hardware
// generator: the distributions are the documented ones, the bits differ.
#ifndef TESSERA_POPRAND_RANDOMGEN_HPP
#define TESSERA_POPRAND_RANDOMGEN_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace poprand {

// input with each element kept and multiplied by `scale` with probability
// keepProbability, else 0; mapped like reference (the input's shape).
poplar::Tensor dropout(poplar::Graph& graph, const poplar::Tensor* seed,
                       const uint32_t seedModifier, const poplar::Tensor& input,
                       const poplar::Tensor& reference, double keepProbability, double scale,
                       poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});
// The same; the output is mapped like reference (outputClonesRef) or input.
poplar::Tensor dropout(poplar::Graph& graph, const poplar::Tensor* seed,
                       const uint32_t seedModifier, const poplar::Tensor& input,
                       const poplar::Tensor& reference, double keepProbability, double scale,
                       bool outputClonesRef, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});
// Dropout with one keep/drop decision per element of reference, whose shape
// broadcasts to input's (whole rows, columns, ... dropped together).
poplar::Tensor shapedDropout(poplar::Graph& graph, const poplar::Tensor* seed,
                             const uint32_t seedModifier, const poplar::Tensor& input,
                             const poplar::Tensor& reference, double keepProbability, double scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {});

// Uniform in [minVal, maxVal] for float and half (maxVal itself with
// probability 0), every integer of [minVal, maxVal] for int.
poplar::Tensor uniform(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                       const poplar::Tensor& reference, const poplar::Type& outType, double minVal,
                       double maxVal, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

// base^u for u uniform in [log_base(minVal), log_base(maxVal)], of float or
// half (int is not supported by Tessera).
poplar::Tensor logUniform(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                          const poplar::Tensor& reference, const poplar::Type& outType,
                          double minVal, double maxVal, poplar::program::Sequence& prog,
                          double base = 2.71828182845904523536,
                          const poplar::DebugContext& debugContext = {});

// 1 with probability prob, else 0 (float, half or int).
poplar::Tensor bernoulli(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                         const poplar::Tensor& reference, const poplar::Type& outType, double prob,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

// Normal with mean and standard deviation (float or half).
poplar::Tensor normal(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                      const poplar::Tensor& reference, const poplar::Type& outType, double mean,
                      double stdDev, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

// Normal cut symmetrically at mean +- alpha * stdDev (values outside are
// drawn again), float or half.
poplar::Tensor truncatedNormal(poplar::Graph& graph, const poplar::Tensor* seed,
                               uint32_t seedModifier, const poplar::Tensor& reference,
                               const poplar::Type& outType, double mean, double stdDev,
                               double alpha, poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {});

// The generator state on every tile from masterSeed (two unsigned ints) and
// seedModifier.
void setSeed(poplar::Graph& graph, const poplar::Tensor& masterSeed, uint32_t seedModifier,
             poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace poprand

#endif
