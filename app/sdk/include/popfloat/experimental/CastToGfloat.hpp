// popfloat::experimental::GfloatCast: casts float / half tensors to custom
// floating-point formats ("gfloat": a sign, numExponentBits exponent bits with
// a bias, numMantissaBits fraction bits, optional denormals, optional
// infinities and NaNs) and back, with deterministic rounding (RZ, RN, RA, RU,
// RD). Tessera holds gfloat values in a native type (FLOAT or HALF):
// formats that PopLibs packs into 8 or 16 bits (poplar::CHAR / SHORT) and
// stochastic rounding (SR, SX) throw poputil::poplibs_error "not supported by
// Tessera: ..." (docs/poplar-compat.md gives the semantics in full).
#ifndef TESSERA_POPFLOAT_CASTTOGFLOAT_HPP
#define TESSERA_POPFLOAT_CASTTOGFLOAT_HPP

#include <popfloat/experimental/GfloatExpr.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Type.hpp>
#include <poputil/exceptions.hpp>

#include <functional>
#include <memory>
#include <tuple>
#include <vector>

namespace popfloat {
namespace experimental {

class GfloatCast {
public:
    struct GfloatFormatOptions {
        unsigned numMantissaBits = 10;
        unsigned numExponentBits = 5;
        unsigned numExponentBias = 15;
        bool enableDenorms = true;
        bool enableInfsAndNans = true;

        GfloatFormatOptions() = default;
        // Not supported by Tessera (throws poplibs_error).
        explicit GfloatFormatOptions(const poplar::OptionFlags& options) {
            parseGfloatFormatOptions(options);
        }
        void parseGfloatFormatOptions(const poplar::OptionFlags& options);
    };

    struct FormatConfig {
        FormatConfig() = default;
        // Throws poplibs_error for a format no native type holds (more than 23
        // mantissa or 8 exponent bits), zero exponent bits, or a calculation
        // type that cannot hold the format.
        FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias,
                     bool enableDenorms, bool enableInfsAndNans,
                     SpecType specCalculationType = SpecType::AUTO);
        FormatConfig(GfloatFormatOptions formatOptions, poplar::Type calculationType);
        FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias,
                     bool enableDenorms, bool enableInfsAndNans, poplar::Type calculationType);
        FormatConfig(const FormatConfig& formatConfig) = default;
        FormatConfig& operator=(const FormatConfig& formatConfig) = default;

        poplar::Type getCalculationType() const { return calculationType; }
        poplar::Type getNativeType() const { return nativeType; }
        // FLOAT or HALF; a packed format (8 or 16 bits, not IEEE half) throws
        // poplibs_error: Tessera has no poplar::CHAR / SHORT.
        poplar::Type getStorageType() const;
        FormatType getFormatType() const { return formatType; }
        unsigned getNumMantissaBits() const { return numMantissaBits; }
        unsigned getNumExponentBits() const { return numExponentBits; }
        int getExponentBias() const { return exponentBias; }
        bool isDenormEnabled() const { return enableDenorms; }
        bool infAndNansEnabled() const { return enableInfsAndNans; }
        bool isPackedFloatFormat() const {
            return formatType != FormatType::QUANTISED_FP16 &&
                   formatType != FormatType::QUANTISED_FP32 && formatType != FormatType::IEEE_FP16;
        }
        unsigned getPackedFloatBits() const { return packedFloatBits; }
        bool isBlockFloat() const { return blockFloat; }
        // The format in one word: mantissa bits (bits 0-7), exponent bits
        // (8-15), bias as a signed byte (16-23), denormals (24), infinities
        // and NaNs (25). The cast vertices read it from the params tensor.
        unsigned getPackedFloatParameters() const { return packedFloatParameters; }

        bool operator==(const FormatConfig& other) const {
            return std::tie(numMantissaBits, numExponentBits, exponentBias, enableDenorms,
                            enableInfsAndNans, calculationType) ==
                   std::tie(other.numMantissaBits, other.numExponentBits, other.exponentBias,
                            other.enableDenorms, other.enableInfsAndNans, other.calculationType);
        }

    private:
        void derive(); // the types, format type and packed words from the fields
        poplar::Type calculationType = poplar::FLOAT;
        unsigned numMantissaBits = 10;
        unsigned numExponentBits = 5;
        int exponentBias = 15;
        bool enableDenorms = true;
        bool enableInfsAndNans = true;
        poplar::Type nativeType = poplar::HALF;
        FormatType formatType = FormatType::IEEE_FP16;
        unsigned packedFloatParameters = 0;
        bool blockFloat = false;
        unsigned packedFloatBits = 16;
    };

