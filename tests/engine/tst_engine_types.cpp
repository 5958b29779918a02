// Element types (names, sizes, loads and stores) and IEEE half conversions
// checked against exact values and an independent nearest-even search.
#include "engine/core/Half.h"
#include "engine/core/HalfBlocks.h"
#include "engine/core/Type.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace tessera;

namespace {

// All finite non-negative half values in increasing order (bits 0..0x7bff).
const std::vector<double>& positiveHalves() {
    static const std::vector<double> values = [] {
        std::vector<double> v;
        for (std::uint32_t bits = 0; bits <= 0x7bffu; ++bits) {
            // value = mantissa * 2^(exponent - 25) for normals, mantissa * 2^-24 for subnormals.
            const std::uint32_t e = bits >> 10;
            const std::uint32_t m = bits & 0x3ffu;
            v.push_back(e == 0 ? std::ldexp(double(m), -24)
                               : std::ldexp(double(m | 0x400u), int(e) - 25));
        }
        return v;
    }();
    return values;
}

// Reference float -> half: the nearest representable value, ties to the even
// bit pattern, overflow to infinity at 65520 and beyond. Independent of the
// engine's bit manipulation.
std::uint16_t referenceHalf(float x) {
    if (std::isnan(x)) {
        return 0x7e00;
    }
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double a = std::fabs(double(x));
    if (a >= 65520.0) {
        return static_cast<std::uint16_t>(sign | 0x7c00);
    }
    const auto& v = positiveHalves();
    const auto hi = static_cast<std::uint32_t>(std::lower_bound(v.begin(), v.end(), a) - v.begin());
    if (hi == 0) {
        return sign;
    }
    if (hi == v.size()) { // between 65504 and 65520: nearer to 65504
        return static_cast<std::uint16_t>(sign | 0x7bff);
    }
    const std::uint32_t lo = hi - 1;
    const double dlo = a - v[lo];
    const double dhi = v[hi] - a;
    std::uint32_t pick = dlo < dhi ? lo : dhi < dlo ? hi : ((lo & 1u) ? hi : lo);
    return static_cast<std::uint16_t>(sign | pick);
}

} // namespace

class TestEngineTypes : public QObject {
    Q_OBJECT

private slots:
    void types();
    void halfExactValues_data();
    void halfExactValues();
    void halfToFloatExact_data();
    void halfToFloatExact();
    void halfSpecials();
    void halfRoundTripAllPatterns();
    void halfMatchesNearestEvenReference();
    void halfArithmetic();
    void halvesInBulkAsOneByOne();
    void floatsInBulkToNearestEven();
};

void TestEngineTypes::types() {
    QCOMPARE(sizeOf(Type::Float), std::size_t{4});
    QCOMPARE(sizeOf(Type::Half), std::size_t{2});
    QCOMPARE(sizeOf(Type::Int), std::size_t{4});
    QCOMPARE(sizeOf(Type::UnsignedInt), std::size_t{4});
    QCOMPARE(sizeOf(Type::Bool), std::size_t{1});
    for (Type t : {Type::Float, Type::Half, Type::Int, Type::UnsignedInt, Type::Bool}) {
        QCOMPARE(typeFromName(typeName(t)), t);
    }
    QCOMPARE(typeFromName("unsigned"), Type::UnsignedInt);
    QCOMPARE(typeName(Type::UnsignedInt), std::string_view("unsigned int"));
    std::byte buf[4];
    storeFromDouble(Type::Int, buf, -7);
    QCOMPARE(loadAsDouble(Type::Int, buf), -7.0);
    storeFromDouble(Type::UnsignedInt, buf, 4000000000.0);
    QCOMPARE(loadAsDouble(Type::UnsignedInt, buf), 4000000000.0);
    storeFromDouble(Type::Bool, buf, 0.25);
    QCOMPARE(loadAsDouble(Type::Bool, buf), 1.0);
    QCOMPARE(std::to_integer<int>(buf[0]), 1);
    storeFromDouble(Type::Half, buf, 0.1);
    QCOMPARE(loadAsDouble(Type::Half, buf), 0.0999755859375);
    storeFromDouble(Type::Float, buf, 0.1);
    QCOMPARE(loadAsDouble(Type::Float, buf), double(0.1f));
}

