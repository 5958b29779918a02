// The workloads' bulk helpers against the engine's own definitions: the fast
// half rounding equals engine/core/Half.h's, the counter-based inputs equal
// their definition (computed here from published hash constants), in bulk and
// one at a time, inputs written in place equal randomValues whatever the
// thread count, and streaming and parallel comparison equal compare().
#include "engine/core/Half.h"
#include "engine/ops/Mapping.h"
#include "engine/workloads/Library.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

using namespace tessera;
using namespace tessera::workloads;

namespace {

// The 24 bits of element i of input `seed` (i < 2^32), from the generator's
// definition: keys = splitmix64's mix of (seed << 32 ^ a constant), split in
// two; MurmurHash3's fmix32 of ((i ^ low key) * 0x9e3779b9 + high key); its top 24 bits.
std::uint32_t definitionBits(std::uint32_t seed, std::uint64_t i) {
    std::uint64_t z = (std::uint64_t{seed} << 32) ^ 0x5851f42d4c957f2du;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    std::uint32_t h =
        (static_cast<std::uint32_t>(i) ^ static_cast<std::uint32_t>(z)) * 0x9e3779b9u +
        static_cast<std::uint32_t>(z >> 32);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h >> 8;
}

} // namespace

class TestWorkloadInputs : public QObject {
    Q_OBJECT

private slots:
    // Two columns a row. Row 0 {0, -700}: exp(-700) / (1 + exp(-700)) is a
    // normal double and kept. Row 1 {5, -720}: exp(-725) / (1 + exp(-725)),
    // about 1.4e-315, is subnormal and becomes 0. Row 2 {2, 2}: a half each.
    void softmaxRowsFlushSubnormals() {
        const std::vector<double> got = hostSoftmaxRows({0, -700, 5, -720, 2, 2}, 3, 2);
        const double kept = std::exp(-700.0), flushed = std::exp(-725.0);
        QVERIFY(kept >= std::numeric_limits<double>::min());
        QVERIFY(flushed > 0 && flushed < std::numeric_limits<double>::min());
        QCOMPARE(got.size(), std::size_t{6});
        QCOMPARE(got[0], 1 / (1 + kept));
        QCOMPARE(got[1], kept / (1 + kept));
        QCOMPARE(got[2], 1.0);
        // Exactly: QCOMPARE takes anything under 1e-12 for zero.
        QVERIFY2(got[3] == 0.0, qPrintable(QString::number(got[3], 'g', 17)));
        QCOMPARE(got[4], 0.5);
        QCOMPARE(got[5], 0.5);
    }
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
        for (std::uint32_t edge :
             {0x00000000u, 0x38800000u, 0x387fffffu, 0x477fe000u, 0x477fefffu, 0x477ff000u,
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
        const std::size_t n = 5000;
        Tensor t = g.addVariable(Type(type), {n}, "t");
        ops::mapLinearly(g, t, 7); // several runs on several tiles
        const std::vector<float> expected = randomValues(n, 42, Type(type), -2, 3);
        QCOMPARE(expected.size(), n);
        for (unsigned threads : {1u, 2u, 3u}) { // the same values whatever the threads
            EngineOptions options;
            options.threads = threads;
            Engine e(g, program::Sequence{}, options);
            fillRandom(e, t, 42, -2, 3);
            const std::vector<double> device = e.readValues(t);
            QCOMPARE(device.size(), n);
            for (std::size_t i = 0; i < n; ++i) {
                QCOMPARE(device[i], double(expected[i]));
            }
        }
        // randomValues itself: element i from its definition, rounded.
        for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{4999}}) {
            const float x = -2 + 5 * float(definitionBits(42, i)) / float(1u << 24);
            QCOMPARE(expected[i], Type(type) == Type::Half ? float(half(x)) : x);
        }
    }
    // The generator's keys come from splitmix64's output function: its first
    // output from state 0 is a published value.
    void mix64IsSplitMix64() {
        QCOMPARE(counter::mix64(0x9e3779b97f4a7c15u), std::uint64_t{0xe220a8397b1dcdafu});
    }
    // Bulk values (vectorised where the CPU can) equal at(), also across an
    // index with new high 32 bits, for both types; seeds give different values.
    void bulkValuesEqualAt() {
        for (Type type : {Type::Float, Type::Half}) {
            const CounterRandom random(7, type, -1.5f, 0.25f);
            for (std::uint64_t first :
                 {std::uint64_t{0}, std::uint64_t{123457}, (std::uint64_t{1} << 32) - 300}) {
                std::vector<float> bulk(1000);
                random.values(first, bulk);
                std::vector<std::uint16_t> bits(1000);
                random.halfValues(first, bits);
                for (std::size_t i = 0; i < bulk.size(); ++i) {
                    const float one = random.at(first + i);
                    QCOMPARE(std::bit_cast<std::uint32_t>(bulk[i]),
                             std::bit_cast<std::uint32_t>(one));
                    QCOMPARE(bits[i], halfBits(one));
                    QVERIFY(one >= -1.5f && one <= 0.25f); // a half may round up to hi
                }
            }
            // Past 2^32 the keys change: element 2^32 is not element 0 again.
            QVERIFY(random.at(std::uint64_t{1} << 32) != random.at(0) ||
                    random.at((std::uint64_t{1} << 32) + 1) != random.at(1));
        }
        const auto a = randomValues(1000, 11, Type::Float), b = randomValues(1000, 12, Type::Float);
        std::size_t same = 0;
        double sum = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            same += a[i] == b[i] ? 1 : 0;
            sum += a[i];
        }
        QCOMPARE(same, std::size_t{0});
        QVERIFY(std::fabs(sum / 1000) < 0.1); // uniform on [-1, 1): mean 0, sd of the mean 0.018
    }
    // The bulk half rounding equals the scalar one, over sampled float bit patterns.
    void bulkRoundToHalfEqualsScalar() {
        std::vector<float> values;
        for (std::uint64_t f = 0; f <= 0xffffffffu; f += 40961) {
            const float x = std::bit_cast<float>(static_cast<std::uint32_t>(f));
            if (!std::isnan(x)) {
                values.push_back(x);
            }
        }
        std::vector<float> bulk = values;
        roundToHalf(std::span<float>(bulk));
        for (std::size_t i = 0; i < values.size(); ++i) {
            QCOMPARE(std::bit_cast<std::uint32_t>(bulk[i]),
                     std::bit_cast<std::uint32_t>(roundToHalf(values[i])));
        }
    }
    // Comparisons merged in order give what one comparison of every check gives.
    void mergedComparisonsEqualOne() {
        const std::vector<double> device{1.0, 5.0, 3.0, 9.0, 2.0, 7.0},
            reference{1.0, 2.0, 3.0, 6.0, 2.5, 7.0};
        for (std::size_t cut = 0; cut <= device.size(); ++cut) {
            Comparison whole(0.1, 0.0), first(0.1, 0.0), second(0.1, 0.0);
            for (std::size_t i = 0; i < device.size(); ++i) {
                whole.check(i, device[i], reference[i]);
                (i < cut ? first : second).check(i, device[i], reference[i]);
            }
            first.merge(second);
            const Verification a = whole.result("v", 6), b = first.result("v", 6);
            QCOMPARE(b.passed, a.passed);
            QCOMPARE(b.maxAbsError, 3.0);
            QCOMPARE(b.detail, a.detail);
            QCOMPARE(b.detail, std::string("v: element 1 is 5, expected 2")); // the first worst
        }
    }
    // checkRuns over a tensor of many runs equals compare() of its values.
    void checkRunsEqualsCompare() {
        Graph g(Target::preset("tiles:4"));
        const std::size_t n = 300000; // batches of several runs, over several threads
        Tensor t = g.addVariable(Type::Float, {n}, "t");
        ops::mapLinearly(g, t, 5);
        std::vector<float> values(n);
        std::vector<double> reference(n);
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = float(i % 1000);
            reference[i] = (i == 123456 || i == 200001) ? values[i] + 1 : values[i];
        }
        for (unsigned threads : {1u, 2u}) {
            EngineOptions options;
            options.threads = threads;
            Engine e(g, program::Sequence{}, options);
            e.write<float>(t, values);
            const Verification expected = compare(e.readValues(t), reference, 0.5, 0.0, "values");
            const Verification got =
                checkRuns(e, t, 0.5, 0.0, "values",
                          [&](std::size_t first, std::span<const std::byte> bytes, Comparison& c) {
                              for (std::size_t i = 0; i < bytes.size() / 4; ++i) {
                                  float v;
                                  std::memcpy(&v, bytes.data() + 4 * i, 4);
                                  c.check(first + i, v, reference[first + i]);
                              }
                          });
            QVERIFY(!got.passed);
            QCOMPARE(got.detail, expected.detail);
            QCOMPARE(got.detail, std::string("values: element 123456 is 456, expected 457"));
            QCOMPARE(got.maxAbsError, 1.0);
        }
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
