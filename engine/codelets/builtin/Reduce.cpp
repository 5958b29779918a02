// Reductions: a vector to a scalar (sum, max), and element-wise sums of a list
// of partial vectors (the second stage of a cross-tile reduction).
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/core/HalfBlocks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace tessera {

namespace {

template <typename T>
class ReduceAdd : public Vertex {
public:
    Input<Vector<T>> in;
    Output<T> out;
    bool compute() {
        float sum = 0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            sum += float(in[i]);
        }
        out = T(sum);
        return true;
    }
};

template <typename T>
class ReduceMax : public Vertex {
public:
    Input<Vector<T>> in;
    Output<T> out;
    bool compute() {
        float m = -std::numeric_limits<float>::infinity();
        for (std::size_t i = 0; i < in.size(); ++i) {
            m = std::max(m, float(in[i]));
        }
        out = T(m);
        return true;
    }
};

#if defined(__x86_64__)
// Float partials into float outputs, 64 elements at a time in four AVX-512
// registers, the last ones through masks: each element the same sum, in
// the same order, as the portable loops below.
__attribute__((target("avx512f"))) void
sumPartialsAvx512(const float* const* sources, std::size_t parts, float* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512 acc[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                         _mm512_setzero_ps()};
        for (std::size_t p = 0; p < parts; ++p) {
            for (std::size_t v = 0; v < 4; ++v) {
                acc[v] = _mm512_add_ps(acc[v], _mm512_loadu_ps(sources[p] + i + 16 * v));
            }
        }
        for (std::size_t v = 0; v < 4; ++v) {
            _mm512_storeu_ps(out + i + 16 * v, acc[v]);
        }
    }
    for (; i < n; i += 16) {
        const std::size_t lanes = std::min<std::size_t>(16, n - i);
        const auto mask = static_cast<__mmask16>((1u << lanes) - 1u);
        __m512 acc = _mm512_setzero_ps();
        for (std::size_t p = 0; p < parts; ++p) {
            acc = _mm512_add_ps(acc, _mm512_maskz_loadu_ps(mask, sources[p] + i));
        }
        _mm512_mask_storeu_ps(out + i, mask, acc);
    }
}

bool hasAvx512() {
    static const bool yes = __builtin_cpu_supports("avx512f");
    return yes;
}
#endif

// out[i] = sum over p of partials[p][i]; accumulates in float.
template <typename In, typename Out>
class ReducePartials : public Vertex {
public:
    Vector<Input<Vector<In>>> partials;
    Output<Vector<Out>> out;
    bool compute() {
        // Each element adds its partials in order from 0, in float: 32
        // elements at a time in 8 vector registers, then 4 at a time, then
        // one by one (an array of 32 sums for the rest went through memory).
        // Halves are widened and narrowed 8 at a time.
        const std::size_t n = out.size();
        thread_local std::vector<const In*> sources;
        sources.resize(partials.size());
        for (std::size_t p = 0; p < partials.size(); ++p) {
            sources[p] = partials[p].data();
        }
        Out* o = out.data();
#if defined(__x86_64__)
        if constexpr (std::is_same_v<In, float> && std::is_same_v<Out, float>) {
            if (hasAvx512()) {
                sumPartialsAvx512(sources.data(), sources.size(), o, n);
                return true;
            }
        }
#endif
        std::size_t i = 0;
        for (; i + 32 <= n; i += 32) {
            sumVectors<8>(sources, i, o);
        }
        for (; i + 4 <= n; i += 4) {
            sumVectors<1>(sources, i, o);
        }
        for (; i < n; ++i) {
            float acc = 0;
            for (const In* source : sources) {
                acc += float(source[i]);
            }
            store(&acc, 1, o + i);
        }
        return true;
    }

