#include "engine/core/HalfBlocks.h"

#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace tessera {

namespace {

void halvesToFloatsEach(const half* in, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = float(in[i]);
    }
}

void floatsToHalvesEach(const float* in, half* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = half(in[i]);
    }
}

#if defined(__x86_64__)
__attribute__((target("avx,f16c"))) void halvesToFloatsF16c(const half* in, float* out,
                                                            std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        // A NaN is a magnitude above 0x7c00: compared as signed 16-bit, which
        // magnitudes (at most 0x7fff) are.
        const __m128i magnitude = _mm_and_si128(h, _mm_set1_epi16(0x7fff));
        if (_mm_movemask_epi8(_mm_cmpgt_epi16(magnitude, _mm_set1_epi16(0x7c00))) != 0) {
            halvesToFloatsEach(in + i, out + i, 8);
        } else {
            _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
        }
    }
    halvesToFloatsEach(in + i, out + i, n - i);
}

__attribute__((target("avx,f16c"))) void floatsToHalvesF16c(const float* in, half* out,
                                                            std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 f = _mm256_loadu_ps(in + i);
        if (_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q)) != 0) {
            floatsToHalvesEach(in + i, out + i, 8);
        } else {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                             _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
        }
    }
    floatsToHalvesEach(in + i, out + i, n - i);
}
#endif

} // namespace

bool cpuHasF16c() {
#if defined(__x86_64__)
    // CPUID leaf 1, ECX bit 29 (clang 14 has no "f16c" for __builtin_cpu_supports).
    static const bool f16c = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __builtin_cpu_supports("avx") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
               (ecx & bit_F16C) != 0;
    }();
    return f16c;
#else
    return false;
#endif
}

void halvesToFloats(const half* in, float* out, std::size_t n) {
#if defined(__x86_64__)
    if (cpuHasF16c()) {
        halvesToFloatsF16c(in, out, n);
        return;
    }
#endif
    halvesToFloatsEach(in, out, n);
}

void floatsToHalves(const float* in, half* out, std::size_t n) {
#if defined(__x86_64__)
    if (cpuHasF16c()) {
        floatsToHalvesF16c(in, out, n);
        return;
    }
#endif
    floatsToHalvesEach(in, out, n);
}

} // namespace tessera
