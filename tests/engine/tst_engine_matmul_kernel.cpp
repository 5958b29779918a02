// The MatMulPartial kernels bit for bit, each one the CPU has (SSE2, AVX2,
// AVX-512), over block shapes that exercise every register tile they have:
// row counts around their 4-, 6- and 8-row tiles (1 to 13 rows) and column
// counts around their 8- and 16-wide vectors and 24- and 48-column tiles
// (whole tiles, one to thirteen vectors, the last columns that are not a
// whole vector). Each output
// must be its x-ordered sum from a zero accumulator, fused multiply-adds where
// the kernel uses them (AVX2, AVX-512), separate roundings otherwise (SSE2),
// for any thread count.
#include "engine/codelets/builtin/Builtins.h"
#include "engine/core/Half.h"
#include "engine/graph/Graph.h"
#include "engine/ops/MatMul.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <cmath>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

using namespace tessera;

namespace {

struct Shape {
    std::size_t rows, k, cols;
};

std::vector<Shape> shapes() {
    std::vector<Shape> out;
    for (std::size_t rows = 1; rows <= 13; ++rows) {
        for (std::size_t cols :
             {1, 4, 5, 7, 8, 11, 14, 16, 19, 24, 36, 37, 40, 48, 64, 74, 100, 136}) {
            out.push_back({rows, rows % 2 ? std::size_t{7} : std::size_t{33}, cols});
        }
    }
    out.push_back({40, 64, 37});   // a 512^3 mk2 block
    out.push_back({25, 293, 137}); // a 2048^3 mk2 block
    out.push_back({16, 72, 20});   // a conv2d 1 x 64 x 32^2 block
    return out;
}

// The sum the kernel must produce: products added in x order from 0.
float hostSum(const std::vector<float>& a, const std::vector<float>& b, const Shape& s,
              std::size_t r, std::size_t c) {
    const bool fused = matMulKernel() != MatMulKernel::Sse2;
    float acc = 0.0f;
    for (std::size_t x = 0; x < s.k; ++x) {
        const float av = a[r * s.k + x], bv = b[x * s.cols + c];
        if (fused) {
            acc = std::fma(av, bv, acc);
        } else {
            const float product = av * bv;
            acc = acc + product;
        }
    }
    return acc;
}

template <typename T>
bool sameBits(const std::vector<T>& got, const std::vector<T>& want, QString& why) {
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            why = QStringLiteral("element %1 is %2, expected %3")
                      .arg(i)
                      .arg(double(got[i]), 0, 'g', 10)
                      .arg(double(want[i]), 0, 'g', 10);
            return false;
        }
    }
    return true;
}

} // namespace

class TestEngineMatMulKernel : public QObject {
    Q_OBJECT
private slots:
    void floatBlocksAreOrderedSums_data();
    void floatBlocksAreOrderedSums();
    void halfBlocksAreOrderedSums_data();
    void halfBlocksAreOrderedSums();
    void matMulIsThreadIndependent();
    void reducePartialsAreOrderedSums();
    void cleanup();

private:
    const bool packsByDefault_ = matMulPacksLastColumns();
    static void kernelRows();
    static void useKernel();
};

// One row per kernel the CPU has, AVX-512 with its last columns packed and
// masked; each test runs under the one its row names.
void TestEngineMatMulKernel::kernelRows() {
    QTest::addColumn<int>("kernel");
    QTest::addColumn<bool>("packsLastColumns");
    for (const MatMulKernel k : supportedMatMulKernels()) {
        if (k == MatMulKernel::Avx512) {
            QTest::addRow("%s, last columns packed", matMulKernelName(k)) << int(k) << true;
            QTest::addRow("%s, last columns masked", matMulKernelName(k)) << int(k) << false;
        } else {
            QTest::newRow(matMulKernelName(k)) << int(k) << false;
        }
    }
}

void TestEngineMatMulKernel::useKernel() {
    QFETCH(int, kernel);
    QFETCH(bool, packsLastColumns);
    setMatMulKernel(MatMulKernel(kernel));
    setMatMulPacksLastColumns(packsLastColumns);
    QCOMPARE(int(matMulKernel()), kernel);
    QCOMPARE(matMulPacksLastColumns(), packsLastColumns);
}

