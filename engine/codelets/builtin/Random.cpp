// poprand's codelets (ops/Random.h): each element's numbers come from
// randomBits(seed, modifier, distribution, index, draw), so a vertex needs
// only its first element's flat index to produce its share.
#include "engine/ops/Random.h"

#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"

#include <cmath>
#include <numbers>

namespace tessera {

namespace {

using ops::Distribution;

double unit(std::uint64_t bits) { // [0, 1)
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

std::uint64_t seedOf(unsigned lo, unsigned hi) {
    return (std::uint64_t{hi} << 32) | lo;
}

// One standard normal number by Box-Muller from two draws.
double gaussian(std::uint64_t seed, std::uint32_t modifier, Distribution d, std::uint64_t index,
                std::uint32_t draw) {
    const double u1 = 1.0 - unit(ops::randomBits(seed, modifier, d, index, 2 * draw)); // (0, 1]
    const double u2 = unit(ops::randomBits(seed, modifier, d, index, 2 * draw + 1));
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double sample(Distribution d, double a, double b, double c, bool integral, std::uint64_t seed,
              std::uint32_t modifier, std::uint64_t index) {
    switch (d) {
    case Distribution::Uniform: {
        const double u = unit(ops::randomBits(seed, modifier, d, index, 0));
        return integral ? a + std::floor(u * (b - a + 1.0)) : a + (b - a) * u;
    }
    case Distribution::Normal:
        return a + b * gaussian(seed, modifier, d, index, 0);
    case Distribution::TruncatedNormal: {
        // Redrawn until inside ±c standard deviations (64 draws at most).
        double z = 0;
        for (std::uint32_t draw = 0; draw < 64; ++draw) {
            z = gaussian(seed, modifier, d, index, draw);
            if (std::fabs(z) <= c) {
                break;
            }
        }
        return a + b * std::fmin(std::fmax(z, -c), c);
    }
    case Distribution::Bernoulli:
    case Distribution::Dropout:
        return unit(ops::randomBits(seed, modifier, d, index, 0)) < a ? 1.0 : 0.0;
    }
    return 0;
}

template <typename T>
class RandomGen : public Vertex {
public:
    Input<Vector<unsigned>> seed; // the seed, or this tile's generator state
    Output<Vector<T>> out;
    unsigned distribution = 0;
    unsigned modifier = 0;
    unsigned offset = 0; // flat index of out[0]
    float a = 0, b = 1, c = 2;
    bool compute() {
        const auto d = static_cast<Distribution>(distribution);
        const std::uint64_t s = seedOf(seed[0], seed[1]);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const double v = sample(d, a, b, c, std::is_integral_v<T>, s, modifier, offset + i);
            if constexpr (std::is_integral_v<T>) {
                out[i] = static_cast<T>(v);
            } else {
                out[i] = T(static_cast<float>(v));
            }
        }
        return true;
    }
};

template <typename T>
class Dropout : public Vertex {
public:
    Input<Vector<unsigned>> seed;
    Input<Vector<T>> in;
    Output<Vector<T>> out;
    unsigned modifier = 0;
    unsigned offset = 0;
    float keep = 1, scale = 1;
    bool compute() {
        const std::uint64_t s = seedOf(seed[0], seed[1]);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const bool kept =
                sample(Distribution::Dropout, keep, 0, 0, false, s, modifier, offset + i) != 0.0;
            out[i] = kept ? T(float(in[i]) * scale) : T(0.0f);
        }
        return true;
    }
};

// state := hash(seed, modifier): the generator state of this tile.
class SetSeed : public Vertex {
public:
    Input<Vector<unsigned>> seed;
    Output<Vector<unsigned>> state;
    unsigned modifier = 0;
    bool compute() {
        const std::uint64_t s = ops::randomBits(seedOf(seed[0], seed[1]), modifier,
                                                Distribution::Uniform, ~std::uint64_t{0}, 0);
        state[0] = static_cast<unsigned>(s);
        state[1] = static_cast<unsigned>(s >> 32);
        return true;
    }
};

// The state moves on after each call that drew from it.
class Advance : public Vertex {
public:
    InOut<Vector<unsigned>> state;
    bool compute() {
        const std::uint64_t s = ops::randomBits(seedOf(state[0], state[1]), 0x5eed,
                                                Distribution::Uniform, ~std::uint64_t{0} - 1, 0);
        state[0] = static_cast<unsigned>(s);
        state[1] = static_cast<unsigned>(s >> 32);
        return true;
    }
};

std::string twoWords(const VertexIntrospector& v, const char* field) {
    return v.fieldSize(field) == 2 ? std::string()
                                   : std::string("field '") + field + "' must have 2 elements";
}

// About 10 cycles an element for the hash and scaling, 40 for Box-Muller.
template <typename T>
void addRandom(CodeletRegistry& r) {
    using G = RandomGen<T>;
    r.add(CodeletBuilder<G>(typedName<T>("poprand::Random"))
              .field("seed", &G::seed)
              .field("out", &G::out)
              .state("distribution", &G::distribution)
              .state("modifier", &G::modifier)
              .state("offset", &G::offset)
              .state("a", &G::a)
              .state("b", &G::b)
              .state("c", &G::c)
              .validator([](const VertexIntrospector& v) { return twoWords(v, "seed"); })
              .codeBytes(384)
              .estimator("20 + n * (10 uniform, Bernoulli; 40 normal; 80 truncated normal)",
                         [](const VertexIntrospector& v, const Target&) {
                             const auto d = static_cast<Distribution>(v.state("distribution"));
                             const std::uint64_t per = d == Distribution::Normal            ? 40
                                                       : d == Distribution::TruncatedNormal ? 80
                                                                                            : 10;
                             return PerfEstimate{20 + per * v.fieldSize("out"), 0};
                         })
              .build());
}

template <typename T>
void addDropout(CodeletRegistry& r) {
    using D = Dropout<T>;
    r.add(CodeletBuilder<D>(typedName<T>("poprand::Dropout"))
              .field("seed", &D::seed)
              .field("in", &D::in)
              .field("out", &D::out)
              .state("modifier", &D::modifier)
              .state("offset", &D::offset)
              .state("keep", &D::keep)
              .state("scale", &D::scale)
              .sameSize({"in", "out"})
              .validator([](const VertexIntrospector& v) { return twoWords(v, "seed"); })
              .codeBytes(320)
              .estimator("20 + 12 n",
                         [](const VertexIntrospector& v, const Target&) {
                             return PerfEstimate{20 + 12 * v.fieldSize("out"), v.fieldSize("out")};
                         })
              .build());
}

} // namespace

void registerRandomCodelets(CodeletRegistry& registry) {
    addRandom<float>(registry);
    addRandom<half>(registry);
    addRandom<int>(registry);
    addDropout<float>(registry);
    addDropout<half>(registry);
    registry.add(CodeletBuilder<SetSeed>("poprand::SetSeed")
                     .field("seed", &SetSeed::seed)
                     .field("state", &SetSeed::state)
                     .state("modifier", &SetSeed::modifier)
                     .validator([](const VertexIntrospector& v) { return twoWords(v, "seed"); })
                     .codeBytes(96)
                     .estimator("30",
                                [](const VertexIntrospector&, const Target&) {
                                    return PerfEstimate{30, 0};
                                })
                     .build());
    registry.add(CodeletBuilder<Advance>("poprand::Advance")
                     .field("state", &Advance::state)
                     .validator([](const VertexIntrospector& v) { return twoWords(v, "state"); })
                     .codeBytes(64)
                     .estimator("20",
                                [](const VertexIntrospector&, const Target&) {
                                    return PerfEstimate{20, 0};
                                })
                     .build());
}

} // namespace tessera
