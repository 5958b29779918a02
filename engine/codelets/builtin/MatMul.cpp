// Dense block product: out rows = a (rows x k, row-major) times b (k x cols,
// row-major). Each output row is its own edge, so rows can land straight in a
// larger matrix. Accumulates in float.
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/codelets/builtin/MatMulTiles.h"
#include "engine/core/Error.h"
#include "engine/core/HalfBlocks.h"
#include "engine/target/Target.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

namespace {

// Room for the zero-padded last columns of b, k x 8 floats (MatMulTiles.h).
float* tailBuffer(std::size_t k) {
    thread_local std::vector<float> buffer;
    buffer.resize(k * 8);
    return buffer.data();
}

void blockProductSse2(const float* a, const float* b, float* const* out, std::size_t rows,
                      std::size_t k, std::size_t cols) {
    blockProductOf<Floats4, FloatLanes<Floats4>>(a, b, out, rows, k, cols, tailBuffer(k));
}

// AVX-512: register tiles of rows x vectors of 16 (below), the last vector of a tile masked so a
// block's last columns need no padded copy of b. Each output is the same fused, x-ordered sum as
// the AVX2 kernel's (one FMA a product into a zero-started accumulator), so the bits do not depend
// on which of the two runs.
// b's elements: floats, or halves widened as they are loaded (by F16C:
// exact; a NaN keeps its payload), so a half product needs no widened copy of b.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline __m512
loadB(const float* p, __mmask16 lanes) {
    return lanes == 0xFFFF ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(lanes, p);
}
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline __m512
loadB(const std::uint16_t* p, __mmask16 lanes) {
    // The zero-masked form: GCC 12's _mm512_cvtph_ps reads an "undefined"
    // vector that -Wmaybe-uninitialized flags.
    return _mm512_maskz_cvtph_ps(
        0xFFFF, lanes == 0xFFFF ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
                                : _mm256_maskz_loadu_epi16(lanes, p));
}

template <std::size_t Rows, std::size_t Vectors, typename B>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline void
registerTile512(const float* a, std::size_t k, const B* b, std::size_t ldb, float* const* out,
                std::size_t c, __mmask16 last) {
    __m512 acc[Rows][Vectors];
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v < Vectors; ++v) {
            acc[i][v] = _mm512_setzero_ps();
        }
    }
    for (std::size_t x = 0; x < k; ++x) {
        const B* bx = b + x * ldb + c;
        __m512 bv[Vectors];
        for (std::size_t v = 0; v + 1 < Vectors; ++v) {
            bv[v] = loadB(bx + v * 16, 0xFFFF);
        }
        bv[Vectors - 1] = loadB(bx + (Vectors - 1) * 16, last);
        for (std::size_t i = 0; i < Rows; ++i) {
            const __m512 av = _mm512_set1_ps(a[i * k + x]);
            for (std::size_t v = 0; v < Vectors; ++v) {
                acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
            }
        }
    }
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v + 1 < Vectors; ++v) {
            _mm512_storeu_ps(out[i] + c + v * 16, acc[i][v]);
        }
        _mm512_mask_storeu_ps(out[i] + c + (Vectors - 1) * 16, last, acc[i][Vectors - 1]);
    }
}

// A block's last columns when they are 8 or fewer (`lanes`): Pack rows share
// one vector, 16 / Pack lanes a row (Pack 2: up to 8 columns, Pack 4: up to
// 4), instead of a mostly masked vector a row. The b row's last columns are
// repeated Pack times; each row's broadcast of a is blended into its lanes.
// The same fused, x-ordered sum per output, in fewer multiply-adds.
template <std::size_t Pack>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline __m512
loadTail(const float* p, std::size_t lanes) {
    const auto mask = static_cast<__mmask16>((1u << lanes) - 1u);
    const __m512 v = _mm512_maskz_loadu_ps(mask, p);
    // 128- or 256-bit lanes repeated; the zero-masked forms, as in loadB.
    return _mm512_maskz_shuffle_f32x4(0xFFFF, v, v, Pack == 4 ? 0x00 : 0x44);
}
template <std::size_t Pack>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline __m512
loadTail(const std::uint16_t* p, std::size_t lanes) {
    const auto mask = static_cast<__mmask16>((1u << lanes) - 1u);
    const __m512 v = _mm512_maskz_cvtph_ps(0xFFFF, _mm256_maskz_loadu_epi16(mask, p));
    return _mm512_maskz_shuffle_f32x4(0xFFFF, v, v, Pack == 4 ? 0x00 : 0x44);
}

