// The built-in codelets' arithmetic checked bit for bit against host
// computations: casts and fills at the types' edges, half arithmetic, the
// half matMul partial products, reductions and matMul.
#include "EngineRunSupport.h"
#include "EngineTestSupport.h"
#include "engine/codelets/Vertex.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>

using namespace tessera;
namespace prog = tessera::program;
using tessera::test::options;

class TestEngineBuiltins : public QObject {
    Q_OBJECT

private slots:
    void builtinCastsAreExact();
    void builtinFillsAreExact();
    void halfOps();
    void halfMatMulPartialIsExact();
    void reductionsAndMatMul();
    void partialSumsAreOrderedSums();
};

namespace {

// The element types of the built-in Cast and Fill codelets.
const Type kElementTypes[] = {Type::Float, Type::Half, Type::Int, Type::UnsignedInt, Type::Bool};

// Values of `t` near the edges where going through float would lose them.
std::vector<double> edgeValues(Type t) {
    switch (t) {
    case Type::Float:
        return {0.0,        -0.0,         2.7,          -2.7,         16777216.0,
                16777218.0, 2147483520.0, 2147483648.0, 4294967040.0, 4294967296.0,
                -3e9,       -0.5,         std::nan("")};
    case Type::Half:
        return {0.0, 1.5, -2.5, 65504.0, -65504.0, 2049.0, std::nan("")};
    case Type::Int:
        return {0, 1, -1, 16777217, 16777219, -16777217, 2147483647, -2147483648.0, 33554435};
    case Type::UnsignedInt:
        return {0, 1, 16777217, 2147483648.0, 2147483649.0, 4294967295.0, 33554435};
    case Type::Bool:
        return {0, 1};
    }
    return {};
}

// Independently of the engine's conversions: what a PopLibs cast of the exact
// value `x` to `to` gives (float by one host rounding, half through float,
// integers modulo 2^32, floating to integer truncated and saturated, NaN 0).
double castReference(double x, bool fromFloating, Type to) {
    if (to == Type::Float) {
        return static_cast<double>(static_cast<float>(x));
    }
    if (to == Type::Half) {
        return static_cast<double>(halfBitsToFloat(floatToHalfBits(static_cast<float>(x))));
    }
    if (to == Type::Bool) {
        return std::isnan(x) || x == 0 ? 0 : 1;
    }
    const bool isInt = to == Type::Int;
    if (fromFloating) {
        if (std::isnan(x)) {
            return 0;
        }
        const double lo = isInt ? -2147483648.0 : 0.0;
        const double hi = isInt ? 2147483647.0 : 4294967295.0;
        return std::trunc(std::min(hi, std::max(lo, x)));
    }
    const double m = std::fmod(x, 4294967296.0); // integers: modulo 2^32
    const double u = m < 0 ? m + 4294967296.0 : m;
    return isInt && u >= 2147483648.0 ? u - 4294967296.0 : u;
}

QString valuesText(const std::vector<double>& v) {
    QStringList out;
    for (double x : v) {
        out << QString::number(x, 'g', 12);
    }
    return out.join(", ");
}

} // namespace

void TestEngineBuiltins::builtinCastsAreExact() {
    for (Type from : kElementTypes) {
        for (Type to : kElementTypes) {
            if (from == to) {
                continue;
            }
            Graph g(Target::preset("tiles:2"));
            const std::vector<double> in = edgeValues(from);
            const Tensor src = g.addVariable(from, {in.size()}, "src");
            const Tensor dst = g.addVariable(to, {in.size()}, "dst");
            g.setTileMapping(src, TileId{0u});
            g.setTileMapping(dst, TileId{1u});
            const ComputeSet cs = g.addComputeSet("cast");
            const std::string codelet =
                "Cast<" + std::string(typeName(from)) + "," + std::string(typeName(to)) + ">";
            g.setTileMapping(g.addVertex(cs, codelet, {{"in", src}, {"out", dst}}), TileId{1u});
            Engine engine(g, prog::Execute(cs), options(1));
            engine.writeValues(src, in);
            engine.run();
            const std::vector<double> got = engine.readValues(dst);
            std::vector<double> want;
            const bool floating = from == Type::Float || from == Type::Half;
            for (double x : engine.readValues(src)) { // as the source type holds them
                want.push_back(castReference(x, floating, to));
            }
            for (std::size_t i = 0; i < got.size(); ++i) {
                const bool same = got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i]));
                QVERIFY2(same, qPrintable(QString::fromStdString(codelet) + ": got " +
                                          valuesText(got) + "; expected " + valuesText(want)));
            }
        }
    }
}

