// Names of popfloat's enums and the types of SpecType.
#include "engine/core/Half.h"

#include <popfloat/experimental/CastToHalf.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>

namespace popfloat::experimental {

std::string roundTypeToString(RoundType rmode) {
    switch (rmode) {
    case RoundType::INV:
        return "INV";
    case RoundType::RZ:
        return "RZ";
    case RoundType::RN:
        return "RN";
    case RoundType::RA:
        return "RA";
    case RoundType::RU:
        return "RU";
    case RoundType::RD:
        return "RD";
    case RoundType::SR:
        return "SR";
    case RoundType::SX:
        return "SX";
    }
    return "INV";
}

std::string formatTypeToString(FormatType fmt) {
    switch (fmt) {
    case FormatType::INVALID_FORMAT:
        return "INVALID_FORMAT";
    case FormatType::IEEE_FP16:
        return "IEEE_FP16";
    case FormatType::QUANTISED_FP32:
        return "QUANTISED_FP32";
    case FormatType::QUANTISED_FP16:
        return "QUANTISED_FP16";
    case FormatType::MIN_NORM_ALIGN_GF8:
        return "MIN_NORM_ALIGN_GF8";
    case FormatType::ONE_FIVE_TWO_GF8:
        return "ONE_FIVE_TWO_GF8";
    case FormatType::MAX_NORM_ALIGN_GF8:
        return "MAX_NORM_ALIGN_GF8";
    case FormatType::BFLOAT16:
        return "BFLOAT16";
    case FormatType::NO_DENORM_GF16:
        return "NO_DENORM_GF16";
    case FormatType::ENABLE_DENORM_GF16:
        return "ENABLE_DENORM_GF16";
    }
    return "INVALID_FORMAT";
}

std::string srDensityTypeToString(SRDensityType dist) {
    switch (dist) {
    case SRDensityType::INVALID:
        return "INVALID";
    case SRDensityType::UNIFORM:
        return "UNIFORM";
    case SRDensityType::NORMAL:
        return "NORMAL";
    case SRDensityType::TRUNCATED_NORMAL:
        return "TRUNCATED_NORMAL";
    case SRDensityType::BERNOULLI:
        return "BERNOULLI";
    case SRDensityType::LOGISTIC:
        return "LOGISTIC";
    case SRDensityType::TRUNCATED_LOGISTIC:
        return "TRUNCATED_LOGISTIC";
    case SRDensityType::LAPLACE:
        return "LAPLACE";
    case SRDensityType::TRUNCATED_LAPLACE:
        return "TRUNCATED_LAPLACE";
    case SRDensityType::LOGIT_NORMAL:
        return "LOGIT_NORMAL";
    case SRDensityType::TRUNCATED_LOGIT_NORMAL:
        return "TRUNCATED_LOGIT_NORMAL";
    }
    return "INVALID";
}

poplar::Type specTypeToPoplarType(SpecType specType) {
    switch (specType) {
    case SpecType::FP32:
        return poplar::FLOAT;
    case SpecType::FP16:
        return poplar::HALF;
    case SpecType::INT32:
        return poplar::INT;
    case SpecType::INT8:
        throw poputil::poplibs_error("not supported by Tessera: poplar::CHAR (SpecType::INT8)");
    case SpecType::INT16:
        throw poputil::poplibs_error("not supported by Tessera: poplar::SHORT (SpecType::INT16)");
    case SpecType::AUTO:
        break;
    }
    throw poputil::poplibs_error("specTypeToPoplarType: SpecType::AUTO names no type");
}

uint16_t singleToHalf(float value, bool enNanoo) {
    const std::uint16_t bits = tessera::floatToHalfBits(value);
    const bool overflowed = std::isfinite(value) && (bits & 0x7fffu) == 0x7c00u;
    return overflowed && enNanoo ? static_cast<std::uint16_t>((bits & 0x8000u) | 0x7e00u) : bits;
}

float halfToSingle(uint16_t ihalf) {
    return tessera::halfBitsToFloat(ihalf);
}

} // namespace popfloat::experimental