void TestEngineMatMulKernel::cleanup() {
    setMatMulKernel(supportedMatMulKernels().back()); // the widest, as the engine picks
    setMatMulPacksLastColumns(packsByDefault_);
}

void TestEngineMatMulKernel::floatBlocksAreOrderedSums_data() {
    kernelRows();
}

void TestEngineMatMulKernel::halfBlocksAreOrderedSums_data() {
    kernelRows();
}

// One vertex per shape, spread over 16 tiles, run on 1 and 2 threads.
void TestEngineMatMulKernel::floatBlocksAreOrderedSums() {
    useKernel();
    const std::vector<Shape> all = shapes();
    Graph g(Target::preset("tiles:16"));
    const ComputeSet cs = g.addComputeSet("products");
    std::vector<Tensor> as, bs, outs;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Shape& s = all[i];
        const auto tile = record::idAt<TileId>(i % 16);
        as.push_back(g.addVariable(Type::Float, {s.rows * s.k}, "a"));
        bs.push_back(g.addVariable(Type::Float, {s.k * s.cols}, "b"));
        outs.push_back(g.addVariable(Type::Float, {s.rows, s.cols}, "out"));
        for (const Tensor& t : {as.back(), bs.back(), outs.back()}) {
            g.setTileMapping(t, tile);
        }
        VertexRef v =
            g.addVertex(cs, "MatMulPartial<float,float>", {{"a", as.back()}, {"b", bs.back()}});
        std::vector<Tensor> rows;
        for (std::size_t r = 0; r < s.rows; ++r) {
            rows.push_back(outs.back()[r]);
        }
        g.connect(v["out"], rows);
        g.setTileMapping(v, tile);
    }
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    std::vector<std::vector<float>> ha, hb;
    for (std::size_t i = 0; i < all.size(); ++i) {
        ha.emplace_back(all[i].rows * all[i].k);
        hb.emplace_back(all[i].k * all[i].cols);
        for (float& x : ha.back()) {
            x = value(rng);
        }
        for (float& x : hb.back()) {
            x = value(rng);
        }
    }
    for (const unsigned threads : {1u, 2u}) {
        EngineOptions options;
        options.threads = threads;
        Engine engine(g, program::Execute(cs), options);
        for (std::size_t i = 0; i < all.size(); ++i) {
            engine.write<float>(as[i], ha[i]);
            engine.write<float>(bs[i], hb[i]);
        }
        engine.run();
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Shape& s = all[i];
            std::vector<float> want;
            for (std::size_t r = 0; r < s.rows; ++r) {
                for (std::size_t c = 0; c < s.cols; ++c) {
                    want.push_back(hostSum(ha[i], hb[i], s, r, c));
                }
            }
            QString why;
            QVERIFY2(sameBits(engine.read<float>(outs[i]), want, why),
                     qPrintable(QStringLiteral("%1 x %2 x %3 on %4 thread(s): %5")
                                    .arg(s.rows)
                                    .arg(s.k)
                                    .arg(s.cols)
                                    .arg(threads)
                                    .arg(why)));
        }
    }
}

