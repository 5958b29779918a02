// libpopfloat's GfloatCast against a host reference written independently of
// it: every value of a format is enumerated from its fields (sign, exponent,
// mantissa), and an input's result is picked from its two neighbours in that
// list by the rounding mode's definition. Bit-for-bit comparison of the
// device's results for seven formats x five deterministic modes x NaN on
// overflow on/off, over inputs that include exact ties, the denormal range,
// out-of-range values, zeros, infinities and NaN. Then hand-worked values,
// castGfloatToNative / in place, and the errors (stochastic rounding, packed
// storage, zero exponent bits).
#include <popfloat/experimental/CastToGfloat.hpp>
#include <popfloat/experimental/CastToHalf.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using namespace popfloat::experimental;

namespace {

struct Format {
    const char* label;
    unsigned man, exp;
    int bias;
    bool denorm, infNan;
    SpecType gfType; // what castNativeToGfloat produces
};

struct Representable {
    double value;
    bool even; // its mantissa field's lowest bit is 0
};

// Every non-negative value of the format, ascending, from its fields.
std::vector<Representable> enumerate(const Format& f) {
    std::vector<Representable> out;
    const int fields = 1 << f.exp;
    const int maxField = f.infNan ? fields - 2 : fields - 1;
    for (int e = 0; e <= maxField; ++e) {
        for (unsigned m = 0; m < (1u << f.man); ++m) {
            double v;
            if (e == 0) {
                if (!f.denorm && m != 0) {
                    continue;
                }
                v = std::ldexp(double(m), 1 - f.bias - int(f.man));
            } else {
                v = std::ldexp(1.0 + std::ldexp(double(m), -int(f.man)), e - f.bias);
            }
            out.push_back({v, m % 2 == 0});
        }
    }
    std::sort(out.begin(), out.end(),
              [](const Representable& a, const Representable& b) { return a.value < b.value; });
    return out;
}

float reference(float x, const std::vector<Representable>& values, RoundType mode, bool nanoo,
                bool infNan) {
    if (std::isnan(x) || std::isinf(x) || x == 0.0f) {
        return x;
    }
    const bool negative = std::signbit(x);
    const double mag = std::fabs(double(x));
    const double max = values.back().value;
    double r;
    if (mag > max) {
        r = nanoo && infNan ? std::numeric_limits<double>::quiet_NaN() : max;
    } else {
        // lo <= mag <= hi, neighbours in the list.
        auto hiIt = std::lower_bound(values.begin(), values.end(), mag,
                                     [](const Representable& a, double v) { return a.value < v; });
        const Representable hi = *hiIt;
        const Representable lo = hi.value == mag ? hi : *(hiIt - 1);
        const bool exact = lo.value == mag;
        const double dLo = mag - lo.value, dHi = hi.value - mag;
        switch (mode) {
        case RoundType::RZ:
            r = lo.value;
            break;
        case RoundType::RN:
            r = exact || dLo < dHi    ? lo.value
                : dHi < dLo           ? hi.value
                : hi.even && !lo.even ? hi.value
                                      : lo.value;
            break;
        case RoundType::RA:
            r = exact || dLo < dHi ? lo.value : hi.value;
            break;
        case RoundType::RU:
            r = exact ? lo.value : negative ? lo.value : hi.value;
            break;
        default: // RD
            r = exact ? lo.value : negative ? hi.value : lo.value;
            break;
        }
    }
    return float(negative ? -r : r);
}

bool sameBits(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) {
        return std::isnan(a) && std::isnan(b);
    }
    std::uint32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
}

