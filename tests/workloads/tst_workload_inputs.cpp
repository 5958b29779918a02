// The workloads' bulk helpers against the engine's own definitions: the fast
// half rounding equals engine/core/Half.h's, inputs written in place equal
// randomValues, and streaming comparison equals compare().
#include "engine/core/Half.h"
#include "engine/ops/Mapping.h"
#include "engine/workloads/Library.h"

#include <QtTest>

#include <bit>
#include <cstring>
#include <limits>

using namespace tessera;
using namespace tessera::workloads;

class TestWorkloadInputs : public QObject {
    Q_OBJECT

private slots:
    void halfToFloatMatchesEveryHalf() {
        for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
            const float fast = halfToFloat(static_cast<std::uint16_t>(bits));
            const float reference = halfBitsToFloat(static_cast<std::uint16_t>(bits));
            QVERIFY2(std::bit_cast<std::uint32_t>(fast) == std::bit_cast<std::uint32_t>(reference),
                     qPrintable(QString::number(bits, 16)));
        }
    }
    void floatToHalfMatchesSampledFloats() {
        // Every 1021st float bit pattern (thousands in each exponent, ties and the
        // overflow and subnormal boundaries among them), plus the boundaries.
        auto check = [](std::uint32_t f) {
            const float x = std::bit_cast<float>(f);
            const std::uint16_t expected = floatToHalfBits(x);
            if (halfBits(x) != expected) {
                return false;
            }
            const float rounded = roundToHalf(x);
            const float reference = halfBitsToFloat(expected);
            return std::bit_cast<std::uint32_t>(rounded) ==
                       std::bit_cast<std::uint32_t>(reference) ||
                   (std::isnan(rounded) && std::isnan(reference));
        };
        for (std::uint64_t f = 0; f <= 0xffffffffu; f += 1021) {
            QVERIFY2(check(static_cast<std::uint32_t>(f)), qPrintable(QString::number(f, 16)));
        }
        for (std::uint32_t edge : {0x38800000u, 0x387fffffu, 0x477fe000u, 0x477fefffu, 0x477ff000u,
                                   0x477ff001u, 0x3f801000u, 0x3f803000u, 0x3f800fffu}) {
            for (std::uint32_t sign : {0u, 0x80000000u}) {
                QVERIFY2(check(edge | sign), qPrintable(QString::number(edge | sign, 16)));
            }
        }
        QCOMPARE(halfBits(65519.0f), std::uint16_t{0x7bff}); // below the tie: the largest half
        QCOMPARE(halfBits(65520.0f), std::uint16_t{0x7c00}); // the tie rounds to even: infinity
        QCOMPARE(roundToHalf(1.0f + 1.0f / 2048), 1.0f);     // a tie to even, down
        QCOMPARE(roundToHalf(1.0f + 3.0f / 2048), 1.0f + 4.0f / 2048); // a tie to even, up
    }
    void fillRandomWritesRandomValues_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("float") << int(Type::Float);
        QTest::newRow("half") << int(Type::Half);
    }
    void fillRandomWritesRandomValues() {
        QFETCH(int, type);
        Graph g(Target::preset("tiles:4"));
        const std::size_t n = 1000;
        Tensor t = g.addVariable(Type(type), {n}, "t");
        ops::mapLinearly(g, t, 7); // several runs on several tiles
        Engine e(g, program::Sequence{});
        fillRandom(e, t, 42, -2, 3);
        const std::vector<double> device = e.readValues(t);
        const std::vector<float> expected = randomValues(n, 42, Type(type), -2, 3);
        QCOMPARE(device.size(), n);
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(device[i], double(expected[i]));
        }
        // randomValues itself: the raw mt19937 output scaled, then rounded.
        std::mt19937 rng(42);
        const float first = -2 + 5 * float(rng() >> 8) / float(1u << 24);
        QCOMPARE(expected[0], Type(type) == Type::Half ? float(half(first)) : first);
    }
    void streamingComparisonEqualsCompare() {
        const std::vector<double> reference{1.0, 2.0, -3.0, 4.0};
        const std::vector<float> device{1.0f, 2.5f, -3.0f, 3.0f};
        const Verification expected = compare({1.0, 2.5, -3.0, 3.0}, reference, 0.1, 0.0, "values");
        const Verification got = compareFloats(device, reference, 0.1, 0.0, "values");
        QVERIFY(!got.passed);
        QCOMPARE(got.passed, expected.passed);
        QCOMPARE(got.maxAbsError, 1.0);
        QCOMPARE(got.detail, expected.detail);
        QCOMPARE(got.detail, std::string("values: element 3 is 3, expected 4"));
        const Verification short_ = compareFloats({1.0f}, reference, 0.1, 0.0, "values");
        QVERIFY(!short_.passed);
        QCOMPARE(short_.detail, std::string("values: 1 values, expected 4"));
    }
    void hostMatMulIsTheProduct() {
        // 2x3 . 3x2 by hand.
        const std::vector<double> a{1, 2, 3, 4, 5, 6}, b{7, 8, 9, 10, 11, 12};
        const std::vector<double> c = hostMatMul(a, b, 2, 3, 2);
        QCOMPARE(c, (std::vector<double>{58, 64, 139, 154}));
    }
};

QTEST_APPLESS_MAIN(TestWorkloadInputs)
#include "tst_workload_inputs.moc"