// Rows x (Vectors whole vectors + `lanes` packed last columns) at column c.
template <std::size_t Rows, std::size_t Vectors, std::size_t Pack, typename B>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline void
packedTailTile512(const float* a, std::size_t k, const B* b, std::size_t ldb, float* const* out,
                  std::size_t c, std::size_t lanes) {
    constexpr std::size_t packs = (Rows + Pack - 1) / Pack;
    constexpr std::size_t width = 16 / Pack;
    __m512 acc[Rows][Vectors > 0 ? Vectors : 1];
    __m512 tail[packs];
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v < Vectors; ++v) {
            acc[i][v] = _mm512_setzero_ps();
        }
    }
    for (std::size_t p = 0; p < packs; ++p) {
        tail[p] = _mm512_setzero_ps();
    }
    const std::size_t tailColumn = c + Vectors * 16;
    for (std::size_t x = 0; x < k; ++x) {
        const B* bx = b + x * ldb + c;
        __m512 bv[Vectors > 0 ? Vectors : 1];
        for (std::size_t v = 0; v < Vectors; ++v) {
            bv[v] = loadB(bx + v * 16, 0xFFFF);
        }
        const __m512 bt = loadTail<Pack>(bx + Vectors * 16, lanes);
        for (std::size_t p = 0; p < packs; ++p) {
            __m512 packed = _mm512_setzero_ps();
            for (std::size_t j = 0; j < Pack; ++j) {
                const std::size_t i =
                    std::min(p * Pack + j, Rows - 1); // a missing row: lanes unused
                const __m512 av = _mm512_set1_ps(a[i * k + x]);
                if (p * Pack + j < Rows) {
                    for (std::size_t v = 0; v < Vectors; ++v) {
                        acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
                    }
                }
                const auto mine = static_cast<__mmask16>(((1u << width) - 1u) << (j * width));
                packed = j == 0 ? av : _mm512_mask_blend_ps(mine, packed, av);
            }
            tail[p] = _mm512_fmadd_ps(packed, bt, tail[p]);
        }
    }
    const auto mask = static_cast<__mmask16>((1u << lanes) - 1u);
    for (std::size_t i = 0; i < Rows; ++i) {
        for (std::size_t v = 0; v < Vectors; ++v) {
            _mm512_storeu_ps(out[i] + c + v * 16, acc[i][v]);
        }
        // Row i's lanes moved down to lane 0, then its `lanes` columns stored.
        const std::size_t j = i % Pack;
        const __m512 mine = _mm512_maskz_permutexvar_ps(
            0xFFFF,
            _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(j * width)),
                             _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7)),
            tail[i / Pack]);
        _mm512_mask_storeu_ps(out[i] + tailColumn, mask, mine);
    }
}

template <std::size_t Rows, std::size_t Pack, typename B>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline void
packedTail512(std::size_t vectors, const float* a, std::size_t k, const B* b, std::size_t ldb,
              float* const* out, std::size_t c, std::size_t lanes) {
    switch (vectors) {
    case 2:
        packedTailTile512<Rows, 2, Pack>(a, k, b, ldb, out, c, lanes);
        break;
    case 1:
        packedTailTile512<Rows, 1, Pack>(a, k, b, ldb, out, c, lanes);
        break;
    default:
        packedTailTile512<Rows, 0, Pack>(a, k, b, ldb, out, c, lanes);
        break;
    }
}

// Whether a block's last 8 or fewer columns are packed (packedTail512) or
// take a masked vector a row. Packing trades multiply-adds for blends: on
// AMD's Zen the blends run beside the FMAs, on Intel's cores they take the
// FMA ports (a 40 x 64 x 36 block: 3280 TSC cycles packed, 3130 masked).
// Both give the same bits.
std::atomic<bool>& packsLastColumns() {
    static std::atomic<bool> packs{!__builtin_cpu_is("intel")};
    return packs;
}