void TestEngineBuiltins::builtinFillsAreExact() {
    const std::vector<std::pair<Type, double>> cases = {{Type::Int, 16777217},
                                                        {Type::Int, -2147483647},
                                                        {Type::Int, 2147483647},
                                                        {Type::UnsignedInt, 4294967295.0},
                                                        {Type::UnsignedInt, 16777219},
                                                        {Type::Float, 0.1},
                                                        {Type::Half, 2049},
                                                        {Type::Bool, 1}};
    for (const auto& [type, value] : cases) {
        Graph g(Target::preset("tiles:2"));
        const Tensor t = g.addVariable(type, {3}, "t");
        g.setTileMapping(t, TileId{1u});
        const ComputeSet cs = g.addComputeSet("fill");
        const VertexRef v =
            g.addVertex(cs, "Fill<" + std::string(typeName(type)) + ">", {{"out", t}});
        g.setInitialValue(v["value"], value);
        g.setTileMapping(v, TileId{1u});
        Engine engine(g, prog::Execute(cs), options(1));
        engine.run();
        const double want = castReference(value, false, type);
        CHECK_EQUAL(engine.readValues(t), std::vector<double>(3, want));
    }
}

void TestEngineBuiltins::halfOps() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Half, {6}, "a");
    Tensor b = g.addVariable(Type::Half, {6}, "b");
    Tensor sum = g.addVariable(Type::Half, {6}, "sum");
    Tensor ex = g.addVariable(Type::Half, {6}, "ex");
    Tensor wide = g.addVariable(Type::Float, {6}, "wide");
    Tensor narrow = g.addVariable(Type::Half, {6}, "narrow");
    Tensor total = g.addVariable(Type::Half, {}, "total");
    g.setTileMapping(a, TileId{0u});
    g.setTileMapping(b, TileId{1u});
    g.setTileMapping(sum.slice(0, 3), TileId{2u});
    g.setTileMapping(sum.slice(3, 6), TileId{3u});
    g.setTileMapping(ex, TileId{3u});
    g.setTileMapping(wide, TileId{2u});
    g.setTileMapping(narrow, TileId{1u});
    g.setTileMapping(total, TileId{0u});
    for (const auto& [name, t] :
         {std::pair{"sum", sum}, std::pair{"ex", ex}, std::pair{"wide", wide},
          std::pair{"narrow", narrow}, std::pair{"total", total}}) {
        g.createHostRead(name, t);
    }
    const ComputeSet cs1 = g.addComputeSet("halves");
    g.setTileMapping(
        g.addVertex(cs1, "Add<half>",
                    {{"in1", a.slice(0, 3)}, {"in2", b.slice(0, 3)}, {"out", sum.slice(0, 3)}}),
        TileId{2u});
    g.setTileMapping(
        g.addVertex(cs1, "Add<half>",
                    {{"in1", a.slice(3, 6)}, {"in2", b.slice(3, 6)}, {"out", sum.slice(3, 6)}}),
        TileId{3u});
    g.setTileMapping(g.addVertex(cs1, "Exp<half>", {{"in", a}, {"out", ex}}), TileId{3u});
    g.setTileMapping(g.addVertex(cs1, "Cast<half,float>", {{"in", b}, {"out", wide}}), TileId{2u});
    g.setTileMapping(g.addVertex(cs1, "ReduceAdd<half>", {{"in", a}, {"out", total}}), TileId{0u});
    const ComputeSet cs2 = g.addComputeSet("narrow");
    g.setTileMapping(g.addVertex(cs2, "Cast<float,half>", {{"in", wide}, {"out", narrow}}),
                     TileId{1u});
    Engine engine(g, prog::Sequence({prog::Execute(cs1), prog::Execute(cs2)}), options(2));
    const std::vector<double> av{0.1, 1000.3, -2.7, 65000, 1e-5, 3.14159};
    const std::vector<double> bv{0.2, 0.7, 2.7, 1000, 3e-5, -0.001};
    engine.writeValues(a, av);
    engine.writeValues(b, bv);
    engine.run();
    // Host reference: operands rounded to half, arithmetic in float, result rounded to half.
    std::vector<std::uint16_t> wantSum, wantExp, wantNarrow;
    std::vector<float> wantWide;
    float acc = 0;
    for (std::size_t i = 0; i < 6; ++i) {
        const float ah = halfBitsToFloat(floatToHalfBits(float(av[i])));
        const float bh = halfBitsToFloat(floatToHalfBits(float(bv[i])));
        wantSum.push_back(floatToHalfBits(ah + bh));
        wantExp.push_back(floatToHalfBits(std::exp(ah)));
        wantWide.push_back(bh);
        wantNarrow.push_back(floatToHalfBits(bh));
        acc += ah;
    }
    QCOMPARE(wantSum[3], std::uint16_t{0x7c00}); // 65000 + 1000 overflows half
    auto bits = [](const std::vector<half>& v) {
        std::vector<std::uint16_t> out;
        for (half h : v) {
            out.push_back(h.bits);
        }
        return out;
    };
    CHECK_EQUAL(bits(engine.read<half>(sum)), wantSum);
    CHECK_EQUAL(bits(engine.read<half>(ex)), wantExp);
    CHECK_EQUAL(engine.read<float>(wide), wantWide);
    CHECK_EQUAL(bits(engine.read<half>(narrow)), wantNarrow);
    CHECK_EQUAL(bits(engine.read<half>(total)), std::vector<std::uint16_t>{floatToHalfBits(acc)});
}

