#pragma once
// Rounding to IEEE binary16 for the values workloads make in bulk:
// roundToHalf rounds a float to the nearest half without packing it into 16
// bits and out again (engine/core/Half.h's inline fast path on the float's
// bits; subnormals, infinities and NaNs through the full conversion), so
// every result equals float(half(x)).
#include "engine/core/Half.h"

#include <bit>
#include <cstdint>

namespace tessera::workloads {

namespace fasthalf {
using halfdetail::roundBits;
using halfdetail::roundsToNormal;
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

// half(x).bits (engine/core/Half.h's conversions are inline for these values).
inline std::uint16_t halfBits(float x) {
    return floatToHalfBits(x);
}

// float(half with these bits).
inline float halfToFloat(std::uint16_t bits) {
    return halfBitsToFloat(bits);
}

} // namespace tessera::workloads
