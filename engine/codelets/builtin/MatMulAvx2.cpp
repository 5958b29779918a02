// MatMulPartial's AVX2 kernels (MatMulTiles.h's register tiles): b in floats
// or in halves, each vector of halves widened with F16C as the tile loads it
// (no widened copy of b is written and read back), a block's last columns
// read and written through masks (no zero-padded copy either). Built with
// -mavx2 -mfma -mf16c (engine/CMakeLists.txt) and called only on CPUs that
// have them (MatMul.cpp); with -ffp-contract=fast a * b + acc fuses, so the
// last bit of a product-sum may differ from SSE2's, never across thread
// counts on one machine. It calls no inline function of another file, so
// nothing compiled here for AVX2 can be linked in place of the baseline
// build of it.
#include "engine/codelets/builtin/MatMulTiles.h"

#include <immintrin.h>

namespace tessera {

namespace {

// Lanes [0, n) of 8 set.
__m256i firstLanes(std::size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

struct FloatLanes8 {
    using Element = float;
    static constexpr bool kMaskedTail = true;
    __attribute__((always_inline)) static void load(Floats8& v, const float* p) {
        std::memcpy(&v, p, sizeof(v));
    }
    // The lanes past n are zero and their memory is not read.
    __attribute__((always_inline)) static void loadPart(Floats8& v, const float* p, std::size_t n) {
        const __m256 part = _mm256_maskload_ps(p, firstLanes(n));
        std::memcpy(&v, &part, sizeof(v));
    }
    __attribute__((always_inline)) static void storePart(float* p, const Floats8& v,
                                                         std::size_t n) {
        __m256 whole;
        std::memcpy(&whole, &v, sizeof(whole));
        _mm256_maskstore_ps(p, firstLanes(n), whole);
    }
};

// b's elements are the bits of halves; the conversions are exact, as the
// scalar one (engine/core/Half.h).
struct HalfLanes8 {
    using Element = std::uint16_t;
    static constexpr bool kMaskedTail = true;
    __attribute__((always_inline)) static void load(Floats8& v, const std::uint16_t* p) {
        const __m256 wide = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        std::memcpy(&v, &wide, sizeof(v));
    }
    // n < 8 halves: pairs through a masked 32-bit load (AVX2 has no 16-bit
    // one), an odd last one on its own, so nothing past p[n - 1] is read.
    __attribute__((always_inline)) static void loadPart(Floats8& v, const std::uint16_t* p,
                                                        std::size_t n) {
        const __m128i pairs =
            _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(n / 2)), _mm_setr_epi32(0, 1, 2, 3));
        __m128i h = _mm_maskload_epi32(reinterpret_cast<const int*>(p), pairs);
        if (n % 2 == 1) {
            const __m128i last = _mm_cmpeq_epi16(_mm_set1_epi16(static_cast<short>(n - 1)),
                                                 _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7));
            h = _mm_blendv_epi8(h, _mm_set1_epi16(static_cast<short>(p[n - 1])), last);
        }
        const __m256 wide = _mm256_cvtph_ps(h);
        std::memcpy(&v, &wide, sizeof(v));
    }
    __attribute__((always_inline)) static void storePart(float* p, const Floats8& v,
                                                         std::size_t n) {
        FloatLanes8::storePart(p, v, n);
    }
};

} // namespace

void blockProductAvx2(const float* a, const float* b, float* const* out, std::size_t rows,
                      std::size_t k, std::size_t cols) {
    blockProductOf<Floats8, FloatLanes8>(a, b, out, rows, k, cols, nullptr);
}

void blockProductAvx2HalfB(const float* a, const std::uint16_t* b, float* const* out,
                           std::size_t rows, std::size_t k, std::size_t cols) {
    blockProductOf<Floats8, HalfLanes8>(a, b, out, rows, k, cols, nullptr);
}

} // namespace tessera
