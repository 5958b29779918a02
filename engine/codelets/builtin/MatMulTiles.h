#pragma once
// The register-tiled block product behind MatMulPartial's SSE2 kernel
// (MatMul.cpp), and the entry points of its AVX2 kernels (MatMulAvx2.cpp,
// built for AVX2, FMA and F16C). Internal linkage, so nothing built for AVX2
// can stand in for the baseline's.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace tessera {

// MatMulAvx2.cpp, for CPUs with AVX2, FMA and F16C only: b in floats, or b's
// elements the bits of halves.
void blockProductAvx2(const float* a, const float* b, float* const* out, std::size_t rows,
                      std::size_t k, std::size_t cols);
void blockProductAvx2HalfB(const float* a, const std::uint16_t* b, float* const* out,
                           std::size_t rows, std::size_t k, std::size_t cols);

namespace {

// Vectors of 4 floats GCC maps onto SSE2's registers (any x86-64).
using Floats4 = float __attribute__((vector_size(16)));

// How the kernel reads b: as vectors of V (floats; the last cols % lanes
// columns go through a zero-padded copy).
template <typename V>
struct FloatLanes {
    using Element = float;
    // By reference: a vector returned by value would change the ABI.
    __attribute__((always_inline)) static void load(V& v, const float* p) {
        std::memcpy(&v, p, sizeof(V)); // unaligned
    }
};

// One register tile: rows x (vectors x lanes) outputs at column c, each
// accumulated over the whole k loop in x order (b read once per tile row
// group, no accumulator in memory). b is read with stride ldb.
template <typename V, std::size_t Rows, std::size_t Vectors, typename Lanes>
__attribute__((always_inline)) inline void
registerTile(const float* a, std::size_t k, const typename Lanes::Element* b, std::size_t ldb,
             float* const* out, std::size_t c) {
    constexpr std::size_t lanes = sizeof(V) / sizeof(float);
    V acc[Rows][Vectors] = {};
    for (std::size_t x = 0; x < k; ++x) {
        V bv[Vectors];
        for (std::size_t v = 0; v < Vectors; ++v) {
            Lanes::load(bv[v], b + x * ldb + c + v * lanes);
        }
        for (std::size_t i = 0; i < Rows; ++i) {
            const float av = a[i * k + x];
            for (std::size_t v = 0; v < Vectors; ++v) {
                acc[i][v] += av * bv[v];
            }
        }
    }
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v < Vectors; ++v) {
            std::memcpy(out[i] + c + v * lanes, &acc[i][v], sizeof(V));
        }
    }
}

// Rows rows of the product: columns two vectors at a time, then one, then the
// last (cols % lanes) through tailB, the zero-padded floats of those b
// columns (k x lanes), so every output is the same x-ordered sum whichever
// path computes it.
template <typename V, std::size_t Rows, typename Lanes>
__attribute__((always_inline)) inline void
rowGroup(const float* a, const typename Lanes::Element* b, float* const* out, std::size_t k,
         std::size_t cols, const float* tailB) {
    constexpr std::size_t lanes = sizeof(V) / sizeof(float);
    std::size_t c = 0;
    for (; c + 2 * lanes <= cols; c += 2 * lanes) {
        registerTile<V, Rows, 2, Lanes>(a, k, b, cols, out, c);
    }
    for (; c + lanes <= cols; c += lanes) {
        registerTile<V, Rows, 1, Lanes>(a, k, b, cols, out, c);
    }
    if (c == cols) {
        return;
    }
    const std::size_t tail = cols - c;
    float tailOut[Rows][lanes];
    float* tailRows[Rows];
    for (std::size_t i = 0; i < Rows; ++i) {
        tailRows[i] = tailOut[i];
    }
    registerTile<V, Rows, 1, FloatLanes<V>>(a, k, tailB, lanes, tailRows, 0);
    for (std::size_t i = 0; i < Rows; ++i) {
        std::memcpy(out[i] + c, tailOut[i], tail * sizeof(float));
    }
}

template <typename V, typename Lanes, std::size_t... Heights>
__attribute__((always_inline)) inline void
rowGroupOf(std::size_t height, const float* a, const typename Lanes::Element* b, float* const* out,
           std::size_t k, std::size_t cols, const float* tailB, std::index_sequence<Heights...>) {
    // Heights 0..5 name row groups of 1..6 rows.
    ((height == Heights + 1 ? rowGroup<V, Heights + 1, Lanes>(a, b, out, k, cols, tailB) : void()),
     ...);
}

// out[r][c] = sum over x of a[r * k + x] * b[x * cols + c], in float, each sum
// in x order. Tiles of up to 6 rows x 2 vectors (12 accumulators, 2 loads of
// b and 6 broadcasts of a per x) stay in registers across the whole k loop,
// so no row or column falls back to a loop that keeps its sums in memory.
// tailB: room for k * lanes floats.
template <typename V, typename Lanes>
__attribute__((always_inline)) inline void
blockProductOf(const float* a, const typename Lanes::Element* b, float* const* out,
               std::size_t rows, std::size_t k, std::size_t cols, float* tailB) {
    constexpr std::size_t lanes = sizeof(V) / sizeof(float);
    constexpr std::size_t height = 6;
    const std::size_t tailStart = cols / lanes * lanes;
    static_assert(std::is_same_v<typename Lanes::Element, float>);
    if (tailStart < cols) {
        for (std::size_t x = 0; x < k; ++x) {
            float* row = tailB + x * lanes;
            std::memcpy(row, b + x * cols + tailStart, (cols - tailStart) * sizeof(float));
            std::fill(row + (cols - tailStart), row + lanes, 0.0f);
        }
    }
    // Rows in ceil(rows / 6) groups of near-equal height (13 rows: 5, 4, 4),
    // not 6, 6 and a lone row whose 2 accumulators would wait on the FMA
    // latency instead of filling both FMA units.
    const std::size_t groups = (rows + height - 1) / height;
    for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t r = rows * g / groups;
        const float* ar = a + r * k;
        float* const* o = out + r;
        rowGroupOf<V, Lanes>(rows * (g + 1) / groups - r, ar, b, o, k, cols, tailB,
                             std::make_index_sequence<height>{});
    }
}

} // namespace
} // namespace tessera