    struct GfloatCastOptions {
        RoundType roundMode = RoundType::INV;
        SRDensityType srNoiseDensity = SRDensityType::INVALID;
        unsigned numSRBits = 24;
        double srNoiseOffset = 0.0;
        double srNoiseScale = 0.0;
        double srNoiseMax = 0.0;
        double srNoiseMin = 0.0;
        double bernoulliProb = 0.0;
        bool enableNanooMode = true;

        GfloatCastOptions() = default;
        // Not supported by Tessera (throws poplibs_error).
        explicit GfloatCastOptions(const poplar::OptionFlags& options) {
            parseGfloatCastOptions(options);
        }
        void parseGfloatCastOptions(const poplar::OptionFlags& options);
    };

    struct RoundConfig {
        RoundConfig() = default;
        // SR and SX are accepted here and refused by the casts.
        RoundConfig(RoundType roundMode, unsigned numSRBits, poplar::Type calculationType,
                    SRDensityType srNoiseDensity = SRDensityType::INVALID,
                    float srNoiseOffset = 0.0, float srNoiseScale = 0.0, float srNoiseMax = 0.0,
                    float srNoiseMin = 0.0, float bernoulliProb = 0.0);
        RoundConfig(GfloatCastOptions castOptions, poplar::Type calculationType);

        RoundType getRoundMode() const { return roundModeType; }
        unsigned getNumSRBits() const { return numSRBits; }
        SRDensityType getSRNoiseDensity() const { return srNoiseDensity; }
        float getBernoulliProbability() const { return bernoulliProb; }
        float getSRNoiseOffset() const { return srNoiseOffset; }
        float getSRNoiseScale() const { return srNoiseScale; }
        float getSRNoiseMax() const { return srNoiseMax; }
        float getSRNoiseMin() const { return srNoiseMin; }

    private:
        RoundType roundModeType = RoundType::INV;
        unsigned numSRBits = 24;
        poplar::Type calculationType = poplar::FLOAT;
        SRDensityType srNoiseDensity = SRDensityType::INVALID;
        float srNoiseOffset = 0, srNoiseScale = 0, srNoiseMax = 0, srNoiseMin = 0;
        float bernoulliProb = 0;
    };

    // What one cast does: to a gfloat (rounding as roundCfg says) or back
    // to a native type.
    struct CastConfig {
        CastConfig() = default;
        static CastConfig createCastNativeToGF(FormatType formatType, poplar::Type calculationType,
                                               poplar::Type storageType, RoundConfig roundCfg,
                                               bool enableNanooMode);
        static CastConfig createCastGFToNative(FormatType formatType, poplar::Type calculationType,
                                               poplar::Type storageType);

        RoundType getRoundMode() const { return roundConfig.getRoundMode(); }
        unsigned getNumSRBits() const { return roundConfig.getNumSRBits(); }
        SRDensityType getSRNoiseDensity() const { return roundConfig.getSRNoiseDensity(); }
        float getBernoulliProbability() const { return roundConfig.getBernoulliProbability(); }
        float getSRNoiseOffset() const { return roundConfig.getSRNoiseOffset(); }
        float getSRNoiseScale() const { return roundConfig.getSRNoiseScale(); }
        float getSRNoiseMax() const { return roundConfig.getSRNoiseMax(); }
        float getSRNoiseMin() const { return roundConfig.getSRNoiseMin(); }
        bool isNanooModeEnabled() const { return enableNanooMode; }
        poplar::Type getCalculationType() const { return calculationType; }
        // FLOAT or HALF; for a packed format (getStoreAsNative() false) it
        // throws poplibs_error: Tessera has no poplar::CHAR / SHORT.
        poplar::Type getStorageType() const;
        bool inPlaceOp(poplar::Type inType) const { return storeAsNative && inType == storageType; }
        FormatType getFormatType() const { return floatFormatType; }
        bool getStoreAsNative() const { return storeAsNative; }

    private:
        CastConfig(FormatType floatFormatType, poplar::Type calculationType,
                   poplar::Type storageType, RoundConfig roundCfg, bool enableNanooMode);
        poplar::Type calculationType = poplar::FLOAT;
        poplar::Type storageType = poplar::FLOAT;
        RoundConfig roundConfig;
        bool enableNanooMode = false;
        FormatType floatFormatType = FormatType::INVALID_FORMAT;
        bool storeAsNative = true;
    };

