// <ipu_builtins.h>: the __builtin_ipu_* functions codelets call, implemented
// on the host as IPUModel does. Those that read or change the machine's own
// state (control registers, tile id, cycle counters, the hardware random
// generator, the accumulators) are not supported: using one is a compile
// error that names it. GCC treats __builtin_* names as C functions (no
// overloading), so each is a macro naming an overloaded host function.
#ifndef TESSERA_IPU_BUILTINS_H
#define TESSERA_IPU_BUILTINS_H

#include <ipudef.h>

#include <cmath>
#include <cstdint>

namespace tessera_ipu {
template <typename T>
struct unsupported {
    static const bool value = false;
};

// Minimum and maximum (NaN-ignoring like the IPU's f32max / f32min).
inline float max(float a, float b) {
    return std::fmax(a, b);
}
inline float min(float a, float b) {
    return std::fmin(a, b);
}
inline float2 max(float2 a, float2 b) {
    float2 r = {std::fmax(a[0], b[0]), std::fmax(a[1], b[1])};
    return r;
}
inline float2 min(float2 a, float2 b) {
    float2 r = {std::fmin(a[0], b[0]), std::fmin(a[1], b[1])};
    return r;
}
inline half4 max(half4 a, half4 b) {
    half4 r;
    for (int i = 0; i < 4; ++i) {
        r[i] = static_cast<_Float16>(std::fmax(static_cast<float>(a[i]), static_cast<float>(b[i])));
    }
    return r;
}
inline half4 min(half4 a, half4 b) {
    half4 r;
    for (int i = 0; i < 4; ++i) {
        r[i] = static_cast<_Float16>(std::fmin(static_cast<float>(a[i]), static_cast<float>(b[i])));
    }
    return r;
}
// clamp(x, {lo, hi})
inline float clamp(float x, float2 range) {
    return std::fmin(std::fmax(x, range[0]), range[1]);
}
inline float absf(float x) {
    return std::fabs(x);
}
inline int cmpslt(int a, int b) {
    return a < b ? 1 : 0;
}
inline int cmpeq(int a, int b) {
    return a == b ? 1 : 0;
}
inline unsigned cmpult(unsigned a, unsigned b) {
    return a < b ? 1u : 0u;
}
inline unsigned popc(unsigned x) {
    return static_cast<unsigned>(__builtin_popcount(x));
}
inline unsigned clz(unsigned x) {
    return x == 0 ? 32u : static_cast<unsigned>(__builtin_clz(x));
}
inline unsigned bitrev8(unsigned x) {
    unsigned r = 0;
    for (int byte = 0; byte < 4; ++byte) {
        const unsigned b = (x >> (8 * byte)) & 0xffu;
        unsigned rb = 0;
        for (int i = 0; i < 8; ++i) {
            rb |= ((b >> i) & 1u) << (7 - i);
        }
        r |= rb << (8 * byte);
    }
    return r;
}
inline float exp(float x) {
    return std::exp(x);
}
inline float exp2(float x) {
    return std::exp2(x);
}
inline float ln(float x) {
    return std::log(x);
}
inline float log2(float x) {
    return std::log2(x);
}
inline float rsqrt(float x) {
    return 1.0f / std::sqrt(x);
}
inline float sigmoid(float x) {
    return 1.0f / (1.0f + std::exp(-x));
}
inline float tanh(float x) {
    return std::tanh(x);
}

// Machine state the model does not have.
#define TESSERA_IPU_UNSUPPORTED(name)                                                              \
    template <typename TesseraT = void, typename... TesseraArgs>                                   \
    inline unsigned unsupported_##name(TesseraArgs...) {                                           \
        static_assert(unsupported<TesseraT>::value,                                                \
                      "not supported by Tessera: __builtin_ipu_" #name);                           \
        return 0;                                                                                  \
    }
TESSERA_IPU_UNSUPPORTED(get_tile_id)
TESSERA_IPU_UNSUPPORTED(get)
TESSERA_IPU_UNSUPPORTED(put)
TESSERA_IPU_UNSUPPORTED(uget)
TESSERA_IPU_UNSUPPORTED(uput)
TESSERA_IPU_UNSUPPORTED(get_scount_l)
TESSERA_IPU_UNSUPPORTED(get_scount_u)
TESSERA_IPU_UNSUPPORTED(urand32)
TESSERA_IPU_UNSUPPORTED(urand64)
TESSERA_IPU_UNSUPPORTED(urand_f32)
TESSERA_IPU_UNSUPPORTED(urand_f16)
TESSERA_IPU_UNSUPPORTED(f32v2grand)
TESSERA_IPU_UNSUPPORTED(f16v4grand)
TESSERA_IPU_UNSUPPORTED(put_tas)
TESSERA_IPU_UNSUPPORTED(f32v2axpy)
TESSERA_IPU_UNSUPPORTED(ld128putcs)
#undef TESSERA_IPU_UNSUPPORTED
} // namespace tessera_ipu

