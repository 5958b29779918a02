#pragma once
// IEEE 754 binary16, stored as 2 bytes in tile memory; arithmetic goes through
// float, as a codelet author expects from the device's `half`.
#include <cstdint>
#include <cstring>

namespace tessera {

namespace halfdetail {
// Every case (subnormals, infinities, NaNs included), out of line.
std::uint16_t floatToHalfBitsAnyCase(float value);
float halfBitsToFloatAnyCase(std::uint16_t bits);
// |x| from the smallest normal half (2^-14) up to, not including, 65504 + 16
// (at or above rounds to infinity).
inline bool roundsToNormal(std::uint32_t magnitude) {
    return magnitude >= 0x38800000u && magnitude < 0x477ff000u;
}
// The float's bits rounded to nearest even at the 10 mantissa bits a half
// keeps (a carry into the exponent is the right result).
inline std::uint32_t roundBits(std::uint32_t f) {
    return (f + 0x0fffu + ((f >> 13) & 1u)) & ~0x1fffu;
}
} // namespace halfdetail

// Inline for the normal values and zeros codelets convert per element (a
// call each was most of a half element-wise run); the rest out of line. The
// results are the out-of-line conversion's, bit for bit.
inline std::uint16_t floatToHalfBits(float value) {
    std::uint32_t f;
    std::memcpy(&f, &value, sizeof f);
    if ((f & 0x7fffffffu) == 0) {
        return static_cast<std::uint16_t>(f >> 16); // a signed zero
    }
    if (halfdetail::roundsToNormal(f & 0x7fffffffu)) {
        const std::uint32_t r = halfdetail::roundBits(f);
        if ((r & 0x7fffffffu) <= 0x477fe000u) {                        // 65504, the largest half
            const std::uint32_t exponent = ((r >> 23) & 0xffu) - 112u; // 127 - 15
            return static_cast<std::uint16_t>(((r >> 16) & 0x8000u) | (exponent << 10) |
                                              ((r >> 13) & 0x3ffu));
        }
    }
    return halfdetail::floatToHalfBitsAnyCase(value);
}

inline float halfBitsToFloat(std::uint16_t bits) {
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    if (exponent == 0 && (bits & 0x3ffu) == 0) {
        const std::uint32_t f = std::uint32_t(bits & 0x8000u) << 16;
        float out;
        std::memcpy(&out, &f, sizeof out);
        return out;
    }
    if (exponent != 0 && exponent != 0x1f) {
        const std::uint32_t f = (std::uint32_t(bits & 0x8000u) << 16) | ((exponent + 112u) << 23) |
                                (std::uint32_t(bits & 0x3ffu) << 13);
        float out;
        std::memcpy(&out, &f, sizeof out);
        return out;
    }
    return halfdetail::halfBitsToFloatAnyCase(bits);
}

struct half {
    std::uint16_t bits = 0;
    half() = default;
    half(float value)
        : bits(floatToHalfBits(value)) {}
    operator float() const { return halfBitsToFloat(bits); }
    half& operator+=(float v) { return *this = half(float(*this) + v); }
    half& operator-=(float v) { return *this = half(float(*this) - v); }
    half& operator*=(float v) { return *this = half(float(*this) * v); }
    half& operator/=(float v) { return *this = half(float(*this) / v); }
};
static_assert(sizeof(half) == 2);

} // namespace tessera
