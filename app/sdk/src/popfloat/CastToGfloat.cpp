// GfloatCast: format and rounding configuration, the params tensor and the
// casts (vertices of CastCodelets.h over the tiles of the output).
#include "CastCodelets.h"
#include "GfloatMath.h"
#include "Impl.h"

#include <popfloat/experimental/CastToGfloat.hpp>

#include <cmath>

namespace popfloat::experimental {

using poplar::detail::Access;
using poplar::detail::translate;

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw poputil::poplibs_error(message);
}

std::string describe(unsigned m, unsigned e, int bias) {
    return "1/" + std::to_string(e) + "/" + std::to_string(m) + " (bias " + std::to_string(bias) +
           ")";
}

detail::GfloatFormat formatOf(const GfloatCast::FormatConfig& c) {
    detail::GfloatFormat f;
    f.mantissaBits = c.getNumMantissaBits();
    f.exponentBits = c.getNumExponentBits();
    f.bias = c.getExponentBias();
    f.denorms = c.isDenormEnabled();
    f.infsAndNans = c.infAndNansEnabled();
    return f;
}

// The exponent of the format's smallest step (a denormal's, or that of the
// lowest binade of normals): every value is a multiple of 2^this.
int bottomExponent(const detail::GfloatFormat& f) {
    return 1 - f.bias - int(f.mantissaBits);
}

// Whether every value of the format is one of IEEE half's (binary16: steps
// down to 2^-24, magnitudes below 2^16, 10 fraction bits).
bool fitsHalf(const detail::GfloatFormat& f) {
    return f.mantissaBits <= 10 && std::ilogb(detail::largestValue(f)) <= 15 &&
           bottomExponent(f) >= -24;
}

void checkRounding(RoundType mode) {
    const std::string why = detail::unsupportedRounding(mode);
    if (!why.empty()) {
        fail(why);
    }
}

void checkNative(const poplar::Tensor& t, const char* what) {
    if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF) {
        fail(std::string(what) + ": the input must be FLOAT or HALF, not " +
             t.elementType().toString());
    }
}

poplar::Type typeFor(SpecType spec, poplar::Type automatic) {
    return spec == SpecType::AUTO ? automatic : specTypeToPoplarType(spec);
}

poplar::Tensor runCast(poplar::Graph& graph, const poplar::Tensor& input,
                       const poplar::Tensor* output, const poplar::Tensor& param,
                       const poplar::ComputeSet& cs, const char* family, RoundType mode,
                       bool nanoo) {
    translate([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        detail::addCastVertices(g, tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}}, family,
                                Access::tensor(input), Access::tensor(output ? *output : input),
                                Access::tensor(param), mode, nanoo);
        return 0;
    });
    return output ? *output : input;
}

void checkParam(const poplar::Tensor& param) {
    if (param.elementType() != poplar::INT || param.numElements() < 1) {
        fail("popfloat: the cast's params tensor must be an INT tensor from "
             "createCastOpParamsTensor");
    }
}

} // namespace

// ---- options from OptionFlags -------------------------------------------------

void GfloatCast::GfloatFormatOptions::parseGfloatFormatOptions(const poplar::OptionFlags&) {
    fail("not supported by Tessera: popfloat GfloatFormatOptions from OptionFlags");
}

void GfloatCast::GfloatCastOptions::parseGfloatCastOptions(const poplar::OptionFlags&) {
    fail("not supported by Tessera: popfloat GfloatCastOptions from OptionFlags");
}

// ---- FormatConfig ---------------------------------------------------------------

GfloatCast::FormatConfig::FormatConfig(unsigned m, unsigned e, int bias, bool denorms,
                                       bool infsAndNans, SpecType specCalculationType)
    : numMantissaBits(m)
    , numExponentBits(e)
    , exponentBias(bias)
    , enableDenorms(denorms)
    , enableInfsAndNans(infsAndNans) {
    if (specCalculationType != SpecType::AUTO && specCalculationType != SpecType::FP32 &&
        specCalculationType != SpecType::FP16) {
        fail("popfloat: a format's calculation type must be FP32, FP16 or AUTO");
    }
    derive();
    if (specCalculationType == SpecType::FP32) {
        calculationType = poplar::FLOAT;
    } else if (specCalculationType == SpecType::FP16) {
        if (nativeType != poplar::HALF) {
            fail("popfloat: the format " + describe(m, e, bias) +
                 " cannot be calculated in IEEE half");
        }
        calculationType = poplar::HALF;
    } else {
        calculationType = nativeType;
    }
}

GfloatCast::FormatConfig::FormatConfig(GfloatFormatOptions o, poplar::Type calcType)
    : FormatConfig(o.numMantissaBits, o.numExponentBits, int(o.numExponentBias), o.enableDenorms,
                   o.enableInfsAndNans, calcType) {}

