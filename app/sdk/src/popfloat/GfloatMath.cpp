#include "GfloatMath.h"

#include <cmath>
#include <limits>

namespace popfloat::experimental::detail {

unsigned packFormat(const GfloatFormat& f) {
    const auto biasByte =
        static_cast<unsigned>(static_cast<unsigned char>(static_cast<signed char>(f.bias)));
    return (f.mantissaBits & 0xffu) | ((f.exponentBits & 0xffu) << 8) | (biasByte << 16) |
           (f.denorms ? 1u << 24 : 0u) | (f.infsAndNans ? 1u << 25 : 0u);
}

GfloatFormat unpackFormat(unsigned packed) {
    GfloatFormat f;
    f.mantissaBits = packed & 0xffu;
    f.exponentBits = (packed >> 8) & 0xffu;
    f.bias = static_cast<signed char>(static_cast<unsigned char>((packed >> 16) & 0xffu));
    f.denorms = (packed >> 24) & 1u;
    f.infsAndNans = (packed >> 25) & 1u;
    return f;
}

namespace {
int maxExponentField(const GfloatFormat& f) {
    const int allOnes = (1 << f.exponentBits) - 1;
    return f.infsAndNans ? allOnes - 1 : allOnes;
}
} // namespace

double largestValue(const GfloatFormat& f) {
    return std::ldexp(2.0 - std::ldexp(1.0, -int(f.mantissaBits)), maxExponentField(f) - f.bias);
}

double smallestNormal(const GfloatFormat& f) {
    return std::ldexp(1.0, 1 - f.bias);
}

double smallestPositive(const GfloatFormat& f) {
    return f.denorms ? std::ldexp(1.0, 1 - f.bias - int(f.mantissaBits)) : smallestNormal(f);
}

std::string unsupportedRounding(RoundType mode) {
    switch (mode) {
    case RoundType::SR:
        return "not supported by Tessera: popfloat stochastic rounding (RoundType::SR)";
    case RoundType::SX:
        return "not supported by Tessera: popfloat stochastic rounding (RoundType::SX)";
    case RoundType::INV:
        return "popfloat: RoundType::INV is not a rounding mode";
    default:
        return {};
    }
}

double quantise(double x, const GfloatFormat& f, RoundType mode, bool nanoo) {
    if (std::isnan(x) || std::isinf(x) || x == 0.0) {
        return x;
    }
    const bool negative = std::signbit(x);
    const double magnitude = std::fabs(x);
    if (magnitude > largestValue(f)) { // out of range, whatever the rounding
        const double clipped =
            nanoo && f.infsAndNans ? std::numeric_limits<double>::quiet_NaN() : largestValue(f);
        return negative ? -clipped : clipped;
    }
    // The spacing of representable magnitudes around `magnitude`.
    double step;
    if (magnitude < smallestNormal(f)) {
        step = f.denorms ? smallestPositive(f) : smallestNormal(f);
    } else {
        step = std::ldexp(1.0, std::ilogb(magnitude) - int(f.mantissaBits));
    }
    const double units = magnitude / step; // exact: step is a power of two
    const double below = std::floor(units);
    const double fraction = units - below;
    double n = below;
    switch (mode) {
    case RoundType::RZ:
        break;
    case RoundType::RN:
        if (fraction > 0.5 || (fraction == 0.5 && std::fmod(below, 2.0) != 0.0)) {
            n = below + 1;
        }
        break;
    case RoundType::RA:
        if (fraction >= 0.5) {
            n = below + 1;
        }
        break;
    case RoundType::RU: // up for positive values: the magnitude grows
        if (fraction > 0 && !negative) {
            n = below + 1;
        }
        break;
    case RoundType::RD: // down for negative values: the magnitude grows
        if (fraction > 0 && negative) {
            n = below + 1;
        }
        break;
    default:
        return std::numeric_limits<double>::quiet_NaN(); // refused before a cast runs
    }
    const double result = n * step; // at most largestValue: that is representable
    return negative ? -result : result;
}

} // namespace popfloat::experimental::detail
