// popfloat::experimental enums: rounding modes, gfloat format kinds,
// stochastic-rounding noise densities and the types a cast may produce.
#ifndef TESSERA_POPFLOAT_GFLOATEXPR_HPP
#define TESSERA_POPFLOAT_GFLOATEXPR_HPP

namespace popfloat {
namespace experimental {

enum class RoundType {
    INV, // not a rounding mode
    RZ,  // towards zero
    RN,  // to nearest, ties to even
    RA,  // to nearest, ties away from zero
    RU,  // towards +infinity
    RD,  // towards -infinity
    SR,  // stochastic (not supported by Tessera)
    SX   // stochastic with fewer random bits (not supported by Tessera)
};

enum class FormatType {
    INVALID_FORMAT,
    IEEE_FP16,          // 1/5/10: IEEE half with rounding modes of its own
    QUANTISED_FP32,     // held in IEEE single precision
    QUANTISED_FP16,     // held in IEEE half precision
    MIN_NORM_ALIGN_GF8, // 8 bits, fewer than 5 exponent bits
    ONE_FIVE_TWO_GF8,   // 1/5/2 with infinities and NaNs
    MAX_NORM_ALIGN_GF8, // 1/5/2 without infinities and NaNs
    BFLOAT16,           // 1/8/7
    NO_DENORM_GF16,     // 16 bits without denormals
    ENABLE_DENORM_GF16  // 16 bits with denormals
};

enum class SRDensityType {
    INVALID,
    UNIFORM,
    NORMAL,
    TRUNCATED_NORMAL,
    BERNOULLI,
    LOGISTIC,
    TRUNCATED_LOGISTIC,
    LAPLACE,
    TRUNCATED_LAPLACE,
    LOGIT_NORMAL,
    TRUNCATED_LOGIT_NORMAL
};

enum class SpecType {
    FP32,  // poplar::FLOAT
    FP16,  // poplar::HALF
    INT8,  // poplar::CHAR (not supported by Tessera)
    INT16, // poplar::SHORT (not supported by Tessera)
    INT32, // poplar::INT
    AUTO   // the smallest type that holds the format
};

} // namespace experimental
} // namespace popfloat

#endif