void TestEngineTypes::halfExactValues_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<uint>("bits");
    const float p24 = std::ldexp(1.0f, -24);
    const float p25 = std::ldexp(1.0f, -25);
    QTest::newRow("one") << 1.0f << 0x3c00u;
    QTest::newRow("minus two") << -2.0f << 0xc000u;
    QTest::newRow("half") << 0.5f << 0x3800u;
    QTest::newRow("zero") << 0.0f << 0x0000u;
    QTest::newRow("minus zero") << -0.0f << 0x8000u;
    QTest::newRow("0.1 rounds down") << 0.1f << 0x2e66u;
    QTest::newRow("1/3 rounds down") << 1.0f / 3.0f << 0x3555u;
    QTest::newRow("max") << 65504.0f << 0x7bffu;
    QTest::newRow("below overflow midpoint") << 65519.0f << 0x7bffu;
    QTest::newRow("overflow midpoint to inf") << 65520.0f << 0x7c00u;
    QTest::newRow("huge to inf") << 1e10f << 0x7c00u;
    QTest::newRow("huge negative to -inf") << -1e10f << 0xfc00u;
    QTest::newRow("tie to even down (1 + 2^-11)") << 1.0f + std::ldexp(1.0f, -11) << 0x3c00u;
    QTest::newRow("tie to even up (1 + 3*2^-11)") << 1.0f + 3 * std::ldexp(1.0f, -11) << 0x3c02u;
    QTest::newRow("just above tie")
        << 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20) << 0x3c01u;
    QTest::newRow("2049 tie to 2048") << 2049.0f << 0x6800u;
    QTest::newRow("2051 tie to 2052") << 2051.0f << 0x6802u;
    QTest::newRow("2050 exact") << 2050.0f << 0x6801u;
    QTest::newRow("smallest normal") << std::ldexp(1.0f, -14) << 0x0400u;
    QTest::newRow("smallest subnormal") << p24 << 0x0001u;
    QTest::newRow("largest subnormal") << 1023 * p24 << 0x03ffu;
    QTest::newRow("subnormal tie to normal") << 1023.5f * p24 << 0x0400u;
    QTest::newRow("half of smallest subnormal ties to zero") << p25 << 0x0000u;
    QTest::newRow("above half of smallest subnormal") << 1.5f * p25 << 0x0001u;
    QTest::newRow("subnormal tie 1.5 to 2") << 3 * p25 << 0x0002u;
    QTest::newRow("subnormal tie 2.5 to 2") << 5 * p25 << 0x0002u;
    QTest::newRow("negative subnormal") << -7 * p24 << 0x8007u;
    QTest::newRow("underflow to zero") << 1e-30f << 0x0000u;
    QTest::newRow("underflow to minus zero") << -1e-30f << 0x8000u;
    QTest::newRow("float subnormal") << std::numeric_limits<float>::denorm_min() << 0x0000u;
    QTest::newRow("inf") << std::numeric_limits<float>::infinity() << 0x7c00u;
    QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << 0xfc00u;
}

void TestEngineTypes::halfExactValues() {
    QFETCH(float, value);
    QFETCH(uint, bits);
    QCOMPARE(uint(floatToHalfBits(value)), bits);
    QCOMPARE(uint(referenceHalf(value)), bits); // the reference agrees with the hand values
    QCOMPARE(uint(half(value).bits), bits);
}

void TestEngineTypes::halfToFloatExact_data() {
    QTest::addColumn<uint>("bits");
    QTest::addColumn<double>("value");
    QTest::newRow("one") << 0x3c00u << 1.0;
    QTest::newRow("smallest subnormal") << 0x0001u << std::ldexp(1.0, -24);
    QTest::newRow("subnormal 0x0200") << 0x0200u << std::ldexp(1.0, -15);
    QTest::newRow("largest subnormal") << 0x03ffu << 1023 * std::ldexp(1.0, -24);
    QTest::newRow("smallest normal") << 0x0400u << std::ldexp(1.0, -14);
    QTest::newRow("third") << 0x3555u << 0.333251953125;
    QTest::newRow("max") << 0x7bffu << 65504.0;
    QTest::newRow("-max") << 0xfbffu << -65504.0;
    QTest::newRow("1 + ulp") << 0x3c01u << 1.0009765625;
    QTest::newRow("-subnormal") << 0x8003u << -3 * std::ldexp(1.0, -24);
}

