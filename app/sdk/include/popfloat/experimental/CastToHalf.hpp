// popfloat's scalar conversions between IEEE single and half precision (the
// half as its 16 bits), rounding to nearest even.
#ifndef TESSERA_POPFLOAT_CASTTOHALF_HPP
#define TESSERA_POPFLOAT_CASTTOHALF_HPP

#include <cstdint>

namespace popfloat {
namespace experimental {

// enNanoo: a finite value too large for half becomes a quiet NaN instead of
// an infinity.
uint16_t singleToHalf(float value, bool enNanoo = false);
float halfToSingle(uint16_t ihalf);

} // namespace experimental
} // namespace popfloat

#endif