GfloatCast::FormatConfig::FormatConfig(unsigned m, unsigned e, int bias, bool denorms,
                                       bool infsAndNans, poplar::Type calcType)
    : FormatConfig(m, e, bias, denorms, infsAndNans,
                   calcType == poplar::HALF    ? SpecType::FP16
                   : calcType == poplar::FLOAT ? SpecType::FP32
                                               : SpecType::INT32) {}

void GfloatCast::FormatConfig::derive() {
    const std::string name = describe(numMantissaBits, numExponentBits, exponentBias);
    if (numExponentBits == 0) {
        fail("not supported by Tessera: popfloat formats with 0 exponent bits (" + name + ")");
    }
    if (numMantissaBits > 23 || numExponentBits > 8 || exponentBias < -128 || exponentBias > 127) {
        fail("popfloat: the format " + name +
             " does not fit in IEEE single precision (at most 23 mantissa and 8 exponent bits, "
             "a bias from -128 to 127)");
    }
    const detail::GfloatFormat f = formatOf(*this);
    if (std::ilogb(detail::largestValue(f)) > 127 || bottomExponent(f) < -149) {
        fail("popfloat: the values of the format " + name +
             " reach outside IEEE single precision's range");
    }
    nativeType = fitsHalf(f) ? poplar::HALF : poplar::FLOAT;
    packedFloatBits = 1 + numMantissaBits + numExponentBits;
    blockFloat = numExponentBits == 0 || (numExponentBits == 1 && !enableInfsAndNans);
    packedFloatParameters = detail::packFormat(f);
    if (numMantissaBits == 10 && numExponentBits == 5 && exponentBias == 15 && enableDenorms &&
        enableInfsAndNans) {
        formatType = FormatType::IEEE_FP16;
    } else if (packedFloatBits <= 8 && numExponentBits < 5) {
        formatType = FormatType::MIN_NORM_ALIGN_GF8;
    } else if (packedFloatBits <= 8 && numExponentBits == 5) {
        formatType =
            enableInfsAndNans ? FormatType::ONE_FIVE_TWO_GF8 : FormatType::MAX_NORM_ALIGN_GF8;
    } else if (packedFloatBits <= 16 && nativeType != poplar::HALF) {
        if (numMantissaBits == 7 && numExponentBits == 8 && !enableDenorms) {
            formatType = FormatType::BFLOAT16;
        } else {
            formatType =
                enableDenorms ? FormatType::ENABLE_DENORM_GF16 : FormatType::NO_DENORM_GF16;
        }
    } else {
        formatType =
            nativeType == poplar::HALF ? FormatType::QUANTISED_FP16 : FormatType::QUANTISED_FP32;
    }
}

poplar::Type GfloatCast::FormatConfig::getStorageType() const {
    if (isPackedFloatFormat()) {
        fail("not supported by Tessera: packed gfloat storage (" + formatTypeToString(formatType) +
             " in poplar::CHAR / SHORT)");
    }
    return nativeType;
}

// ---- RoundConfig and CastConfig -------------------------------------------------------

GfloatCast::RoundConfig::RoundConfig(RoundType roundMode, unsigned numSRBits_,
                                     poplar::Type calcType, SRDensityType density, float offset,
                                     float scale, float max, float min, float bernoulli)
    : roundModeType(roundMode)
    , numSRBits(numSRBits_)
    , calculationType(calcType)
    , srNoiseDensity(density)
    , srNoiseOffset(offset)
    , srNoiseScale(scale)
    , srNoiseMax(max)
    , srNoiseMin(min)
    , bernoulliProb(bernoulli) {}

GfloatCast::RoundConfig::RoundConfig(GfloatCastOptions o, poplar::Type calcType)
    : RoundConfig(o.roundMode, o.numSRBits, calcType, o.srNoiseDensity, float(o.srNoiseOffset),
                  float(o.srNoiseScale), float(o.srNoiseMax), float(o.srNoiseMin),
                  float(o.bernoulliProb)) {}

GfloatCast::CastConfig::CastConfig(FormatType formatType, poplar::Type calcType,
                                   poplar::Type storage, RoundConfig roundCfg, bool nanoo)
    : calculationType(calcType)
    , storageType(storage)
    , roundConfig(roundCfg)
    , enableNanooMode(nanoo)
    , floatFormatType(formatType)
    , storeAsNative(storage == poplar::FLOAT || storage == poplar::HALF) {}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastNativeToGF(FormatType formatType,
                                                                    poplar::Type calcType,
                                                                    poplar::Type storage,
                                                                    RoundConfig roundCfg,
                                                                    bool nanoo) {
    return CastConfig(formatType, calcType, storage, roundCfg, nanoo);
}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastGFToNative(FormatType formatType,
                                                                    poplar::Type calcType,
                                                                    poplar::Type storage) {
    return CastConfig(formatType, calcType, storage, RoundConfig(RoundType::RZ, 0, calcType),
                      false);
}