// MatMulPartial<half,half> and <half,float> with k = 2: half x half products
// are exact in float and their sum rounds once, so the result is fixed
// bit for bit: the conversions in and out (F16C or scalar) are all that is
// checked. 24 columns: three 8-wide vectors. Values cover subnormal halves,
// ties to even on the way out, overflow to infinity, zeros of both signs.
void TestEngineBuiltins::halfMatMulPartialIsExact() {
    const std::size_t rows = 5, k = 2, cols = 24; // one register tile of odd height
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Half, {rows * k}, "a");
    Tensor b = g.addVariable(Type::Half, {k * cols}, "b");
    Tensor outH = g.addVariable(Type::Half, {rows, cols}, "outH");
    Tensor outF = g.addVariable(Type::Float, {rows, cols}, "outF");
    for (const Tensor& t : {a, b, outH, outF}) {
        g.setTileMapping(t, TileId{1u});
    }
    g.createHostRead("outH", outH);
    g.createHostRead("outF", outF);
    const ComputeSet cs = g.addComputeSet("products");
    for (const auto& [codelet, out] : {std::pair{"MatMulPartial<half,half>", outH},
                                       std::pair{"MatMulPartial<half,float>", outF}}) {
        VertexRef v = g.addVertex(cs, codelet, {{"a", a}, {"b", b}});
        std::vector<Tensor> outRows;
        for (std::size_t r = 0; r < rows; ++r) {
            outRows.push_back(out[r]);
        }
        g.connect(v["out"], outRows);
        g.setTileMapping(v, TileId{1u});
    }
    Engine engine(g, prog::Execute(cs), options(2));
    // Half bit patterns: a's rows, then b's; 0x0001 is the smallest subnormal.
    const std::vector<std::uint16_t> aBits{0x3c00, 0x0000, 0x3e00, 0x3c01, 0x7bff,
                                           0x8001, 0x0200, 0xc000, 0x3800, 0x3801};
    std::vector<std::uint16_t> bBits(k * cols);
    for (std::size_t i = 0; i < bBits.size(); ++i) {
        const std::uint16_t pool[] = {0x0001, 0x03ff, 0x3555, 0x3c01, 0xbc00, 0x7bff,
                                      0x8000, 0x1400, 0x0400, 0x4248, 0x2e66};
        bBits[i] = pool[(i * 7 + 3) % 11];
    }
    std::vector<half> av, bv;
    for (const std::uint16_t x : aBits) {
        av.push_back(std::bit_cast<half>(x));
    }
    for (const std::uint16_t x : bBits) {
        bv.push_back(std::bit_cast<half>(x));
    }
    engine.write<half>(a, av);
    engine.write<half>(b, bv);
    engine.run();
    std::vector<std::uint16_t> wantH;
    std::vector<float> wantF;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) {
            const float p0 = halfBitsToFloat(aBits[r * k]) * halfBitsToFloat(bBits[c]);
            const float p1 = halfBitsToFloat(aBits[r * k + 1]) * halfBitsToFloat(bBits[cols + c]);
            const float sum = (0.0f + p0) + p1; // from a zero accumulator, as the kernel
            wantF.push_back(sum);
            wantH.push_back(floatToHalfBits(sum));
        }
    }
    std::vector<std::uint16_t> gotH;
    for (const half h : engine.read<half>(outH)) {
        gotH.push_back(h.bits);
    }
    CHECK_EQUAL(gotH, wantH);
    CHECK_EQUAL(engine.read<float>(outF), wantF);
}