// Register tiles of at most kTileRows512 rows x kTileVectors512 vectors of 16:
// 8 x 3 = 24 accumulators + 3 b vectors + 1 broadcast of 32 registers, so a
// 7-row block (512^3 on mk2) is one row group that reads b once.
constexpr std::size_t kTileVectors512 = 3;
constexpr std::size_t kTileRows512 = 8;

// Rows rows of the product: whole tiles of kTileVectors512 vectors, then the
// rest in one tile of as many vectors as it needs.
template <std::size_t Rows, typename B>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline void
rowGroup512(const float* a, const B* b, float* const* out, std::size_t k, std::size_t cols,
            bool packTail) {
    constexpr std::size_t width = kTileVectors512 * 16;
    const std::size_t lastLanes = cols % 16;
    if (packTail && lastLanes > 0 && lastLanes <= 8) {
        // Whole tiles while more than two whole vectors are left, then the
        // rest (0 to 2 whole vectors) with the last columns packed.
        const std::size_t whole = cols / 16;
        std::size_t c = 0;
        for (; (whole - c / 16) > 2; c += width) {
            registerTile512<Rows, kTileVectors512>(a, k, b, cols, out, c, 0xFFFF);
        }
        const std::size_t vectors = whole - c / 16;
        if (lastLanes <= 4) {
            packedTail512<Rows, 4>(vectors, a, k, b, cols, out, c, lastLanes);
        } else {
            packedTail512<Rows, 2>(vectors, a, k, b, cols, out, c, lastLanes);
        }
        return;
    }
    std::size_t c = 0;
    for (; c + width <= cols; c += width) {
        registerTile512<Rows, kTileVectors512>(a, k, b, cols, out, c, 0xFFFF);
    }
    const std::size_t rest = cols - c;
    if (rest == 0) {
        return;
    }
    const std::size_t restLanes = rest - (rest - 1) / 16 * 16; // 1 to 16
    const auto last = static_cast<__mmask16>((1u << restLanes) - 1u);
    switch ((rest + 15) / 16) {
    case 3:
        registerTile512<Rows, 3>(a, k, b, cols, out, c, last);
        break;
    case 2:
        registerTile512<Rows, 2>(a, k, b, cols, out, c, last);
        break;
    default:
        registerTile512<Rows, 1>(a, k, b, cols, out, c, last);
        break;
    }
}

template <typename B, std::size_t... Heights>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline void
rowGroup512Of(std::size_t height, const float* a, const B* b, float* const* out, std::size_t k,
              std::size_t cols, bool packTail, std::index_sequence<Heights...>) {
    // Heights 0..kTileRows512-1 name row groups of 1..kTileRows512 rows.
    ((height == Heights + 1 ? rowGroup512<Heights + 1>(a, b, out, k, cols, packTail) : void()),
     ...);
}

