// ops/Random.h: the distributions' moments and ranges over many samples,
// the same numbers for a seed whatever the mapping or thread count, different
// numbers per call and per iteration without one, setSeed, dropout.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Random.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <cmath>
#include <numeric>

using namespace tessera;
namespace prog = tessera::program;

namespace {

constexpr std::size_t kSamples = 20000;

struct Moments {
    double mean = 0, variance = 0, min = 1e300, max = -1e300;
};

Moments moments(const std::vector<double>& v) {
    Moments m;
    for (double x : v) {
        m.mean += x;
        m.min = std::min(m.min, x);
        m.max = std::max(m.max, x);
    }
    m.mean /= double(v.size());
    for (double x : v) {
        m.variance += (x - m.mean) * (x - m.mean);
    }
    m.variance /= double(v.size() - 1);
    return m;
}

// Runs one generator call over kSamples elements and returns them.
std::vector<double> draw(Type type, const ops::RandomSpec& spec, std::size_t grain = 1,
                         unsigned threads = 2, bool seeded = true) {
    Graph g(Target::preset("tiles:4"));
    const Tensor ref = g.addVariable(type, {kSamples}, "ref");
    ops::mapLinearly(g, ref, grain);
    ops::RandomSpec s = spec;
    Tensor seed;
    if (seeded) {
        seed = g.addVariable(Type::UnsignedInt, {2}, "seed");
        g.setTileMapping(seed, TileId{0u});
        s.seed = seed;
    }
    prog::Sequence seq;
    const Tensor out = ops::random(g, seq, ref, type, s, "rand");
    EngineOptions o;
    o.threads = threads;
    Engine engine(g, seq, o);
    if (seeded) {
        engine.writeValues(seed, std::vector<double>{1234, 5678});
    }
    engine.run();
    return engine.readValues(out);
}

ops::RandomSpec spec(ops::Distribution d, double a, double b, double c = 2) {
    ops::RandomSpec s;
    s.distribution = d;
    s.a = a;
    s.b = b;
    s.c = c;
    return s;
}

} // namespace

class TestEngineRandom : public QObject {
    Q_OBJECT

private slots:
    // Standard errors for 20000 samples: the mean within ~4 sigma / sqrt(n).
    void uniformFloat() {
        const Moments m = moments(draw(Type::Float, spec(ops::Distribution::Uniform, -2, 6)));
        QVERIFY(m.min >= -2 && m.max < 6);
        QVERIFY2(std::fabs(m.mean - 2.0) < 4 * std::sqrt(64.0 / 12 / kSamples),
                 qPrintable(QString::number(m.mean)));
        QVERIFY2(std::fabs(m.variance - 64.0 / 12) < 0.15, qPrintable(QString::number(m.variance)));
    }

    void uniformIntIsInclusive() {
        const std::vector<double> v = draw(Type::Int, spec(ops::Distribution::Uniform, -3, 3));
        std::vector<int> counts(7, 0);
        for (double x : v) {
            QVERIFY(x >= -3 && x <= 3 && x == std::floor(x));
            ++counts[static_cast<std::size_t>(x + 3)];
        }
        for (int c : counts) { // each value near 1/7 of the samples
            QVERIFY2(std::abs(c - int(kSamples / 7)) < 250, qPrintable(QString::number(c)));
        }
    }

    void normalAndTruncatedNormal() {
        const Moments n = moments(draw(Type::Float, spec(ops::Distribution::Normal, 1.5, 0.5)));
        QVERIFY2(std::fabs(n.mean - 1.5) < 4 * 0.5 / std::sqrt(double(kSamples)),
                 qPrintable(QString::number(n.mean)));
        QVERIFY2(std::fabs(n.variance - 0.25) < 0.015, qPrintable(QString::number(n.variance)));
        const Moments t =
            moments(draw(Type::Half, spec(ops::Distribution::TruncatedNormal, 0, 1, 1.0)));
        QVERIFY(t.min >= -1.0 && t.max <= 1.0);
        // A standard normal cut at ±1 has variance 1 - 2·φ(1)/(Φ(1) - Φ(-1)) ≈ 0.2911.
        QVERIFY2(std::fabs(t.variance - 0.2911) < 0.02, qPrintable(QString::number(t.variance)));
        QVERIFY(std::fabs(t.mean) < 0.02);
    }

    void bernoulli() {
        const std::vector<double> v = draw(Type::Float, spec(ops::Distribution::Bernoulli, 0.3, 0));
        double ones = 0;
        for (double x : v) {
            QVERIFY(x == 0 || x == 1);
            ones += x;
        }
        QVERIFY2(std::fabs(ones / kSamples - 0.3) < 4 * std::sqrt(0.21 / kSamples),
                 qPrintable(QString::number(ones / kSamples)));
    }