void TestEngineTypes::halfToFloatExact() {
    QFETCH(uint, bits);
    QFETCH(double, value);
    QCOMPARE(double(halfBitsToFloat(static_cast<std::uint16_t>(bits))), value);
}

void TestEngineTypes::halfSpecials() {
    QCOMPARE(halfBitsToFloat(0x7c00), std::numeric_limits<float>::infinity());
    QCOMPARE(halfBitsToFloat(0xfc00), -std::numeric_limits<float>::infinity());
    QVERIFY(std::isnan(halfBitsToFloat(0x7e00)));
    QVERIFY(std::isnan(halfBitsToFloat(0xfc01)));
    const float negZero = halfBitsToFloat(0x8000);
    QCOMPARE(negZero, 0.0f);
    QVERIFY(std::signbit(negZero));
    for (float nan :
         {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
          std::bit_cast<float>(0x7f800001u) /* signalling, lowest payload bit */}) {
        const std::uint16_t b = floatToHalfBits(nan);
        QCOMPARE(b & 0x7c00u, 0x7c00u);
        QVERIFY2((b & 0x3ffu) != 0, "a NaN must not become infinity");
    }
}

void TestEngineTypes::halfRoundTripAllPatterns() {
    int nans = 0;
    for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
        const auto b = static_cast<std::uint16_t>(bits);
        const float f = halfBitsToFloat(b);
        if (std::isnan(f)) {
            ++nans;
            QVERIFY(std::isnan(halfBitsToFloat(floatToHalfBits(f))));
            continue;
        }
        if (floatToHalfBits(f) != b) {
            QFAIL(qPrintable(QStringLiteral("0x%1 -> %2 -> 0x%3")
                                 .arg(bits, 4, 16, QLatin1Char('0'))
                                 .arg(double(f))
                                 .arg(floatToHalfBits(f), 4, 16, QLatin1Char('0'))));
        }
    }
    QCOMPARE(nans, 2 * 1023);
}

void TestEngineTypes::halfMatchesNearestEvenReference() {
    std::mt19937 rng(20240601);
    std::uniform_int_distribution<std::uint32_t> anyBits;
    std::uniform_real_distribution<float> exponent(-27.0f, 17.0f);
    for (int i = 0; i < 200000; ++i) {
        float f = 0;
        if (i % 2 == 0) { // magnitudes around the half range, every mantissa
            f = std::ldexp(1.0f + float(anyBits(rng) & 0x7fffffu) / 8388608.0f,
                           int(std::floor(exponent(rng))));
            if (anyBits(rng) & 1u) {
                f = -f;
            }
        } else { // midpoints between neighbouring halves, where ties matter
            const std::uint32_t b = anyBits(rng) % 0x7bffu;
            const double mid = (double(halfBitsToFloat(static_cast<std::uint16_t>(b))) +
                                double(halfBitsToFloat(static_cast<std::uint16_t>(b + 1)))) /
                               2;
            f = static_cast<float>(mid);
        }
        const std::uint16_t expected = referenceHalf(f);
        const std::uint16_t got = floatToHalfBits(f);
        if (got != expected) {
            QFAIL(qPrintable(QStringLiteral("%1 (0x%2): got 0x%3, expected 0x%4")
                                 .arg(double(f), 0, 'g', 12)
                                 .arg(std::bit_cast<std::uint32_t>(f), 8, 16, QLatin1Char('0'))
                                 .arg(got, 4, 16, QLatin1Char('0'))
                                 .arg(expected, 4, 16, QLatin1Char('0'))));
        }
    }
}

void TestEngineTypes::halfArithmetic() {
    half h = 1.0f;
    h += std::ldexp(1.0f, -11); // a tie: stays at 1
    QCOMPARE(h.bits, std::uint16_t{0x3c00});
    h += 0.0009765625f; // one ulp
    QCOMPARE(h.bits, std::uint16_t{0x3c01});
    h *= 2.0f;
    QCOMPARE(float(h), 2.001953125f);
    h -= 2.0f;
    QCOMPARE(float(h), 0.001953125f);
    h /= 0.0f;
    QCOMPARE(h.bits, std::uint16_t{0x7c00});
    QCOMPARE(uint(TypeOf<half>::value), uint(Type::Half));
}

