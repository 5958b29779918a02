#pragma once
// The workloads' inputs: element i of input `seed` is a hash of (seed, i), a
// counter-based generator, so any element can be made alone, in any order and
// on any thread: inputs are written in parallel, and a check makes again the
// elements it needs instead of keeping a host copy.
#include "engine/core/Type.h"
#include "engine/workloads/FastHalf.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace tessera::workloads {

namespace counter {
// splitmix64's output function: a bijection of 64-bit integers whose bits
// each depend on all of the input's. Makes the keys.
constexpr std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
// MurmurHash3's 32-bit finaliser, also a bijection: cheap enough per element
// (and vectorised in bulk).
constexpr std::uint32_t mix32(std::uint32_t h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}
struct Keys {
    std::uint32_t xorKey, addKey;
};
// The keys of elements [high * 2^32, (high + 1) * 2^32) of input `seed`.
constexpr Keys keys(std::uint32_t seed, std::uint64_t high) {
    const std::uint64_t k = mix64((std::uint64_t{seed} << 32) ^ high ^ 0x5851f42d4c957f2du);
    return {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32)};
}
// 24 random bits for the low 32 bits of an element's index. Different keys
// scramble the index differently (xor, multiply, add), so inputs of other
// seeds are not shifted copies of each other.
constexpr std::uint32_t bits(Keys k, std::uint32_t low) {
    return mix32((low ^ k.xorKey) * 0x9e3779b9u + k.addKey) >> 8;
}
} // namespace counter

// Values in [lo, hi) with 24 random bits each, lo + (hi - lo) * bits / 2^24,
// rounded to `type` (when half) so host and device start from the same values.
class CounterRandom {
public:
    CounterRandom(std::uint32_t seed, Type type, float lo = -1, float hi = 1)
        : seed_(seed)
        , keys_(counter::keys(seed, 0))
        , half_(type == Type::Half)
        , lo_(lo)
        , scale_(hi - lo) {}

    float at(std::uint64_t index) const {
        const std::uint64_t high = index >> 32;
        const counter::Keys k = high == 0 ? keys_ : counter::keys(seed_, high);
        const float x = lo_ + scale_ *
                                  static_cast<float>(static_cast<std::int32_t>(
                                      counter::bits(k, static_cast<std::uint32_t>(index)))) *
                                  (1.0f / 16777216.0f);
        return half_ ? roundToHalf(x) : x;
    }
    // Elements [first, first + out.size()) as at() makes them, in bulk
    // (vectorised where the CPU can).
    void values(std::uint64_t first, std::span<float> out) const;
    // The same as half bits (halfBits(at(i))), for a half tensor's memory.
    void halfValues(std::uint64_t first, std::span<std::uint16_t> out) const;

private:
    std::uint32_t seed_;
    counter::Keys keys_;
    bool half_;
    float lo_, scale_;
};

// float(half(x)) for each value in place, vectorised where the CPU can (the
// bulk form of roundToHalf, bit for bit).
void roundToHalf(std::span<float> values);

} // namespace tessera::workloads