poplar::Type GfloatCast::CastConfig::getStorageType() const {
    if (!storeAsNative) {
        fail("not supported by Tessera: packed gfloat storage (" +
             formatTypeToString(floatFormatType) + " in " + storageType.toString() + ")");
    }
    return storageType;
}

// ---- GfloatCast -------------------------------------------------------------------

GfloatCast::GfloatCast(const FormatConfig& format, const RoundConfig& roundCfg, bool nanoo,
                       const SpecType& GFType, const SpecType& NativeType)
    : formatCfg(format) {
    checkRounding(roundCfg.getRoundMode());
    if (GFType == SpecType::AUTO && format.isPackedFloatFormat()) {
        fail("not supported by Tessera: packed gfloat storage (" +
             formatTypeToString(format.getFormatType()) +
             " in poplar::CHAR / SHORT); construct the GfloatCast with GFType SpecType::FP32 or "
             "SpecType::FP16 to hold the values in a native type");
    }
    const poplar::Type gfType = typeFor(GFType, format.getNativeType());
    if (gfType != poplar::FLOAT && gfType != poplar::HALF) {
        fail("not supported by Tessera: gfloat storage in " + gfType.toString());
    }
    const poplar::Type nativeType = typeFor(NativeType, format.getNativeType());
    if (nativeType != poplar::FLOAT && nativeType != poplar::HALF) {
        fail("popfloat: castGfloatToNative produces FLOAT or HALF, not " + nativeType.toString());
    }
    nativeToGFCastCfg = CastConfig::createCastNativeToGF(
        format.getFormatType(), format.getCalculationType(), gfType, roundCfg, nanoo);
    gfToNativeCastCfg = CastConfig::createCastGFToNative(format.getFormatType(),
                                                         format.getCalculationType(), nativeType);
}

GfloatCast::GfloatCast(const GfloatFormatOptions& formatOptions,
                       const GfloatCastOptions& castOptions, poplar::Type calculationType,
                       const SpecType& GFType, const SpecType& NativeType)
    : GfloatCast(FormatConfig(formatOptions, calculationType),
                 RoundConfig(castOptions, calculationType), castOptions.enableNanooMode, GFType,
                 NativeType) {}

GfloatCast::GfloatCast(const GfloatCast& other)
    : nativeToGFCastCfg(other.nativeToGFCastCfg)
    , gfToNativeCastCfg(other.gfToNativeCastCfg)
    , formatCfg(other.formatCfg)
    , gfParams(other.gfParams ? std::make_unique<poplar::Tensor>(*other.gfParams) : nullptr)
    , castOpParamSet(other.castOpParamSet) {}

poplar::Tensor GfloatCast::getCastOpParams() const {
    if (!gfParams) {
        fail("popfloat: GfloatCast has no params tensor yet (call createCastOpParamsTensor)");
    }
    return *gfParams;
}

// ---- params tensors ------------------------------------------------------------------

poplar::Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph& graph, const poplar::ComputeSet&,
                                                    poplar::Type, const unsigned gfPacked) {
    poplar::Tensor t = graph.addConstant<int>(poplar::INT, {1}, static_cast<int>(gfPacked),
                                              poplar::DebugContext("gfloatParams"));
    graph.setTileMapping(t, 0);
    return t;
}

poplar::Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph&, const poplar::ComputeSet&,
                                                    poplar::Type, poplar::Tensor gfPacked) {
    checkParam(gfPacked);
    return gfPacked;
}

poplar::Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph& graph,
                                                    poplar::program::Sequence&,
                                                    poplar::Type calculationType,
                                                    const unsigned gfStruct,
                                                    const poplar::DebugContext&) {
    return createCastOpParamsTensor(graph, poplar::ComputeSet(), calculationType, gfStruct);
}

poplar::Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph&, poplar::program::Sequence&,
                                                    poplar::Type, poplar::Tensor gfStruct,
                                                    const poplar::DebugContext&) {
    checkParam(gfStruct);
    return gfStruct;
}

void GfloatCast::createCastOpParamsTensor(poplar::Graph& graph, poplar::program::Sequence& prog,
                                          const poplar::DebugContext& debugContext) {
    setGfloatCastParameters(new poplar::Tensor(
        createCastOpParamsTensor(graph, prog, formatCfg.getCalculationType(),
                                 formatCfg.getPackedFloatParameters(), debugContext)));
}

