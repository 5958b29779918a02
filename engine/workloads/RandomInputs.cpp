// CounterRandom in bulk: the same arithmetic as at(), in loops the compiler
// vectorises, with an AVX2 + F16C version chosen at run time (the build
// targets baseline x86-64). Bit-identical on every path: integer hashing,
// then float multiplies and adds in at()'s order (never fused: no FMA target),
// and half rounding by F16C's round-to-nearest-even conversion, which is the
// engine's (tst_workload_inputs compares the paths).
#include "engine/workloads/RandomInputs.h"

#include "engine/core/HalfBlocks.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tessera::workloads {

namespace {

using counter::Keys;

// Raw values (before any half rounding) of a block of indices that share
// their high 32 bits.
inline void rawBlock(Keys k, std::uint32_t low, float lo, float scale, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const auto b = static_cast<std::int32_t>(
            counter::bits(k, low + static_cast<std::uint32_t>(i))); // < 2^24: exact as float
        out[i] = lo + scale * static_cast<float>(b) * (1.0f / 16777216.0f);
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void rawBlockAvx2(Keys k, std::uint32_t low, float lo, float scale,
                                                  float* out, std::size_t n) {
    rawBlock(k, low, lo, scale, out, n);
}

// half bits of floats, rounded to nearest even.
__attribute__((target("avx2,f16c"))) void toHalfF16c(const float* in, std::uint16_t* out,
                                                     std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), h);
    }
    for (; i < n; ++i) {
        out[i] = halfBits(in[i]);
    }
}

// float(half(x)) in place.
__attribute__((target("avx2,f16c"))) void roundHalfF16c(float* v, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(v + i), _MM_FROUND_TO_NEAREST_INT);
        _mm256_storeu_ps(v + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i) {
        v[i] = roundToHalf(v[i]);
    }
}

bool hasAvx2F16c() {
    static const bool yes = __builtin_cpu_supports("avx2") && cpuHasF16c();
    return yes;
}
#endif

void raw(Keys k, std::uint32_t low, float lo, float scale, float* out, std::size_t n) {
#if defined(__x86_64__)
    if (hasAvx2F16c()) {
        rawBlockAvx2(k, low, lo, scale, out, n);
        return;
    }
#endif
    rawBlock(k, low, lo, scale, out, n);
}

void toHalf(const float* in, std::uint16_t* out, std::size_t n) {
#if defined(__x86_64__)
    if (hasAvx2F16c()) {
        toHalfF16c(in, out, n);
        return;
    }
#endif
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = halfBits(in[i]);
    }
}

void roundHalf(float* v, std::size_t n) {
#if defined(__x86_64__)
    if (hasAvx2F16c()) {
        roundHalfF16c(v, n);
        return;
    }
#endif
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = roundToHalf(v[i]);
    }
}

// Calls fn(keys, low 32 bits of the first index, offset in the output, count)
// for the pieces of [first, first + n) that share their high 32 bits.
template <typename Fn>
void byKeys(std::uint32_t seed, Keys keys0, std::uint64_t first, std::size_t n, Fn fn) {
    std::size_t done = 0;
    while (done < n) {
        const std::uint64_t index = first + done;
        const std::uint64_t high = index >> 32;
        const std::uint64_t untilNext = (std::uint64_t{1} << 32) - (index & 0xffffffffu);
        const std::size_t count =
            static_cast<std::size_t>(std::min<std::uint64_t>(n - done, untilNext));
        fn(high == 0 ? keys0 : counter::keys(seed, high), static_cast<std::uint32_t>(index), done,
           count);
        done += count;
    }
}

} // namespace

void roundToHalf(std::span<float> values) {
    roundHalf(values.data(), values.size());
}

void CounterRandom::values(std::uint64_t first, std::span<float> out) const {
    byKeys(seed_, keys_, first, out.size(),
           [&](Keys k, std::uint32_t low, std::size_t offset, std::size_t count) {
               raw(k, low, lo_, scale_, out.data() + offset, count);
               if (half_) {
                   roundHalf(out.data() + offset, count);
               }
           });
}

void CounterRandom::halfValues(std::uint64_t first, std::span<std::uint16_t> out) const {
    constexpr std::size_t kBlock = 1024; // raw floats on the stack, a block at a time
    float block[kBlock];
    for (std::size_t done = 0; done < out.size(); done += kBlock) {
        const std::size_t n = std::min(kBlock, out.size() - done);
        byKeys(seed_, keys_, first + done, n,
               [&](Keys k, std::uint32_t low, std::size_t offset, std::size_t count) {
                   raw(k, low, lo_, scale_, block + offset, count);
               });
        toHalf(block, out.data() + done, n); // rounding a rounded half again changes nothing
    }
}

} // namespace tessera::workloads