template <typename B>
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"), always_inline)) inline void
blockProduct512(const float* a, const B* b, float* const* out, std::size_t rows, std::size_t k,
                std::size_t cols) {
    const bool packTail = packsLastColumns().load(std::memory_order_relaxed);
    // Rows in near-equal groups of at most kTileRows512 (13 rows: 7 + 6).
    const std::size_t groups = (rows + kTileRows512 - 1) / kTileRows512;
    for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t r = rows * g / groups;
        rowGroup512Of(rows * (g + 1) / groups - r, a + r * k, b, out + r, k, cols, packTail,
                      std::make_index_sequence<kTileRows512>{});
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"))) void
blockProductAvx512(const float* a, const float* b, float* const* out, std::size_t rows,
                   std::size_t k, std::size_t cols) {
    blockProduct512(a, b, out, rows, k, cols);
}

// b in halves (their bits), widened in the registers.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma"))) void
blockProductAvx512HalfB(const float* a, const std::uint16_t* b, float* const* out, std::size_t rows,
                        std::size_t k, std::size_t cols) {
    blockProduct512(a, b, out, rows, k, cols);
}

bool cpuHas(MatMulKernel kernel) {
    switch (kernel) {
    case MatMulKernel::Avx512:
        // BW and VL for the halves' masked loads: every AVX-512 CPU but the Xeon Phi.
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
    case MatMulKernel::Avx2: // its file is built with F16C too (MatMulAvx2.cpp)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpuHasF16c();
    case MatMulKernel::Sse2:
        return true;
    }
    return false;
}

MatMulKernel widestKernel() {
    for (const MatMulKernel k : {MatMulKernel::Avx512, MatMulKernel::Avx2}) {
        if (cpuHas(k)) {
            return k;
        }
    }
    return MatMulKernel::Sse2;
}

std::atomic<MatMulKernel>& chosenKernel() {
    static std::atomic<MatMulKernel> chosen{widestKernel()};
    return chosen;
}

void blockProduct(const float* a, const float* b, float* const* out, std::size_t rows,
                  std::size_t k, std::size_t cols) {
    switch (chosenKernel().load(std::memory_order_relaxed)) {
    case MatMulKernel::Avx512:
        blockProductAvx512(a, b, out, rows, k, cols);
        break;
    case MatMulKernel::Avx2:
        blockProductAvx2(a, b, out, rows, k, cols);
        break;
    case MatMulKernel::Sse2:
        blockProductSse2(a, b, out, rows, k, cols);
        break;
    }
}

// The product with b in halves: widened in the AVX-512 and AVX2 kernels'
// registers, or once into `wideB` for SSE2. The same bits either way.
void blockProductHalfB(const float* a, const half* b, float* const* out, std::size_t rows,
                       std::size_t k, std::size_t cols, std::vector<float>& wideB) {
    static_assert(sizeof(half) == sizeof(std::uint16_t));
    const auto* bits = reinterpret_cast<const std::uint16_t*>(b);
    switch (chosenKernel().load(std::memory_order_relaxed)) {
    case MatMulKernel::Avx512:
        blockProductAvx512HalfB(a, bits, out, rows, k, cols);
        return;
    case MatMulKernel::Avx2:
        blockProductAvx2HalfB(a, bits, out, rows, k, cols);
        return;
    case MatMulKernel::Sse2:
        break;
    }
    wideB.resize(k * cols);
    halvesToFloats(b, wideB.data(), k * cols);
    blockProduct(a, wideB.data(), out, rows, k, cols);
}

template <typename In, typename Out>
class MatMulPartial : public Vertex {
public:
    Input<Vector<In>> a;
    Input<Vector<In>> b;
    Vector<Output<Vector<Out>>> out;
    bool compute() {
        const std::size_t rows = out.size();
        if (rows == 0) {
            return true;
        }
        const std::size_t cols = out[0].size();
        const std::size_t k = a.size() / rows;
        // a's halves are widened once (b's in the AVX-512 and AVX2 kernels'
        // registers, or once into wideB); float output rows are written in place.
        thread_local std::vector<float> wideA, wideB, rowsOut;
        thread_local std::vector<float*> rowPointers;
        const float* fa = widen(a.data(), a.size(), wideA);
        const auto product = [&] {
            if constexpr (std::is_same_v<In, float>) {
                blockProduct(fa, b.data(), rowPointers.data(), rows, k, cols);
            } else {
                blockProductHalfB(fa, b.data(), rowPointers.data(), rows, k, cols, wideB);
            }
        };
        rowPointers.resize(rows);
        if constexpr (std::is_same_v<Out, float>) {
            for (std::size_t r = 0; r < rows; ++r) {
                rowPointers[r] = out[r].data();
            }
            product();
        } else {
            rowsOut.resize(rows * cols);
            for (std::size_t r = 0; r < rows; ++r) {
                rowPointers[r] = rowsOut.data() + r * cols;
            }
            product();
            for (std::size_t r = 0; r < rows; ++r) {
                floatsToHalves(rowsOut.data() + r * cols, out[r].data(), cols);
            }
        }
        return true;
    }

    // next's rows as more rows of this block: the same b (so the same k and
    // columns), a's rows following on in memory. Each output row is its own
    // x-ordered sum whichever register tile computes it.
    static bool join(MatMulPartial& into, const MatMulPartial& next) {
        const std::size_t rows = into.out.size(), nextRows = next.out.size();
        if (rows == 0 || nextRows == 0 || into.b.data() != next.b.data() ||
            into.b.size() != next.b.size() || into.out[0].size() != next.out[0].size() ||
            into.a.size() / rows != next.a.size() / nextRows ||
            into.a.data() + into.a.size() != next.a.data()) {
            return false;
        }
        into.a.engineBind(into.a.data(), into.a.size() + next.a.size());
        into.out.engineResize(rows + nextRows);
        for (std::size_t r = 0; r < nextRows; ++r) {
            into.out[rows + r] = next.out[r];
        }
        return true;
    }

private:
    static const float* widen(const In* p, std::size_t n, std::vector<float>& buffer) {
        if constexpr (std::is_same_v<In, float>) {
            (void)n;
            (void)buffer;
            return p;
        } else {
            buffer.resize(n);
            halvesToFloats(p, buffer.data(), n);
            return buffer.data();
        }
    }
};

template <typename In, typename Out>
void add(CodeletRegistry& r) {
    using C = MatMulPartial<In, Out>;
    const std::string name = "MatMulPartial<" + std::string(typeName(TypeOf<In>::value)) + "," +
                             std::string(typeName(TypeOf<Out>::value)) + ">";
    r.add(CodeletBuilder<C>(name)
              .field("a", &C::a)
              .field("b", &C::b)
              .field("out", &C::out)
              .sameSize({"out"})
              .validator([](const VertexIntrospector& v) -> std::string {
                  const std::size_t rows = v.fieldSize("out");
                  const std::vector<std::size_t> sizes = v.listSizes("out");
                  const std::size_t cols = sizes.empty() ? 0 : sizes[0];
                  const std::size_t a = v.fieldSize("a"), b = v.fieldSize("b");
                  if (rows == 0) {
                      return {};
                  }
                  if (a % rows != 0) {
                      return "field 'a' has " + std::to_string(a) +
                             " elements, not a multiple of the " + std::to_string(rows) +
                             " output rows";
                  }
                  if (b != a / rows * cols) {
                      return "field 'b' has " + std::to_string(b) +
                             " elements but k x cols = " + std::to_string(a / rows) + " x " +
                             std::to_string(cols);
                  }
                  return {};
              })
              .join(&C::join)
              .codeBytes(512)
              .stackBytes(96)
              .estimator("24 + 6 * rows + ceil(2 * rows * k * cols / flopsPerCycle)",
                         [](const VertexIntrospector& v, const Target& t) {
                             const std::size_t rows = v.fieldSize("out");
                             const std::vector<std::size_t> sizes = v.listSizes("out");
                             const std::size_t cols = sizes.empty() ? 0 : sizes[0];
                             const std::size_t k = rows ? v.fieldSize("a") / rows : 0;
                             const std::uint64_t flops = 2ull * rows * k * cols;
                             const std::uint64_t rate = TypeOf<In>::value == Type::Half
                                                            ? t.fp16FlopsPerCycle
                                                            : t.fp32FlopsPerCycle;
                             return PerfEstimate{24 + 6 * rows + (flops + rate - 1) / rate, flops};
                         })
              .build());
}

} // namespace

