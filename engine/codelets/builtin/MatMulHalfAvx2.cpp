// MatMulPartial's AVX2 kernel for b in halves: each vector of b widened with
// F16C as the register tile loads it, so no widened copy of b is written and
// read back. Built with -mavx2 -mfma -mf16c (engine/CMakeLists.txt) and called
// only on CPUs that have them (MatMul.cpp). It calls no inline function of
// another file (its buffer comes from the caller), so nothing compiled here
// for AVX2 can be linked in place of the baseline build of it.
#include "engine/codelets/builtin/MatMulTiles.h"

#include <immintrin.h>

namespace tessera {

namespace {

// b's elements are the bits of halves; the conversions are exact, as the
// scalar one (engine/core/Half.h).
struct HalfLanes8 {
    using Element = std::uint16_t;
    __attribute__((always_inline)) static void load(Floats8& v, const std::uint16_t* p) {
        const __m256 wide = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        std::memcpy(&v, &wide, sizeof(v));
    }
    __attribute__((always_inline)) static float widen(std::uint16_t h) { return _cvtsh_ss(h); }
};

} // namespace

void blockProductAvx2HalfB(const float* a, const std::uint16_t* b, float* const* out,
                           std::size_t rows, std::size_t k, std::size_t cols, float* tailB) {
    blockProductOf<Floats8, HalfLanes8>(a, b, out, rows, k, cols, tailB);
}

} // namespace tessera