// Half inputs are widened exactly; the sums are the float ones, rounded once
// to half (<half,half>) or kept (<half,float>).
void TestEngineMatMulKernel::halfBlocksAreOrderedSums() {
    useKernel();
    const std::vector<Shape> all = shapes(); // b's halves are widened in the AVX-512 and AVX2 tiles
    Graph g(Target::preset("tiles:16"));
    const ComputeSet cs = g.addComputeSet("products");
    std::vector<Tensor> as, bs, outsH, outsF;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Shape& s = all[i];
        const auto tile = record::idAt<TileId>(i % 16);
        as.push_back(g.addVariable(Type::Half, {s.rows * s.k}, "a"));
        bs.push_back(g.addVariable(Type::Half, {s.k * s.cols}, "b"));
        outsH.push_back(g.addVariable(Type::Half, {s.rows, s.cols}, "outH"));
        outsF.push_back(g.addVariable(Type::Float, {s.rows, s.cols}, "outF"));
        for (const Tensor& t : {as.back(), bs.back(), outsH.back(), outsF.back()}) {
            g.setTileMapping(t, tile);
        }
        for (const auto& [codelet, out] : {std::pair{"MatMulPartial<half,half>", outsH.back()},
                                           std::pair{"MatMulPartial<half,float>", outsF.back()}}) {
            VertexRef v = g.addVertex(cs, codelet, {{"a", as.back()}, {"b", bs.back()}});
            std::vector<Tensor> rows;
            for (std::size_t r = 0; r < s.rows; ++r) {
                rows.push_back(out[r]);
            }
            g.connect(v["out"], rows);
            g.setTileMapping(v, tile);
        }
    }
    Engine engine(g, program::Execute(cs));
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> value(-3.0f, 3.0f);
    std::vector<std::vector<float>> ha, hb; // the halves' exact float values
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (auto [count, t, host] : {std::tuple{all[i].rows * all[i].k, as[i], &ha},
                                      std::tuple{all[i].k * all[i].cols, bs[i], &hb}}) {
            std::vector<half> h;
            host->emplace_back();
            for (std::size_t j = 0; j < count; ++j) {
                h.push_back(half(value(rng)));
                host->back().push_back(float(h.back()));
            }
            engine.write<half>(t, h);
        }
    }
    engine.run();
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Shape& s = all[i];
        std::vector<float> wantF;
        std::vector<std::uint16_t> wantH, gotH;
        for (std::size_t r = 0; r < s.rows; ++r) {
            for (std::size_t c = 0; c < s.cols; ++c) {
                wantF.push_back(hostSum(ha[i], hb[i], s, r, c));
                wantH.push_back(floatToHalfBits(wantF.back()));
            }
        }
        for (const half h : engine.read<half>(outsH[i])) {
            gotH.push_back(h.bits);
        }
        QString why;
        const QString shape = QStringLiteral("%1 x %2 x %3: ").arg(s.rows).arg(s.k).arg(s.cols);
        QVERIFY2(sameBits(engine.read<float>(outsF[i]), wantF, why), qPrintable(shape + why));
        QVERIFY2(sameBits(gotH, wantH, why), qPrintable(shape + why));
    }
}

// ops::matMul of odd sizes on 16 tiles (block copies, products, the partials'
// reduction): the same bits and cycles on 1, 2 and 3 threads, within float
// rounding of a double host product.
void TestEngineMatMulKernel::matMulIsThreadIndependent() {
    const std::size_t m = 37, k = 150, n = 29;
    Graph g(Target::preset("tiles:16"));
    Tensor a = g.addVariable(Type::Float, {m, k}, "a");
    Tensor b = g.addVariable(Type::Float, {k, n}, "b");
    g.setTileMapping(a, TileId{0u});
    g.setTileMapping(b, TileId{5u});
    program::Sequence prog;
    const Tensor c = ops::matMul(g, prog, a, b, "mm");
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> ha(m * k), hb(k * n);
    for (float& x : ha) {
        x = value(rng);
    }
    for (float& x : hb) {
        x = value(rng);
    }
    std::vector<float> first;
    std::uint64_t firstCycles = 0;
    for (const unsigned threads : {1u, 2u, 3u}) {
        EngineOptions options;
        options.threads = threads;
        Engine engine(g, prog, options);
        engine.write<float>(a, ha);
        engine.write<float>(b, hb);
        for (int run = 0; run < 3; ++run) { // repeated runs: the pool's threads stay awake
            engine.run();
        }
        const std::vector<float> got = engine.read<float>(c);
        if (threads == 1) {
            first = got;
            firstCycles = engine.cyclesSoFar();
            for (std::size_t r = 0; r < m; ++r) {
                for (std::size_t col = 0; col < n; ++col) {
                    double want = 0, scale = 0;
                    for (std::size_t x = 0; x < k; ++x) {
                        want += double(ha[r * k + x]) * hb[x * n + col];
                        scale += std::abs(double(ha[r * k + x]) * hb[x * n + col]);
                    }
                    QVERIFY(std::abs(got[r * n + col] - want) <= 1e-6 * scale + 1e-30);
                }
            }
            continue;
        }
        QString why;
        QVERIFY2(sameBits(got, first, why), qPrintable(why));
        QCOMPARE(engine.cyclesSoFar(), firstCycles);
    }
}

