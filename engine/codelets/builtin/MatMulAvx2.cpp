// MatMulPartial's AVX2 kernels: b in floats or in halves, each vector of
// halves widened with F16C as the tile loads it (no widened copy of b is
// written and read back), a block's last columns read and written through
// masks inside the last register tile (no zero-padded copy, no tile of its
// own). Built with -mavx2 -mfma -mf16c (engine/CMakeLists.txt) and called
// only on CPUs that have them (MatMul.cpp). Each output is its products
// fused into a zero-started accumulator in x order, as the AVX-512 kernel's
// (MatMul.cpp), so the bits do not depend on which of the two runs or on the
// register tile an output falls in. It calls no inline function of another
// file, so nothing compiled here for AVX2 can be linked in place of the
// baseline build of it.
#include "engine/codelets/builtin/MatMulTiles.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace tessera {

namespace {

// Register tiles of at most kTileRows rows x kTileVectors vectors of 8: 12
// accumulators (enough to cover the FMA latency on both units), 3 b vectors
// and a broadcast of a: 16 registers.
constexpr std::size_t kTileRows = 4;
constexpr std::size_t kTileVectors = 3;

// Lanes [0, n) of 8 set.
__m256i firstLanes(std::size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// How a tile reads 8 elements of b, or its last n < 8 (zero lanes past n,
// nothing past p[n - 1] read): floats, or the bits of halves, widened
// exactly as the scalar conversion (engine/core/Half.h).
struct FloatB {
    using Element = float;
    __attribute__((always_inline)) static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    __attribute__((always_inline)) static __m256 loadPart(const float* p, std::size_t n) {
        return _mm256_maskload_ps(p, firstLanes(n));
    }
};

struct HalfB {
    using Element = std::uint16_t;
    __attribute__((always_inline)) static __m256 load(const std::uint16_t* p) {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    // Pairs through a masked 32-bit load (AVX2 has no 16-bit one), an odd
    // last one on its own.
    __attribute__((always_inline)) static __m256 loadPart(const std::uint16_t* p, std::size_t n) {
        const __m128i pairs =
            _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(n / 2)), _mm_setr_epi32(0, 1, 2, 3));
        __m128i h = _mm_maskload_epi32(reinterpret_cast<const int*>(p), pairs);
        if (n % 2 == 1) {
            const __m128i last = _mm_cmpeq_epi16(_mm_set1_epi16(static_cast<short>(n - 1)),
                                                 _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7));
            h = _mm_blendv_epi8(h, _mm_set1_epi16(static_cast<short>(p[n - 1])), last);
        }
        return _mm256_cvtph_ps(h);
    }
};

// Rows x Vectors outputs at column c, accumulated over the whole k loop in
// x order; with Part, the last vector holds only the first `part` columns.
template <std::size_t Rows, std::size_t Vectors, bool Part, typename B>
__attribute__((always_inline)) inline void
registerTile(const float* a, std::size_t k, const typename B::Element* b, std::size_t ldb,
             float* const* out, std::size_t c, std::size_t part) {
    __m256 acc[Rows][Vectors];
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v < Vectors; ++v) {
            acc[i][v] = _mm256_setzero_ps();
        }
    }
    for (std::size_t x = 0; x < k; ++x) {
        const typename B::Element* bx = b + x * ldb + c;
        __m256 bv[Vectors];
        for (std::size_t v = 0; v + 1 < Vectors; ++v) {
            bv[v] = B::load(bx + 8 * v);
        }
        bv[Vectors - 1] =
            Part ? B::loadPart(bx + 8 * (Vectors - 1), part) : B::load(bx + 8 * (Vectors - 1));
        for (std::size_t i = 0; i < Rows; ++i) {
            const __m256 av = _mm256_broadcast_ss(a + i * k + x);
            for (std::size_t v = 0; v < Vectors; ++v) {
                acc[i][v] = _mm256_fmadd_ps(av, bv[v], acc[i][v]);
            }
        }
    }
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v + 1 < Vectors; ++v) {
            _mm256_storeu_ps(out[i] + c + 8 * v, acc[i][v]);
        }
        float* last = out[i] + c + 8 * (Vectors - 1);
        if constexpr (Part) {
            _mm256_maskstore_ps(last, firstLanes(part), acc[i][Vectors - 1]);
        } else {
            _mm256_storeu_ps(last, acc[i][Vectors - 1]);
        }
    }
}