// Inputs for a format: a spread of magnitudes, every tie and neighbour of
// a stretch of its values, the range's edges, specials.
std::vector<float> inputsFor(const std::vector<Representable>& values) {
    std::vector<float> in;
    std::uint32_t state = 12345;
    auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return state;
    };
    const double max = values.back().value;
    for (int i = 0; i < 160; ++i) {
        const double unit = double(next() % 1000000) / 1000000.0;
        const int exponent = int(next() % 40) - 30 + std::ilogb(max) / 2;
        const double v = std::ldexp(1.0 + unit, exponent);
        in.push_back(float(i % 2 ? -v : v));
    }
    const std::size_t stride = std::max<std::size_t>(1, values.size() / 40);
    for (std::size_t i = 0; i + 1 < values.size(); i += stride) {
        const double a = values[i].value, b = values[i + 1].value;
        for (double v : {a, (a + b) / 2, a + (b - a) / 4, b - (b - a) / 4}) {
            in.push_back(float(v));
            in.push_back(float(-v));
        }
    }
    for (double v : {max, max * 1.0001, max * 4, values[1].value / 2, values[1].value * 0.75}) {
        in.push_back(float(v));
        in.push_back(float(-v));
    }
    for (float v :
         {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
          -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
        in.push_back(v);
    }
    return in;
}

const char* modeName(RoundType m) {
    return m == RoundType::RZ   ? "RZ"
           : m == RoundType::RN ? "RN"
           : m == RoundType::RA ? "RA"
           : m == RoundType::RU ? "RU"
                                : "RD";
}