    // next's elements as more elements of this vertex's: its output and each
    // of its partials following on in memory (a matMul's rows of one block).
    // Each element is its own sum whichever loop computes it.
    static bool join(ReducePartials& into, const ReducePartials& next) {
        const std::size_t n = into.out.size(), parts = into.partials.size();
        if (parts == 0 || parts != next.partials.size() || into.out.data() + n != next.out.data()) {
            return false;
        }
        for (std::size_t p = 0; p < parts; ++p) {
            if (into.partials[p].data() + n != next.partials[p].data()) {
                return false;
            }
        }
        const std::size_t more = next.out.size();
        into.out.engineBind(into.out.data(), n + more);
        for (std::size_t p = 0; p < parts; ++p) {
            into.partials[p].engineBind(into.partials[p].data(), n + more);
        }
        return true;
    }

private:
    using Floats4 = float __attribute__((vector_size(16)));

    // Elements [i, i + 4 * Vectors) of the output.
    template <std::size_t Vectors>
    static void sumVectors(const std::vector<const In*>& sources, std::size_t i, Out* o) {
        constexpr std::size_t width = 4 * Vectors;
        Floats4 acc[Vectors] = {};
        for (const In* source : sources) {
            const float* in = floats(source + i, width);
            for (std::size_t v = 0; v < Vectors; ++v) {
                Floats4 x;
                std::memcpy(&x, in + 4 * v, sizeof(x));
                acc[v] += x;
            }
        }
        float sums[width];
        std::memcpy(sums, acc, sizeof(sums));
        store(sums, width, o + i);
    }

    // The block's floats: in place, or widened into a per-thread buffer.
    static const float* floats(const In* p, std::size_t n) {
        if constexpr (std::is_same_v<In, float>) {
            (void)n;
            return p;
        } else {
            thread_local float wide[32];
            halvesToFloats(p, wide, n);
            return wide;
        }
    }
    static void store(const float* acc, std::size_t n, Out* o) {
        if constexpr (std::is_same_v<Out, float>) {
            std::copy(acc, acc + n, o);
        } else {
            floatsToHalves(acc, o, n);
        }
    }
};

template <template <typename> class V, typename T>
void addToScalar(CodeletRegistry& r, const char* name) {
    using C = V<T>;
    r.add(CodeletBuilder<C>(typedName<T>(name))
              .field("in", &C::in)
              .field("out", &C::out)
              .codeBytes(144)
              .estimator("16 + n / 2 (float), n / 4 (half)",
                         [](const VertexIntrospector& v, const Target&) {
                             const std::size_t n = v.fieldSize("in");
                             return PerfEstimate{vectorCycles(n, TypeOf<T>::value, 0.5, 16), n};
                         })
              .build());
}

template <typename In, typename Out>
void addPartials(CodeletRegistry& r) {
    using C = ReducePartials<In, Out>;
    const std::string name = "ReducePartials<" + std::string(typeName(TypeOf<In>::value)) + "," +
                             std::string(typeName(TypeOf<Out>::value)) + ">";
    r.add(
        CodeletBuilder<C>(name)
            .field("partials", &C::partials)
            .field("out", &C::out)
            .sameSize({"partials", "out"})
            .join(&C::join)
            .codeBytes(224)
            .estimator(
                "16 + p * (4 + n / 2)",
                [](const VertexIntrospector& v, const Target&) {
                    const std::size_t n = v.fieldSize("out");
                    const std::size_t p = v.fieldSize("partials");
                    return PerfEstimate{16 + p * vectorCycles(n, TypeOf<In>::value, 0.5, 4), n * p};
                })
            .build());
}

} // namespace

void registerReduceCodelets(CodeletRegistry& registry) {
    addToScalar<ReduceAdd, float>(registry, "ReduceAdd");
    addToScalar<ReduceAdd, half>(registry, "ReduceAdd");
    addToScalar<ReduceMax, float>(registry, "ReduceMax");
    addToScalar<ReduceMax, half>(registry, "ReduceMax");
    addPartials<float, float>(registry);
    addPartials<float, half>(registry);
    addPartials<half, half>(registry);
}

} // namespace tessera