// Every half, in order (NaNs filling whole blocks of eight) and shuffled
// (NaNs among other values), converted in bulk: each float's bits are the
// one-by-one conversion's (checked against exact values above).
void TestEngineTypes::halvesInBulkAsOneByOne() {
    std::vector<half> in(0x10000);
    for (std::uint32_t b = 0; b <= 0xffffu; ++b) {
        in[b].bits = static_cast<std::uint16_t>(b);
    }
    std::vector<half> shuffled = in;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
    for (const std::vector<half>* halves : {&in, &shuffled}) {
        for (const std::size_t n : {halves->size(), halves->size() - 3, std::size_t{5}}) {
            std::vector<float> out(n, -1.0f);
            halvesToFloats(halves->data(), out.data(), n);
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint16_t b = (*halves)[i].bits;
                if (std::bit_cast<std::uint32_t>(out[i]) !=
                    std::bit_cast<std::uint32_t>(halfBitsToFloat(b))) {
                    QFAIL(qPrintable(
                        QStringLiteral("0x%1 at %2 of %3: 0x%4")
                            .arg(b, 4, 16, QLatin1Char('0'))
                            .arg(i)
                            .arg(n)
                            .arg(std::bit_cast<std::uint32_t>(out[i]), 8, 16, QLatin1Char('0'))));
                }
            }
        }
    }
}

// Floats around the half range, midpoints between halves, subnormals,
// overflow, infinities and NaNs with payloads, converted in bulk: every
// number to its nearest half (ties to even, by the search above), every
// NaN to the canonical quiet NaN of its sign, as one by one.
void TestEngineTypes::floatsInBulkToNearestEven() {
    std::mt19937 rng(20261201);
    std::uniform_int_distribution<std::uint32_t> anyBits;
    std::vector<float> in;
    for (int i = 0; i < 100000; ++i) {
        if (i % 2 == 0) {
            in.push_back(std::ldexp(1.0f + float(anyBits(rng) & 0x7fffffu) / 8388608.0f,
                                    int(anyBits(rng) % 46) - 28) *
                         ((anyBits(rng) & 1u) ? -1.0f : 1.0f));
        } else {
            const std::uint32_t b = anyBits(rng) % 0x7bffu;
            in.push_back(
                static_cast<float>((double(halfBitsToFloat(static_cast<std::uint16_t>(b))) +
                                    double(halfBitsToFloat(static_cast<std::uint16_t>(b + 1)))) /
                                   2));
        }
    }
    for (const std::uint32_t bits : {0x00000001u, 0x80400000u, 0x477fe000u, 0x477ff000u,
                                     0xc77ff000u, 0x7f800000u, 0xff800000u, 0x00000000u}) {
        in.push_back(std::bit_cast<float>(bits));
    }
    const std::uint32_t nans[] = {0x7fc00001u, 0x7f800001u, 0xffc12345u, 0x7fffffffu};
    for (std::size_t i = 0; i < 4000; ++i) { // one in about 25, anywhere
        in[anyBits(rng) % in.size()] = std::bit_cast<float>(nans[i % 4]);
    }
    const std::size_t n = in.size() - 1; // and a tail shorter than a block
    std::vector<half> out(n);
    floatsToHalves(in.data(), out.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t f = std::bit_cast<std::uint32_t>(in[i]);
        const std::uint16_t expected =
            std::isnan(in[i]) ? static_cast<std::uint16_t>(((f >> 16) & 0x8000u) | 0x7e00u)
                              : referenceHalf(in[i]);
        if (out[i].bits != expected) {
            QFAIL(qPrintable(QStringLiteral("0x%1 at %2: got 0x%3, expected 0x%4")
                                 .arg(f, 8, 16, QLatin1Char('0'))
                                 .arg(i)
                                 .arg(out[i].bits, 4, 16, QLatin1Char('0'))
                                 .arg(expected, 4, 16, QLatin1Char('0'))));
        }
    }
}

QTEST_APPLESS_MAIN(TestEngineTypes)
#include "tst_engine_types.moc"