    // GFType: what castNativeToGfloat produces (AUTO: the format's native
    // type); NativeType: what castGfloatToNative produces (AUTO: FLOAT).
    GfloatCast(const FormatConfig& formatCfg, const RoundConfig& roundCfg, bool enableNanooMode,
               const SpecType& GFType = SpecType::AUTO,
               const SpecType& NativeType = SpecType::AUTO);
    GfloatCast(const GfloatFormatOptions& formatOptions, const GfloatCastOptions& castOptions,
               poplar::Type calculationType, const SpecType& GFType = SpecType::AUTO,
               const SpecType& NativeType = SpecType::AUTO);
    GfloatCast(const GfloatCast& gfloatCast);

    // The params tensor of a cast: one INT holding the packed format
    // (FormatConfig::getPackedFloatParameters), on tile 0.
    static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph,
                                                   const poplar::ComputeSet& cs,
                                                   poplar::Type calculationType,
                                                   const unsigned gfPacked);
    static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph,
                                                   const poplar::ComputeSet& cs,
                                                   poplar::Type calculationType,
                                                   poplar::Tensor gfPacked);
    static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph,
                                                   poplar::program::Sequence& prog,
                                                   poplar::Type calculationType,
                                                   const unsigned gfStruct,
                                                   const poplar::DebugContext& debugContext = {});
    static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph,
                                                   poplar::program::Sequence& prog,
                                                   poplar::Type calculationType,
                                                   poplar::Tensor gfStruct,
                                                   const poplar::DebugContext& debugContext = {});
    void createCastOpParamsTensor(poplar::Graph& graph, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {});
    void createCastOpParamsTensor(poplar::Graph& graph, const poplar::ComputeSet& cs);

    static poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                             const poplar::Tensor& param,
                                             poplar::program::Sequence& prog,
                                             const CastConfig& gfCastCfg,
                                             const poplar::DebugContext& debugContext = {});
    static poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                             const poplar::Tensor& param,
                                             const poplar::ComputeSet& cs,
                                             const CastConfig& gfCastCfg);
    poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {});

    static void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                          const poplar::Tensor& param,
                                          poplar::program::Sequence& prog,
                                          const CastConfig& gfCastCfg,
                                          const poplar::DebugContext& debugContext = {});
    void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                   poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {});
    static void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                          const poplar::Tensor& param, const poplar::ComputeSet& cs,
                                          const CastConfig& gfCastCfg);
    void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                   const poplar::ComputeSet& cs);

    static poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                             const poplar::Tensor& param,
                                             poplar::program::Sequence& prog,
                                             const CastConfig& gfCastCfg,
                                             const poplar::DebugContext& debugContext = {});
    poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {});
    static poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                             const poplar::Tensor& param,
                                             const poplar::ComputeSet& cs,
                                             const CastConfig& gfCastCfg);
    poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                      const poplar::ComputeSet& cs);

    poplar::Type getGFStorageType() const { return nativeToGFCastCfg.getStorageType(); }
    poplar::Type getCalculationType() const { return nativeToGFCastCfg.getCalculationType(); }
    poplar::Type getNativeStorageType() const { return gfToNativeCastCfg.getStorageType(); }
    const FormatConfig getFormatConfig() const { return formatCfg; }
    const CastConfig getNativeToGFConfig() const { return nativeToGFCastCfg; }
    const CastConfig getGFToNativeConfig() const { return gfToNativeCastCfg; }
    bool getStoreAsNative() const { return nativeToGFCastCfg.getStoreAsNative(); }
    // Throws poplibs_error before createCastOpParamsTensor.
    poplar::Tensor getCastOpParams() const;
    bool isCastOpParamSet() const { return castOpParamSet; }
    void setGfloatCastParameters(poplar::Tensor* gfParams_) {
        gfParams.reset(gfParams_);
        castOpParamSet = gfParams_ != nullptr;
    }
    bool isNanooModeEnabled() const { return nativeToGFCastCfg.isNanooModeEnabled(); }
    RoundType getRoundMode() const { return nativeToGFCastCfg.getRoundMode(); }
    bool inPlaceOp(poplar::Type outType) const { return nativeToGFCastCfg.inPlaceOp(outType); }

protected:
    CastConfig nativeToGFCastCfg;
    CastConfig gfToNativeCastCfg;
    FormatConfig formatCfg;
    std::unique_ptr<poplar::Tensor> gfParams;
    bool castOpParamSet = false;
};

} // namespace experimental
} // namespace popfloat

#endif