// ReducePartials (the second stage of a matMul split over k): each element
// the float sum of its partials in order from partial 0, rounded once to the
// output type, for row lengths around its 32-element blocks and half or
// float partials and outputs. The values span 1e-3 to 1e4 so a different
// order would change the bits.
void TestEngineMatMulKernel::reducePartialsAreOrderedSums() {
    struct Case {
        const char* codelet;
        Type in, out;
        std::size_t parts, n;
    };
    std::vector<Case> cases;
    for (const auto& [codelet, in, out] :
         {std::tuple{"ReducePartials<float,float>", Type::Float, Type::Float},
          std::tuple{"ReducePartials<float,half>", Type::Float, Type::Half},
          std::tuple{"ReducePartials<half,half>", Type::Half, Type::Half}}) {
        for (const std::size_t parts : {1, 3, 8}) {
            for (const std::size_t n : {1, 7, 31, 32, 33, 70}) {
                cases.push_back({codelet, in, out, parts, n});
            }
        }
    }
    Graph g(Target::preset("tiles:16"));
    const ComputeSet cs = g.addComputeSet("reduce");
    std::vector<std::vector<Tensor>> partials;
    std::vector<Tensor> outs;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        const auto tile = record::idAt<TileId>(i % 16);
        partials.emplace_back();
        for (std::size_t p = 0; p < c.parts; ++p) {
            partials.back().push_back(g.addVariable(c.in, {c.n}, "partial"));
            g.setTileMapping(partials.back().back(), tile);
        }
        outs.push_back(g.addVariable(c.out, {c.n}, "out"));
        g.setTileMapping(outs.back(), tile);
        VertexRef v = g.addVertex(cs, c.codelet, {{"out", outs.back()}});
        g.connect(v["partials"], partials.back());
        g.setTileMapping(v, tile);
    }
    Engine engine(g, program::Execute(cs));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-3, 4);
    std::vector<std::vector<std::vector<float>>> values(cases.size()); // exact in the input type
    for (std::size_t i = 0; i < cases.size(); ++i) {
        for (const Tensor& t : partials[i]) {
            std::vector<float> v(cases[i].n);
            for (float& x : v) {
                x = mantissa(rng) * std::pow(10.0f, float(exponent(rng)));
            }
            if (cases[i].in == Type::Half) {
                std::vector<half> h(v.begin(), v.end());
                engine.write<half>(t, h);
                for (std::size_t j = 0; j < v.size(); ++j) {
                    v[j] = float(h[j]);
                }
            } else {
                engine.write<float>(t, v);
            }
            values[i].push_back(v);
        }
    }
    engine.run();
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        std::vector<float> sums(c.n, 0.0f);
        for (const std::vector<float>& v : values[i]) {
            for (std::size_t j = 0; j < c.n; ++j) {
                sums[j] += v[j];
            }
        }
        QString why;
        if (c.out == Type::Float) {
            QVERIFY2(sameBits(engine.read<float>(outs[i]), sums, why), qPrintable(why));
        } else {
            std::vector<std::uint16_t> got, want;
            for (const half h : engine.read<half>(outs[i])) {
                got.push_back(h.bits);
            }
            for (const float f : sums) {
                want.push_back(floatToHalfBits(f));
            }
            QVERIFY2(sameBits(got, want, why),
                     qPrintable(QStringLiteral("%1, %2 partials of %3: %4")
                                    .arg(c.codelet)
                                    .arg(c.parts)
                                    .arg(c.n)
                                    .arg(why)));
        }
    }
}

QTEST_GUILESS_MAIN(TestEngineMatMulKernel)
#include "tst_engine_matmul_kernel.moc"
