#pragma once
// Rounding to IEEE binary16 without a call for the values workloads make in
// bulk: a normal half is rounded to nearest even with a few integer
// operations on the float's bits, a zero keeps its sign; subnormals,
// infinities and NaNs go through engine/core/Half.h, so every result equals
// that conversion's.
#include "engine/core/Half.h"

#include <bit>
#include <cstdint>

namespace tessera::workloads {

namespace fasthalf {
// |x| from the smallest normal half (2^-14) up to, not including, 65504 + 16:
// everything at or above rounds to infinity.
inline bool roundsToNormal(std::uint32_t magnitude) {
    return magnitude >= 0x38800000u && magnitude < 0x477ff000u;
}
// The float's bits rounded to the 10 mantissa bits a half keeps (the carry
// into the exponent is the right result).
inline std::uint32_t roundBits(std::uint32_t f) {
    return (f + 0x0fffu + ((f >> 13) & 1u)) & ~0x1fffu;
}
} // namespace fasthalf

// float(half(x)).
inline float roundToHalf(float x) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(x);
    if ((f & 0x7fffffffu) == 0) { // a signed zero, as common as relu makes it
        return x;
    }
    if (fasthalf::roundsToNormal(f & 0x7fffffffu)) {
        const std::uint32_t r = fasthalf::roundBits(f);
        if ((r & 0x7fffffffu) <= 0x477fe000u) { // 65504, the largest half
            return std::bit_cast<float>(r);
        }
    }
    return float(half(x));
}

// half(x).bits.
inline std::uint16_t halfBits(float x) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(x);
    if ((f & 0x7fffffffu) == 0) {
        return static_cast<std::uint16_t>(f >> 16); // the sign
    }
    if (fasthalf::roundsToNormal(f & 0x7fffffffu)) {
        const std::uint32_t r = fasthalf::roundBits(f);
        if ((r & 0x7fffffffu) <= 0x477fe000u) {
            const std::uint32_t exponent = ((r >> 23) & 0xffu) - 112u; // 127 - 15
            return static_cast<std::uint16_t>(((r >> 16) & 0x8000u) | (exponent << 10) |
                                              ((r >> 13) & 0x3ffu));
        }
    }
    return floatToHalfBits(x);
}

// float(half with these bits).
inline float halfToFloat(std::uint16_t bits) {
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    if (exponent != 0 && exponent != 0x1f) {
        return std::bit_cast<float>((std::uint32_t(bits & 0x8000u) << 16) |
                                    ((exponent + 112u) << 23) |
                                    (std::uint32_t(bits & 0x3ffu) << 13));
    }
    return halfBitsToFloat(bits);
}

} // namespace tessera::workloads
