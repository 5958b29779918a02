// poplar/HalfFloat.hpp: converting host float / double arrays to and from the
// device's IEEE half format (round to nearest even), for host buffers of
// HALF tensors.
#ifndef TESSERA_POPLAR_HALFFLOAT_HPP
#define TESSERA_POPLAR_HALFFLOAT_HPP

#include <poplar/Target.hpp>

#include <cstddef>

namespace poplar {

void copyFloatToDeviceHalf(const Target& target, const float* src, void* dst,
                           std::size_t numElements);
void copyDeviceHalfToFloat(const Target& target, const void* src, float* dst,
                           std::size_t numElements);
void copyDoubleToDeviceHalf(const Target& target, const double* src, void* dst,
                            std::size_t numElements);
void copyDeviceHalfToDouble(const Target& target, const void* src, double* dst,
                            std::size_t numElements);

} // namespace poplar

#endif
