#pragma once
// Halves to floats and back, many at a time: with F16C where the CPU has it
// (eight a instruction), else one by one. Bit for bit what half's own
// conversions give: a block of eight holding a NaN goes one by one, as
// F16C keeps a NaN's payload where `half` makes it canonical.
#include "engine/core/Half.h"

#include <cstddef>

namespace tessera {

// Whether the CPU converts halves in its vector registers (F16C, with AVX).
bool cpuHasF16c();

void halvesToFloats(const half* in, float* out, std::size_t n);
void floatsToHalves(const float* in, half* out, std::size_t n);

} // namespace tessera