void GfloatCast::createCastOpParamsTensor(poplar::Graph& graph, const poplar::ComputeSet& cs) {
    setGfloatCastParameters(new poplar::Tensor(createCastOpParamsTensor(
        graph, cs, formatCfg.getCalculationType(), formatCfg.getPackedFloatParameters())));
}

// ---- casts --------------------------------------------------------------------------

poplar::Tensor GfloatCast::castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                              const poplar::Tensor& param,
                                              const poplar::ComputeSet& cs, const CastConfig& cfg) {
    checkNative(input, "castNativeToGfloat");
    checkParam(param);
    checkRounding(cfg.getRoundMode());
    poplar::Tensor out =
        graph.clone(cfg.getStorageType(), input, poplar::DebugContext("castNativeToGfloat"));
    return runCast(graph, input, &out, param, cs, "CastToGfloat", cfg.getRoundMode(),
                   cfg.isNanooModeEnabled());
}

poplar::Tensor GfloatCast::castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                              const poplar::Tensor& param,
                                              poplar::program::Sequence& prog,
                                              const CastConfig& cfg,
                                              const poplar::DebugContext& debugContext) {
    poplar::ComputeSet cs =
        graph.addComputeSet(poplar::DebugContext(debugContext, "castNativeToGfloat"));
    poplar::Tensor out = castNativeToGfloat(graph, input, param, cs, cfg);
    prog.add(poplar::program::Execute(cs));
    return out;
}

poplar::Tensor GfloatCast::castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                              poplar::program::Sequence& prog,
                                              const poplar::DebugContext& debugContext) {
    return castNativeToGfloat(graph, input, getCastOpParams(), prog, nativeToGFCastCfg,
                              debugContext);
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::Tensor& param,
                                           const poplar::ComputeSet& cs, const CastConfig& cfg) {
    checkNative(input, "castNativeToGfloatInPlace");
    checkParam(param);
    checkRounding(cfg.getRoundMode());
    if (input.elementType() != cfg.getStorageType()) {
        fail("castNativeToGfloatInPlace: the input is " + input.elementType().toString() +
             " but the gfloat is held in " + cfg.getStorageType().toString());
    }
    runCast(graph, input, nullptr, param, cs, "CastToGfloatInPlace", cfg.getRoundMode(),
            cfg.isNanooModeEnabled());
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::Tensor& param,
                                           poplar::program::Sequence& prog, const CastConfig& cfg,
                                           const poplar::DebugContext& debugContext) {
    poplar::ComputeSet cs =
        graph.addComputeSet(poplar::DebugContext(debugContext, "castNativeToGfloatInPlace"));
    castNativeToGfloatInPlace(graph, input, param, cs, cfg);
    prog.add(poplar::program::Execute(cs));
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                           poplar::program::Sequence& prog,
                                           const poplar::DebugContext& debugContext) {
    castNativeToGfloatInPlace(graph, input, getCastOpParams(), prog, nativeToGFCastCfg,
                              debugContext);
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::ComputeSet& cs) {
    castNativeToGfloatInPlace(graph, input, getCastOpParams(), cs, nativeToGFCastCfg);
}

poplar::Tensor GfloatCast::castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                              const poplar::Tensor& param,
                                              const poplar::ComputeSet& cs, const CastConfig& cfg) {
    checkNative(input, "castGfloatToNative");
    checkParam(param);
    poplar::Tensor out =
        graph.clone(cfg.getStorageType(), input, poplar::DebugContext("castGfloatToNative"));
    return runCast(graph, input, &out, param, cs, "CastGfloatToNative", RoundType::RZ, false);
}

poplar::Tensor GfloatCast::castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                              const poplar::Tensor& param,
                                              poplar::program::Sequence& prog,
                                              const CastConfig& cfg,
                                              const poplar::DebugContext& debugContext) {
    poplar::ComputeSet cs =
        graph.addComputeSet(poplar::DebugContext(debugContext, "castGfloatToNative"));
    poplar::Tensor out = castGfloatToNative(graph, input, param, cs, cfg);
    prog.add(poplar::program::Execute(cs));
    return out;
}

poplar::Tensor GfloatCast::castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                              poplar::program::Sequence& prog,
                                              const poplar::DebugContext& debugContext) {
    return castGfloatToNative(graph, input, getCastOpParams(), prog, gfToNativeCastCfg,
                              debugContext);
}

poplar::Tensor GfloatCast::castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                              const poplar::ComputeSet& cs) {
    return castGfloatToNative(graph, input, getCastOpParams(), cs, gfToNativeCastCfg);
}

} // namespace popfloat::experimental