// ReducePartials<float,float> over lengths around its 16- and 64-element
// vectors and 1 to 9 partials: each output the float sum of its partials in
// order from zero (values of mixed magnitude, so another order would differ).
void TestEngineBuiltins::partialSumsAreOrderedSums() {
    for (const std::size_t parts : {1, 2, 3, 8, 9}) {
        for (const std::size_t n : {1, 4, 15, 16, 17, 37, 63, 64, 65, 100, 150}) {
            Graph g(Target::preset("tiles:4"));
            Tensor in = g.addVariable(Type::Float, {parts, n}, "in");
            Tensor out = g.addVariable(Type::Float, {n}, "out");
            g.setTileMapping(in, TileId{1u});
            g.setTileMapping(out, TileId{1u});
            const ComputeSet cs = g.addComputeSet("sum");
            const VertexRef v = g.addVertex(cs, "ReducePartials<float,float>", {{"out", out}});
            std::vector<Tensor> rows;
            for (std::size_t p = 0; p < parts; ++p) {
                rows.push_back(in[p]);
            }
            g.connect(v["partials"], rows);
            g.setTileMapping(v, TileId{1u});
            Engine engine(g, prog::Execute(cs), options(1));
            std::vector<float> values(parts * n);
            for (std::size_t i = 0; i < values.size(); ++i) {
                values[i] = std::ldexp(float(int(i * 37 % 101) - 50) / 7.0f, int(i % 9) * 3 - 12);
            }
            engine.write<float>(in, values);
            engine.run();
            std::vector<float> want(n);
            for (std::size_t i = 0; i < n; ++i) {
                float acc = 0.0f;
                for (std::size_t p = 0; p < parts; ++p) {
                    acc = acc + values[p * n + i];
                }
                want[i] = acc;
            }
            CHECK_EQUAL(engine.read<float>(out), want);
        }
    }
}