template <std::size_t Rows, typename B, std::size_t... Widths>
__attribute__((always_inline)) inline void
tileOfWidth(std::size_t width, bool part, const float* a, std::size_t k,
            const typename B::Element* b, std::size_t ldb, float* const* out, std::size_t c,
            std::size_t partLanes, std::index_sequence<Widths...>) {
    // Widths 0..kTileVectors-1 name tiles of 1..kTileVectors vectors.
    ((width == Widths + 1
          ? (part ? registerTile<Rows, Widths + 1, true, B>(a, k, b, ldb, out, c, partLanes)
                  : registerTile<Rows, Widths + 1, false, B>(a, k, b, ldb, out, c, partLanes))
          : void()),
     ...);
}

// Vectors of the next column tile when `left` remain: threes, except that a
// remainder of one makes the last two tiles two each (a one-vector tile has
// too few accumulators to cover the FMA latency).
std::size_t tileWidth(std::size_t left) {
    return left == 4 ? 2 : left < kTileVectors ? left : kTileVectors;
}

template <std::size_t Rows, typename B>
__attribute__((always_inline)) inline void rowGroup(const float* a, const typename B::Element* b,
                                                    float* const* out, std::size_t k,
                                                    std::size_t cols) {
    const std::size_t vectors = (cols + 7) / 8, lastLanes = cols - (vectors - 1) * 8;
    for (std::size_t v = 0; v < vectors;) {
        const std::size_t width = tileWidth(vectors - v);
        const bool part = v + width == vectors && lastLanes < 8;
        tileOfWidth<Rows, B>(width, part, a, k, b, cols, out, 8 * v, lastLanes,
                             std::make_index_sequence<kTileVectors>{});
        v += width;
    }
}

template <typename B, std::size_t... Heights>
__attribute__((always_inline)) inline void
rowGroupOf(std::size_t height, const float* a, const typename B::Element* b, float* const* out,
           std::size_t k, std::size_t cols, std::index_sequence<Heights...>) {
    // Heights 0..kTileRows-1 name row groups of 1..kTileRows rows.
    ((height == Heights + 1 ? rowGroup<Heights + 1, B>(a, b, out, k, cols) : void()), ...);
}

// out[r][c] = sum over x of a[r * k + x] * b[x * cols + c]; rows in groups of
// near-equal height (7 rows: 3 and 4), so no lone row's few accumulators
// wait on the FMA latency.
template <typename B>
__attribute__((always_inline)) inline void
blockProduct(const float* a, const typename B::Element* b, float* const* out, std::size_t rows,
             std::size_t k, std::size_t cols) {
    if (cols == 0) {
        return;
    }
    const std::size_t groups = (rows + kTileRows - 1) / kTileRows;
    for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t r = rows * g / groups;
        rowGroupOf<B>(rows * (g + 1) / groups - r, a + r * k, b, out + r, k, cols,
                      std::make_index_sequence<kTileRows>{});
    }
}

} // namespace

void blockProductAvx2(const float* a, const float* b, float* const* out, std::size_t rows,
                      std::size_t k, std::size_t cols) {
    blockProduct<FloatB>(a, b, out, rows, k, cols);
}

void blockProductAvx2HalfB(const float* a, const std::uint16_t* b, float* const* out,
                           std::size_t rows, std::size_t k, std::size_t cols) {
    blockProduct<HalfB>(a, b, out, rows, k, cols);
}

} // namespace tessera
