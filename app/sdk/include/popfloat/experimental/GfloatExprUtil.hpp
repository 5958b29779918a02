// Names of the popfloat enums ("RN", "BFLOAT16", ...) and the poplar::Type of
// a SpecType.
#ifndef TESSERA_POPFLOAT_GFLOATEXPRUTIL_HPP
#define TESSERA_POPFLOAT_GFLOATEXPRUTIL_HPP

#include <popfloat/experimental/GfloatExpr.hpp>
#include <poplar/Type.hpp>
#include <poputil/VertexTemplates.hpp>

#include <string>

namespace popfloat {
namespace experimental {

std::string roundTypeToString(RoundType rmode);
std::string formatTypeToString(FormatType fmt);
std::string srDensityTypeToString(SRDensityType dist);
// FP32 -> FLOAT, FP16 -> HALF, INT32 -> INT; INT8, INT16 and AUTO throw
// poputil::poplibs_error.
poplar::Type specTypeToPoplarType(SpecType specType);

} // namespace experimental
} // namespace popfloat

#endif
