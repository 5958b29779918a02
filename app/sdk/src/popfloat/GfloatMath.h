#pragma once
// The arithmetic of gfloat formats on the host: what the cast vertices run
// and what docs/poplar-compat.md describes. A value of a format with m
// mantissa bits, e exponent bits and bias b is
//   normal:   (1 + f / 2^m) * 2^(E - b), E from 1 to Emax
//   denormal: (f / 2^m) * 2^(1 - b), E = 0, when denormals are enabled
// with Emax = 2^e - 1, less one when the all-ones exponent is kept for
// infinities and NaNs. Without denormals, E = 0 is zero only.
#include <popfloat/experimental/GfloatExpr.hpp>

#include <string>

namespace popfloat::experimental::detail {

struct GfloatFormat {
    unsigned mantissaBits = 10;
    unsigned exponentBits = 5;
    int bias = 15;
    bool denorms = true;
    bool infsAndNans = true;
};

// The one-word packing of FormatConfig::getPackedFloatParameters.
unsigned packFormat(const GfloatFormat& f);
GfloatFormat unpackFormat(unsigned packed);

double largestValue(const GfloatFormat& f);     // the largest finite magnitude
double smallestNormal(const GfloatFormat& f);   // 2^(1 - b)
double smallestPositive(const GfloatFormat& f); // a denormal's step, or smallestNormal

// x rounded into the format by a deterministic mode (RZ, RN, RA, RU, RD;
// RN breaks a tie towards the even mantissa field, zero below the smallest
// normal without denormals): NaN, infinities and zeros pass through; a
// magnitude above largestValue becomes a quiet NaN with nanoo (and the
// format's infinities and NaNs enabled), else the largest value of its sign.
// Exact in double for every format.
double quantise(double x, const GfloatFormat& f, RoundType mode, bool nanoo);

// "not supported by Tessera: ..." for SR, SX and INV; empty for the others.
std::string unsupportedRounding(RoundType mode);

} // namespace popfloat::experimental::detail
