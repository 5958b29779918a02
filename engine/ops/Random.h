#pragma once
// poprand in the engine: uniform, normal, truncated normal and Bernoulli
// numbers and dropout, from a counter-based generator: element i of a call is
// a hash of (seed, seed modifier, the function, i), so the numbers do not
// depend on the tile mapping or the thread count, and a given seed gives the
// same numbers on every run. Without a seed a call draws from the graph's
// generator state (one copy per tile, all equal), which each call advances
// after it runs: calls, and the iterations of a loop around one call, differ.
// setSeed() sets that state from a two-word seed tensor, as poprand::setSeed.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera::ops {

enum class Distribution : std::uint8_t { Uniform, Normal, TruncatedNormal, Bernoulli, Dropout };

struct RandomSpec {
    Distribution distribution = Distribution::Uniform;
    // Uniform: [a, b) for floating types, [a, b] for int. Normal: mean a,
    // standard deviation b. TruncatedNormal: the same, cut at a ± c·b.
    // Bernoulli: 1 with probability a. Dropout: keep with probability a,
    // scaled by b.
    double a = 0, b = 1, c = 2;
    std::uint32_t seedModifier = 0;
    std::optional<Tensor> seed; // two unsigned ints, or the graph's state
};

// A new tensor of `type`, mapped like `reference`, filled with numbers.
Tensor random(Graph& graph, program::Sequence& seq, const Tensor& reference, Type type,
              const RandomSpec& spec, const std::string& name);
// input with each element kept (times b) with probability a, else 0; the
// result is mapped like `reference` (of input's shape).
Tensor dropout(Graph& graph, program::Sequence& seq, const Tensor& input, const Tensor& reference,
               const RandomSpec& spec, const std::string& name);
// The generator state on every tile := a hash of seed (two unsigned ints)
// and `seedModifier`.
void setSeed(Graph& graph, program::Sequence& seq, const Tensor& seed, std::uint32_t seedModifier,
             const std::string& name);

// The generator itself, for tests: 64 random bits of element `index`.
std::uint64_t randomBits(std::uint64_t seed, std::uint32_t modifier, Distribution d,
                         std::uint64_t index, std::uint32_t draw);

} // namespace tessera::ops
