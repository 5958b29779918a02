#pragma once
// IEEE 754 binary16, stored as 2 bytes in tile memory; arithmetic goes through
// float, as a codelet author expects from the device's `half`.
#include <cstdint>
#include <cstring>

namespace tessera {

std::uint16_t floatToHalfBits(float value);
float halfBitsToFloat(std::uint16_t bits);

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