#define __builtin_ipu_max(...) ::tessera_ipu::max(__VA_ARGS__)
#define __builtin_ipu_min(...) ::tessera_ipu::min(__VA_ARGS__)
#define __builtin_ipu_clamp(...) ::tessera_ipu::clamp(__VA_ARGS__)
#define __builtin_ipu_absf(...) ::tessera_ipu::absf(__VA_ARGS__)
#define __builtin_ipu_cmpslt(...) ::tessera_ipu::cmpslt(__VA_ARGS__)
#define __builtin_ipu_cmpeq(...) ::tessera_ipu::cmpeq(__VA_ARGS__)
#define __builtin_ipu_cmpult(...) ::tessera_ipu::cmpult(__VA_ARGS__)
#define __builtin_ipu_popc(...) ::tessera_ipu::popc(__VA_ARGS__)
#define __builtin_ipu_clz(...) ::tessera_ipu::clz(__VA_ARGS__)
#define __builtin_ipu_bitrev8(...) ::tessera_ipu::bitrev8(__VA_ARGS__)
#define __builtin_ipu_exp(...) ::tessera_ipu::exp(__VA_ARGS__)
#define __builtin_ipu_exp2(...) ::tessera_ipu::exp2(__VA_ARGS__)
#define __builtin_ipu_ln(...) ::tessera_ipu::ln(__VA_ARGS__)
#define __builtin_ipu_log2(...) ::tessera_ipu::log2(__VA_ARGS__)
#define __builtin_ipu_rsqrt(...) ::tessera_ipu::rsqrt(__VA_ARGS__)
#define __builtin_ipu_sigmoid(...) ::tessera_ipu::sigmoid(__VA_ARGS__)
#define __builtin_ipu_tanh(...) ::tessera_ipu::tanh(__VA_ARGS__)
#define __builtin_ipu_get_tile_id(...) ::tessera_ipu::unsupported_get_tile_id<>(__VA_ARGS__)
#define __builtin_ipu_get(...) ::tessera_ipu::unsupported_get<>(__VA_ARGS__)
#define __builtin_ipu_put(...) ::tessera_ipu::unsupported_put<>(__VA_ARGS__)
#define __builtin_ipu_uget(...) ::tessera_ipu::unsupported_uget<>(__VA_ARGS__)
#define __builtin_ipu_uput(...) ::tessera_ipu::unsupported_uput<>(__VA_ARGS__)
#define __builtin_ipu_get_scount_l(...) ::tessera_ipu::unsupported_get_scount_l<>(__VA_ARGS__)
#define __builtin_ipu_get_scount_u(...) ::tessera_ipu::unsupported_get_scount_u<>(__VA_ARGS__)
#define __builtin_ipu_urand32(...) ::tessera_ipu::unsupported_urand32<>(__VA_ARGS__)
#define __builtin_ipu_urand64(...) ::tessera_ipu::unsupported_urand64<>(__VA_ARGS__)
#define __builtin_ipu_urand_f32(...) ::tessera_ipu::unsupported_urand_f32<>(__VA_ARGS__)
#define __builtin_ipu_urand_f16(...) ::tessera_ipu::unsupported_urand_f16<>(__VA_ARGS__)
#define __builtin_ipu_f32v2grand(...) ::tessera_ipu::unsupported_f32v2grand<>(__VA_ARGS__)
#define __builtin_ipu_f16v4grand(...) ::tessera_ipu::unsupported_f16v4grand<>(__VA_ARGS__)
#define __builtin_ipu_put_tas(...) ::tessera_ipu::unsupported_put_tas<>(__VA_ARGS__)
#define __builtin_ipu_f32v2axpy(...) ::tessera_ipu::unsupported_f32v2axpy<>(__VA_ARGS__)
#define __builtin_ipu_ld128putcs(...) ::tessera_ipu::unsupported_ld128putcs<>(__VA_ARGS__)

#endif