void TestEngineBuiltins::reductionsAndMatMul() {
    Graph g(Target::preset("tiles:4"));
    // Sum of 16 values spread over 4 tiles: a partial per tile, then the partials.
    Tensor x = g.addVariable(Type::Float, {16}, "x");
    Tensor partials = g.addVariable(Type::Float, {4}, "partials");
    Tensor total = g.addVariable(Type::Float, {}, "total");
    Tensor biggest = g.addVariable(Type::Float, {}, "biggest");
    for (std::uint32_t t = 0; t < 4; ++t) {
        g.setTileMapping(x.slice(4 * t, 4 * t + 4), record::idAt<TileId>(t));
        g.setTileMapping(partials[t], record::idAt<TileId>(t));
    }
    g.setTileMapping(total, TileId{0u});
    g.setTileMapping(biggest, TileId{1u});
    const ComputeSet stage1 = g.addComputeSet("stage1");
    for (std::uint32_t t = 0; t < 4; ++t) {
        g.setTileMapping(g.addVertex(stage1, "ReduceAdd<float>",
                                     {{"in", x.slice(4 * t, 4 * t + 4)}, {"out", partials[t]}}),
                         record::idAt<TileId>(t));
    }
    g.setTileMapping(g.addVertex(stage1, "ReduceMax<float>", {{"in", x}, {"out", biggest}}),
                     TileId{1u});
    const ComputeSet stage2 = g.addComputeSet("stage2");
    g.setTileMapping(g.addVertex(stage2, "ReduceAdd<float>", {{"in", partials}, {"out", total}}),
                     TileId{0u});

    // C = A B with A {2,3} on tile 0, B {3,2} on tile 1, C {2,2} on tile 2;
    // partial products over k split in two, then summed with ReducePartials.
    Tensor A = g.addVariable(Type::Float, {2, 3}, "A");
    Tensor B = g.addVariable(Type::Float, {3, 2}, "B");
    Tensor P = g.addVariable(Type::Float, {2, 2, 2}, "P"); // [split][row][col]
    Tensor C = g.addVariable(Type::Float, {2, 2}, "C");
    g.setTileMapping(A, TileId{0u});
    g.setTileMapping(B, TileId{1u});
    g.setTileMapping(P[0], TileId{2u});
    g.setTileMapping(P[1], TileId{3u});
    g.setTileMapping(C, TileId{2u});
    const ComputeSet mm = g.addComputeSet("matmul");
    // split 0: k in {0, 1}; split 1: k = 2
    const VertexRef p0 =
        g.addVertex(mm, "MatMulPartial<float,float>",
                    {{"a", A.slice(0, 2, 1).flatten()}, {"b", B.slice(0, 2).flatten()}});
    g.connect(p0["out"], std::vector<Tensor>{P[0][0], P[0][1]});
    g.setTileMapping(p0, TileId{2u});
    const VertexRef p1 =
        g.addVertex(mm, "MatMulPartial<float,float>",
                    {{"a", A.slice(2, 3, 1).flatten()}, {"b", B.slice(2, 3).flatten()}});
    g.setFieldSize(p1["out"], 2);
    g.connect(p1["out"][0], P[1][0]);
    g.connect(p1["out"][1], P[1][1]);
    g.setTileMapping(p1, TileId{3u});
    const ComputeSet red = g.addComputeSet("reduce partials");
    const VertexRef rp = g.addVertex(red, "ReducePartials<float,float>", {{"out", C.flatten()}});
    g.connect(rp["partials"], std::vector<Tensor>{P[0].flatten(), P[1].flatten()});
    g.setTileMapping(rp, TileId{2u});
    for (const auto& [name, t] :
         {std::pair{"total", total}, std::pair{"biggest", biggest}, std::pair{"C", C}}) {
        g.createHostRead(name, t);
    }
    Engine engine(g,
                  prog::Sequence({prog::Execute(stage1), prog::Execute(stage2), prog::Execute(mm),
                                  prog::Execute(red)}),
                  options(3));
    std::vector<double> xv;
    double sum = 0;
    for (int i = 0; i < 16; ++i) {
        xv.push_back((i * 7) % 11 - 4.5);
        sum += xv.back();
    }
    engine.writeValues(x, xv);
    const std::vector<double> av{1, 2, 3, 4, 5, 6}, bv{7, 8, 9, 10, 11, 12};
    engine.writeValues(A, av);
    engine.writeValues(B, bv);
    engine.run();
    QCOMPARE(engine.readValues(total), std::vector<double>{sum});
    QCOMPARE(engine.readValues(biggest),
             std::vector<double>{*std::max_element(xv.begin(), xv.end())});
    std::vector<double> want(4, 0);
    for (std::size_t r = 0; r < 2; ++r) {
        for (std::size_t c = 0; c < 2; ++c) {
            for (std::size_t k = 0; k < 3; ++k) {
                want[r * 2 + c] += av[r * 3 + k] * bv[k * 2 + c];
            }
        }
    }
    QCOMPARE(want, (std::vector<double>{58, 64, 139, 154}));
    QCOMPARE(engine.readValues(C), want);
}

QTEST_APPLESS_MAIN(TestEngineBuiltins)
#include "tst_engine_builtins.moc"