std::vector<MatMulKernel> supportedMatMulKernels() {
    std::vector<MatMulKernel> out;
    for (const MatMulKernel k : {MatMulKernel::Sse2, MatMulKernel::Avx2, MatMulKernel::Avx512}) {
        if (cpuHas(k)) {
            out.push_back(k);
        }
    }
    return out;
}

MatMulKernel matMulKernel() {
    return chosenKernel().load();
}

void setMatMulKernel(MatMulKernel kernel) {
    if (!cpuHas(kernel)) {
        throw Error("not supported by Tessera on this CPU: MatMulPartial kernel " +
                    std::string(matMulKernelName(kernel)));
    }
    chosenKernel().store(kernel);
}

bool matMulPacksLastColumns() {
    return packsLastColumns().load(std::memory_order_relaxed);
}

void setMatMulPacksLastColumns(bool packs) {
    packsLastColumns().store(packs, std::memory_order_relaxed);
}

const char* matMulKernelName(MatMulKernel kernel) {
    switch (kernel) {
    case MatMulKernel::Sse2:
        return "sse2";
    case MatMulKernel::Avx2:
        return "avx2+fma";
    case MatMulKernel::Avx512:
        return "avx512f";
    }
    return "?";
}

void registerMatMulCodelets(CodeletRegistry& registry) {
    add<float, float>(registry);
    add<half, half>(registry);
    add<half, float>(registry);
}

} // namespace tessera