template <typename F>
void expectError(const std::string& what, F&& f) {
    try {
        f();
        std::cout << what << ": no error\n";
    } catch (const poputil::poplibs_error& e) {
        std::cout << what << ": " << e.what() << "\n";
    }
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popfloat::experimental::addCodelets(graph);

    const Format formats[] = {
        {"1/5/2 infs+NaNs", 2, 5, 15, true, true, SpecType::FP16},
        {"1/4/3 no infs", 3, 4, 7, true, false, SpecType::FP32},
        {"bfloat16", 7, 8, 127, false, true, SpecType::FP32},
        {"1/6/9", 9, 6, 31, true, true, SpecType::FP32},
        {"IEEE half", 10, 5, 15, true, true, SpecType::AUTO},
        {"1/4/6 no denormals", 6, 4, 7, false, true, SpecType::AUTO},
        {"1/8/15", 15, 8, 127, true, true, SpecType::AUTO},
    };
    const RoundType modes[] = {RoundType::RZ, RoundType::RN, RoundType::RA, RoundType::RU,
                               RoundType::RD};
    struct Case {
        std::size_t format;
        RoundType mode;
        bool nanoo;
        std::string handle;
    };
    std::vector<Case> cases;
    std::vector<std::vector<float>> inputs;
    Sequence prog;
    for (std::size_t fi = 0; fi < std::size(formats); ++fi) {
        const Format& f = formats[fi];
        inputs.push_back(inputsFor(enumerate(f)));
        Tensor in = graph.addVariable(FLOAT, {inputs.back().size()}, "in");
        poputil::mapTensorLinearly(graph, in);
        graph.createHostWrite("in" + std::to_string(fi), in);
        GfloatCast::FormatConfig fc(f.man, f.exp, f.bias, f.denorm, f.infNan);
        std::cout << f.label << ": " << formatTypeToString(fc.getFormatType()) << ", native "
                  << fc.getNativeType() << ", calculated in " << fc.getCalculationType() << ", "
                  << fc.getPackedFloatBits() << " bits\n";
        for (RoundType mode : modes) {
            for (bool nanoo : {false, true}) {
                GfloatCast cast(fc, GfloatCast::RoundConfig(mode, 0, fc.getCalculationType()),
                                nanoo, f.gfType, SpecType::FP32);
                cast.createCastOpParamsTensor(graph, prog);
                Tensor gf = cast.castNativeToGfloat(graph, in, prog);
                Tensor back = cast.castGfloatToNative(graph, gf, prog);
                const std::string h = "out" + std::to_string(cases.size());
                graph.createHostRead(h, back);
                cases.push_back({fi, mode, nanoo, h});
            }
        }
    }

    // In place on a float tensor: 1/4/3 RN of 1.0625 (a tie: 1 is even) and
    // 1.1875 (a tie: 1.25 is even), 500 (clipped to the largest, 1.875 * 2^8 = 480).
    Tensor inPlace = graph.addConstant<float>(FLOAT, {3}, {1.0625f, 1.1875f, 500.0f});
    Tensor inPlaceVar = graph.addVariable(FLOAT, {3}, "inPlace");
    graph.setTileMapping(inPlace, 1);
    graph.setTileMapping(inPlaceVar, 2);
    prog.add(Copy(inPlace, inPlaceVar));
    GfloatCast e4m3(GfloatCast::FormatConfig(3, 4, 7, true, false),
                    GfloatCast::RoundConfig(RoundType::RN, 0, FLOAT), false, SpecType::FP32);
    e4m3.createCastOpParamsTensor(graph, prog);
    e4m3.castNativeToGfloatInPlace(graph, inPlaceVar, prog);
    graph.createHostRead("inPlace", inPlaceVar);

    Engine engine(graph, prog);
    engine.load(device);
    for (std::size_t fi = 0; fi < inputs.size(); ++fi) {
        engine.writeTensor("in" + std::to_string(fi), inputs[fi].data(),
                           inputs[fi].data() + inputs[fi].size());
    }
    engine.run(0);

    for (std::size_t fi = 0; fi < std::size(formats); ++fi) {
        const std::vector<Representable> values = enumerate(formats[fi]);
        unsigned checked = 0;
        std::string mismatches;
        for (const Case& c : cases) {
            if (c.format != fi) {
                continue;
            }
            std::vector<float> got(inputs[fi].size());
            engine.readTensor(c.handle, got.data(), got.data() + got.size());
            for (std::size_t i = 0; i < got.size(); ++i) {
                const float want =
                    reference(inputs[fi][i], values, c.mode, c.nanoo, formats[fi].infNan);
                ++checked;
                if (!sameBits(got[i], want) && mismatches.size() < 400) {
                    mismatches += std::string(" [") + modeName(c.mode) + (c.nanoo ? " nanoo" : "") +
                                  " " + std::to_string(inputs[fi][i]) + ": " +
                                  std::to_string(got[i]) + " want " + std::to_string(want) + "]";
                }
            }
        }
        std::cout << formats[fi].label << ": " << (checked > 2000 ? "over 2000" : "too few")
                  << " results, " << (mismatches.empty() ? "all equal the reference" : "WRONG:")
                  << mismatches << "\n";
    }
    float ip[3];
    engine.readTensor("inPlace", ip, ip + 3);
    std::cout << "1/4/3 RN in place: " << ip[0] << " " << ip[1] << " " << ip[2] << "\n";

    std::cout << std::hex << "singleToHalf: 1 -> 0x" << singleToHalf(1.0f) << ", 65520 -> 0x"
              << singleToHalf(65520.0f) << ", with NaN on overflow 0x"
              << singleToHalf(65520.0f, true) << ", -2^-24 -> 0x" << singleToHalf(-0x1p-24f)
              << std::dec << "; halfToSingle(0x3555) = " << halfToSingle(0x3555) << "\n";

    GfloatCast::FormatConfig e5m2(2, 5, 15, true, true);
    expectError("SR", [&] {
        GfloatCast c(e5m2, GfloatCast::RoundConfig(RoundType::SR, 23, FLOAT), false,
                     SpecType::FP32);
    });
    expectError("SX", [&] {
        GfloatCast c(e5m2, GfloatCast::RoundConfig(RoundType::SX, 4, FLOAT), false, SpecType::FP32);
    });
    expectError("packed storage", [&] {
        GfloatCast c(e5m2, GfloatCast::RoundConfig(RoundType::RN, 0, FLOAT), false);
    });
    expectError("storage type", [&] { e5m2.getStorageType(); });
    expectError("zero exponent bits", [&] { GfloatCast::FormatConfig(7, 0, 0, false, false); });
    expectError("half calculation",
                [&] { GfloatCast::FormatConfig(7, 8, 127, false, true, SpecType::FP16); });
    expectError("INT8", [&] { specTypeToPoplarType(SpecType::INT8); });
    return 0;
}