    // A seed gives the same numbers whatever the mapping and thread count.
    void seededIsIndependentOfMappingAndThreads() {
        const auto s = spec(ops::Distribution::Normal, 0, 1);
        const std::vector<double> a = draw(Type::Float, s, 1, 1);
        QCOMPARE(draw(Type::Float, s, 7, 2), a);
        QCOMPARE(draw(Type::Float, s, 64, 4), a);
        auto modified = s;
        modified.seedModifier = 1;
        QVERIFY(draw(Type::Float, modified) != a);
    }

    // Without a seed: every call and every iteration of a loop differs; two
    // engines of one program agree; setSeed makes them repeat.
    void unseededStateAdvances() {
        Graph g(Target::preset("tiles:4"));
        const Tensor ref = g.addVariable(Type::Float, {64}, "ref");
        ops::mapLinearly(g, ref);
        const Tensor seed = g.addVariable(Type::UnsignedInt, {2}, "seed");
        g.setTileMapping(seed, TileId{1u});
        prog::Sequence body;
        const Tensor out =
            ops::random(g, body, ref, Type::Float, spec(ops::Distribution::Uniform, 0, 1), "rand");
        prog::Sequence reseed;
        ops::setSeed(g, reseed, seed, 7, "setSeed");
        Engine engine(g, {body, reseed});
        engine.run(0);
        const std::vector<double> first = engine.readValues(out);
        engine.run(0);
        const std::vector<double> second = engine.readValues(out);
        QVERIFY(first != second);
        Engine other(g, {body, reseed});
        other.run(0);
        QCOMPARE(other.readValues(out), first); // a fixed start state
        engine.writeValues(seed, std::vector<double>{1, 2});
        other.writeValues(seed, std::vector<double>{1, 2});
        engine.run(1);
        other.run(1);
        engine.run(0);
        other.run(0);
        QCOMPARE(engine.readValues(out), other.readValues(out));
        QVERIFY(engine.readValues(out) != first);
    }

    void dropoutKeepsAndScales() {
        Graph g(Target::preset("tiles:4"));
        const Tensor in = g.addVariable(Type::Float, {kSamples}, "in");
        ops::mapLinearly(g, in);
        const Tensor seed = g.addVariable(Type::UnsignedInt, {2}, "seed");
        g.setTileMapping(seed, TileId{0u});
        ops::RandomSpec s = spec(ops::Distribution::Dropout, 0.8, 1.25);
        s.seed = seed;
        prog::Sequence seq;
        const Tensor out = ops::dropout(g, seq, in, in, s, "dropout");
        Engine engine(g, seq);
        std::vector<double> values(kSamples);
        std::iota(values.begin(), values.end(), 1.0);
        engine.writeValues(in, values);
        engine.writeValues(seed, std::vector<double>{9, 9});
        engine.run();
        const std::vector<double> got = engine.readValues(out);
        std::size_t kept = 0;
        for (std::size_t i = 0; i < kSamples; ++i) {
            if (got[i] != 0) {
                QCOMPARE(got[i], double(float(values[i] * 1.25)));
                ++kept;
            }
        }
        QVERIFY2(std::fabs(double(kept) / kSamples - 0.8) < 4 * std::sqrt(0.16 / kSamples),
                 qPrintable(QString::number(kept)));
    }

    void errors() {
        Graph g(Target::preset("tiles:4"));
        const Tensor ref = g.addVariable(Type::Float, {8}, "ref");
        ops::mapLinearly(g, ref);
        const Tensor badSeed = g.addVariable(Type::UnsignedInt, {3}, "badSeed");
        prog::Sequence seq;
        auto s = spec(ops::Distribution::Uniform, 0, 1);
        s.seed = badSeed;
        TESSERA_EXPECT_ERROR(Error, ops::random(g, seq, ref, Type::Float, s, "r"),
                             (QStringList{"badSeed", "two unsigned ints"}));
        TESSERA_EXPECT_ERROR(
            Error, ops::random(g, seq, ref, Type::Int, spec(ops::Distribution::Normal, 0, 1), "r"),
            (QStringList{"int"}));
        TESSERA_EXPECT_ERROR(
            Error,
            ops::random(g, seq, ref, Type::Float, spec(ops::Distribution::Bernoulli, 1.5, 0), "r"),
            (QStringList{"probability", "1.5"}));
        TESSERA_EXPECT_ERROR(
            Error,
            ops::random(g, seq, ref, Type::Float, spec(ops::Distribution::Uniform, 3, 1), "r"),
            (QStringList{"minVal <= maxVal"}));
    }
};

QTEST_GUILESS_MAIN(TestEngineRandom)
#include "tst_engine_random.moc"
