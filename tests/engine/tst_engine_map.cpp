// ops::map: every operator on every type it takes, run across tiles with
// broadcast operands, against host references computed here; PopLibs' type
// inference and its errors; in place and with an output; the cycle formula.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Map.h"
#include "engine/ops/MapEval.h"
#include "engine/ops/Mapping.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>

using namespace tessera;
using namespace tessera::ops::expr;
namespace prog = tessera::program;

namespace {

// Runs e over `inputs` (values given as doubles, stored as each tensor's
// type) on a 4-tile target and returns the result's values.
struct Operand {
    Type type;
    std::vector<std::size_t> shape;
    std::vector<double> values;
};

std::vector<double> runMap(const Expression& e, const std::vector<Operand>& operands,
                           std::vector<std::size_t>* shapeOut = nullptr) {
    Graph g(Target::preset("tiles:4"));
    std::vector<Tensor> inputs;
    for (std::size_t i = 0; i < operands.size(); ++i) {
        Tensor t = g.addVariable(operands[i].type, operands[i].shape, "in" + std::to_string(i));
        // Spread each input differently, so elements meet across tiles.
        ops::mapLinearly(g, t, 1, record::idAt<TileId>(i % 4), 4 - i % 4);
        inputs.push_back(t);
    }
    prog::Sequence seq;
    const Tensor out = ops::map(g, seq, e, inputs, "map");
    Engine engine(g, seq);
    for (std::size_t i = 0; i < operands.size(); ++i) {
        engine.writeValues(inputs[i], operands[i].values);
    }
    engine.run();
    if (shapeOut) {
        *shapeOut = out.shape();
    }
    return engine.readValues(out);
}

std::vector<double> randomValues(std::size_t n, Type t, std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> real(lo, hi);
    std::vector<double> v(n);
    for (double& x : v) {
        switch (t) {
        case Type::Float:
            x = static_cast<float>(real(rng));
            break;
        case Type::Half:
            x = static_cast<float>(half(static_cast<float>(real(rng))));
            break;
        case Type::Bool:
            x = rng() % 2;
            break;
        default:
            x = std::round(real(rng));
            break;
        }
    }
    return v;
}

// The reference of a float operation: computed in float as a host program would.
using Reference = std::function<double(double, double)>;

struct OpCase {
    BinaryOp op;
    Type type;
    Reference reference;
    double lo, hi;    // operand range
    double tolerance; // relative, 0: exact
};

float f(double x) {
    return static_cast<float>(x);
}
std::int32_t i32(double x) {
    return static_cast<std::int32_t>(x);
}
std::uint32_t u32(double x) {
    return static_cast<std::uint32_t>(x);
}

} // namespace

Q_DECLARE_METATYPE(OpCase)

class TestEngineMap : public QObject {
    Q_OBJECT

private slots:
    void binaryOperators_data() {
        QTest::addColumn<OpCase>("c");
        auto row = [](const char* name, OpCase c) { QTest::newRow(name) << c; };
        row("ADD float", {BinaryOp::Add, Type::Float,
                          [](double a, double b) { return f(a) + f(b); }, -100, 100, 0});
        row("SUBTRACT float", {BinaryOp::Subtract, Type::Float,
                               [](double a, double b) { return f(a) - f(b); }, -100, 100, 0});
        row("MULTIPLY float", {BinaryOp::Multiply, Type::Float,
                               [](double a, double b) { return f(a) * f(b); }, -100, 100, 0});
        row("DIVIDE float", {BinaryOp::Divide, Type::Float,
                             [](double a, double b) { return f(a) / f(b); }, 0.5, 100, 0});
        row("POWER float", {BinaryOp::Power, Type::Float,
                            [](double a, double b) { return std::pow(f(a), f(b)); }, 0.5, 3, 1e-6});
        row("ATAN2 float",
            {BinaryOp::Atan2, Type::Float,
             [](double a, double b) { return std::atan2(f(a), f(b)); }, -3, 3, 1e-6});
        row("REMAINDER float",
            {BinaryOp::Remainder, Type::Float,
             [](double a, double b) { return std::fmod(f(a), f(b)); }, 1, 50, 0});
        row("MAXIMUM float", {BinaryOp::Maximum, Type::Float,
                              [](double a, double b) { return std::max(f(a), f(b)); }, -9, 9, 0});
        row("MINIMUM float", {BinaryOp::Minimum, Type::Float,
                              [](double a, double b) { return std::min(f(a), f(b)); }, -9, 9, 0});
        row("VARIANCE_TO_INV_STD_DEV float",
            {BinaryOp::VarianceToInvStdDev, Type::Float,
             [](double a, double b) { return 1.0f / std::sqrt(f(a) + f(b)); }, 0.1, 4, 1e-6});
        row("ADD half", {BinaryOp::Add, Type::Half,
                         [](double a, double b) { return float(half(f(a) + f(b))); }, -8, 8, 0});
        row("MULTIPLY half",
            {BinaryOp::Multiply, Type::Half,
             [](double a, double b) { return float(half(f(a) * f(b))); }, -8, 8, 0});
        row("ADD int", {BinaryOp::Add, Type::Int,
                        [](double a, double b) { return i32(a) + i32(b); }, -1000, 1000, 0});
        row("MULTIPLY int (wraps)",
            {BinaryOp::Multiply, Type::Int,
             [](double a, double b) {
                 return static_cast<std::int32_t>(static_cast<std::uint32_t>(i32(a)) *
                                                  static_cast<std::uint32_t>(i32(b)));
             },
             -200000, 200000, 0});
        row("DIVIDE int (truncates)",
            {BinaryOp::Divide, Type::Int, [](double a, double b) { return i32(a) / i32(b); }, 1,
             1000, 0});
        row("REMAINDER int", {BinaryOp::Remainder, Type::Int,
                              [](double a, double b) { return i32(a) % i32(b); }, 1, 1000, 0});
        row("SUBTRACT unsigned (wraps)",
            {BinaryOp::Subtract, Type::UnsignedInt,
             [](double a, double b) { return double(u32(a) - u32(b)); }, 0, 1000, 0});
        row("BITWISE_AND unsigned",
            {BinaryOp::BitwiseAnd, Type::UnsignedInt,
             [](double a, double b) { return double(u32(a) & u32(b)); }, 0, 65535, 0});
        row("BITWISE_XOR int",
            {BinaryOp::BitwiseXor, Type::Int,
             [](double a, double b) { return double(i32(a) ^ i32(b)); }, -999, 999, 0});
        row("BITWISE_XNOR unsigned",
            {BinaryOp::BitwiseXnor, Type::UnsignedInt,
             [](double a, double b) { return double(~(u32(a) ^ u32(b))); }, 0, 999, 0});
        row("SHIFT_LEFT unsigned",
            {BinaryOp::ShiftLeft, Type::UnsignedInt,
             [](double a, double b) { return double(u32(a) << u32(b)); }, 0, 20, 0});
        row("SHIFT_RIGHT int (logical)",
            {BinaryOp::ShiftRight, Type::Int,
             [](double a, double b) {
                 return double(std::bit_cast<std::int32_t>(std::bit_cast<std::uint32_t>(i32(a)) >>
                                                           u32(std::fabs(b))));
             },
             -20, 20, 0});
        row("SHIFT_RIGHT_SIGN_EXTEND int",
            {BinaryOp::ShiftRightSignExtend, Type::Int,
             [](double a, double b) { return double(i32(a) >> u32(std::fabs(b))); }, -20, 20, 0});
        row("LESS_THAN float", {BinaryOp::LessThan, Type::Float,
                                [](double a, double b) { return double(f(a) < f(b)); }, -3, 3, 0});
        row("GREATER_THAN_EQUAL int",
            {BinaryOp::GreaterThanEqual, Type::Int,
             [](double a, double b) { return double(i32(a) >= i32(b)); }, -3, 3, 0});
        row("EQUAL unsigned",
            {BinaryOp::Equal, Type::UnsignedInt,
             [](double a, double b) { return double(u32(a) == u32(b)); }, 0, 3, 0});
        row("NOT_EQUAL bool", {BinaryOp::NotEqual, Type::Bool,
                               [](double a, double b) { return double(a != b); }, 0, 1, 0});
        row("LOGICAL_AND bool",
            {BinaryOp::LogicalAnd, Type::Bool,
             [](double a, double b) { return double(a != 0 && b != 0); }, 0, 1, 0});
        row("LOGICAL_OR bool",
            {BinaryOp::LogicalOr, Type::Bool,
             [](double a, double b) { return double(a != 0 || b != 0); }, 0, 1, 0});
    }

    // a [3, 1, 5] against b [4, 1]: both broadcast to [3, 4, 5].
    void binaryOperators() {
        QFETCH(OpCase, c);
        std::mt19937 rng(42);
        Operand a{c.type, {3, 1, 5}, randomValues(15, c.type, rng, c.lo, c.hi)};
        Operand b{c.type, {4, 1}, randomValues(4, c.type, rng, c.lo, c.hi)};
        if (c.op == BinaryOp::ShiftRight || c.op == BinaryOp::ShiftRightSignExtend) {
            for (double& x : b.values) {
                x = std::fabs(x);
            }
        }
        Expression e;
        e.binary(c.op, e.placeholder(0), e.placeholder(1));
        std::vector<std::size_t> shape;
        const std::vector<double> got = runMap(e, {a, b}, &shape);
        QCOMPARE(shape, (std::vector<std::size_t>{3, 4, 5}));
        for (std::size_t i = 0; i < 3; ++i) {
            for (std::size_t j = 0; j < 4; ++j) {
                for (std::size_t k = 0; k < 5; ++k) {
                    const double want = c.reference(a.values[i * 5 + k], b.values[j]);
                    const double have = got[(i * 4 + j) * 5 + k];
                    const double bound = c.tolerance * std::max(1.0, std::fabs(want));
                    QVERIFY2(std::fabs(have - want) <= bound,
                             qPrintable(QStringLiteral("[%1,%2,%3]: %4, expected %5")
                                            .arg(i)
                                            .arg(j)
                                            .arg(k)
                                            .arg(have, 0, 'g', 10)
                                            .arg(want, 0, 'g', 10)));
                }
            }
        }
    }

    void unaryOperators() {
        struct U {
            UnaryOp op;
            Type type;
            std::function<double(double)> reference;
            double lo, hi, tolerance;
        };
        const std::vector<U> cases = {
            {UnaryOp::Exponent, Type::Float, [](double x) { return std::exp(f(x)); }, -5, 5, 1e-6},
            {UnaryOp::Logarithm, Type::Float, [](double x) { return std::log(f(x)); }, 0.1, 9,
             1e-6},
            {UnaryOp::Sqrt, Type::Float, [](double x) { return std::sqrt(f(x)); }, 0, 9, 0},
            {UnaryOp::Rsqrt, Type::Float, [](double x) { return 1.0f / std::sqrt(f(x)); }, 0.1, 9,
             1e-6},
            {UnaryOp::Tanh, Type::Float, [](double x) { return std::tanh(f(x)); }, -3, 3, 1e-6},
            {UnaryOp::Sigmoid, Type::Float,
             [](double x) { return 1.0f / (1.0f + std::exp(-f(x))); }, -6, 6, 1e-6},
            {UnaryOp::Negate, Type::Float, [](double x) { return -f(x); }, -6, 6, 0},
            {UnaryOp::Absolute, Type::Int, [](double x) { return std::abs(i32(x)); }, -60, 60, 0},
            {UnaryOp::Signum, Type::Float, [](double x) { return double((f(x) > 0) - (f(x) < 0)); },
             -2, 2, 0},
            {UnaryOp::Round, Type::Float, [](double x) { return std::round(f(x)); }, -9, 9, 0},
            {UnaryOp::Floor, Type::Half, [](double x) { return std::floor(f(x)); }, -9, 9, 0},
            {UnaryOp::Inverse, Type::Float, [](double x) { return 1.0f / f(x); }, 0.5, 9, 0},
            {UnaryOp::Square, Type::UnsignedInt, [](double x) { return double(u32(x) * u32(x)); },
             0, 99999, 0},
            {UnaryOp::BitwiseNot, Type::Int, [](double x) { return double(~i32(x)); }, -99, 99, 0},
            {UnaryOp::CountLeadingZeros, Type::UnsignedInt,
             [](double x) { return double(std::countl_zero(u32(x))); }, 0, 70000, 0},
            {UnaryOp::Popcount, Type::Int,
             [](double x) { return double(std::popcount(std::bit_cast<std::uint32_t>(i32(x)))); },
             -999, 999, 0},
            {UnaryOp::LogicalNot, Type::Bool, [](double x) { return double(x == 0); }, 0, 1, 0},
        };
        std::mt19937 rng(7);
        for (const U& u : cases) {
            Operand a{u.type, {2, 9}, randomValues(18, u.type, rng, u.lo, u.hi)};
            Expression e;
            e.unary(u.op, e.placeholder(0));
            const std::vector<double> got = runMap(e, {a});
            for (std::size_t i = 0; i < 18; ++i) {
                const double want = u.reference(a.values[i]);
                QVERIFY2(std::fabs(got[i] - want) <= u.tolerance * std::max(1.0, std::fabs(want)),
                         qPrintable(QStringLiteral("%1 of %2: %3, expected %4")
                                        .arg(name(u.op))
                                        .arg(a.values[i])
                                        .arg(got[i])
                                        .arg(want)));
            }
        }
    }

    void testsForNonFiniteValues() {
        Operand a{Type::Float,
                  {4},
                  {1.0, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN(), -2.0}};
        for (const auto& [op, want] :
             std::vector<std::pair<UnaryOp, std::vector<double>>>{{UnaryOp::IsFinite, {1, 0, 0, 1}},
                                                                  {UnaryOp::IsInf, {0, 1, 0, 0}},
                                                                  {UnaryOp::IsNaN, {0, 0, 1, 0}}}) {
            Expression e;
            e.unary(op, e.placeholder(0));
            std::vector<std::size_t> shape;
            QCOMPARE(runMap(e, {a}, &shape), want);
        }
    }

    // Tanh(Add(Square(_1), Mul(3, _2))): the constant takes float from _2.
    void nestedExpressionWithConstant() {
        std::mt19937 rng(3);
        Operand a{Type::Float, {16}, randomValues(16, Type::Float, rng, -1, 1)};
        Operand b{Type::Float, {16}, randomValues(16, Type::Float, rng, -1, 1)};
        Expression e;
        const auto sq = e.unary(UnaryOp::Square, e.placeholder(0));
        const auto m = e.binary(BinaryOp::Multiply, e.constant(3, Type::Int), e.placeholder(1));
        e.unary(UnaryOp::Tanh, e.binary(BinaryOp::Add, sq, m));
        QCOMPARE(e.toString(), std::string("TANH(ADD(SQUARE(_1),MULTIPLY(3,_2)))"));
        const std::vector<double> got = runMap(e, {a, b});
        for (std::size_t i = 0; i < 16; ++i) {
            // Rounded to float after each operator, as the device does.
            const float want = std::tanh(f(a.values[i]) * f(a.values[i]) + 3.0f * f(b.values[i]));
            QVERIFY(std::fabs(got[i] - want) <= 1e-6);
        }
    }

    // Select(_1, _2, _3 > 0) and Clamp(_1, -1, 1), casts that saturate.
    void ternaryOperatorsAndCasts() {
        Operand a{Type::Float, {5}, {-3, -0.5, 0, 0.5, 3}};
        Operand b{Type::Float, {5}, {10, 20, 30, 40, 50}};
        Operand c{Type::Int, {5}, {1, -1, 0, 2, -7}};
        Expression sel;
        sel.ternary(
            TernaryOp::Select, sel.placeholder(0), sel.placeholder(1),
            sel.binary(BinaryOp::GreaterThan, sel.placeholder(2), sel.constant(0, Type::Int)));
        QCOMPARE(runMap(sel, {a, b, c}), (std::vector<double>{-3, 20, 30, 0.5, 50}));
        Expression clamp;
        clamp.ternary(TernaryOp::Clamp, clamp.placeholder(0), clamp.constant(-1, Type::Float),
                      clamp.constant(1, Type::Float));
        QCOMPARE(runMap(clamp, {a}), (std::vector<double>{-1, -0.5, 0, 0.5, 1}));
        Operand big{Type::Float, {4}, {3e9, -3e9, -7.9, 7.9}};
        Expression toInt;
        toInt.cast(toInt.placeholder(0), Type::Int);
        QCOMPARE(runMap(toInt, {big}), (std::vector<double>{2147483647, -2147483648.0, -7, 7}));
        Expression toUnsigned;
        toUnsigned.cast(toUnsigned.placeholder(0), Type::UnsignedInt);
        QCOMPARE(runMap(toUnsigned, {big}), (std::vector<double>{3e9, 0, 0, 7}));
        Operand negative{Type::Int, {2}, {-1, 5}};
        Expression wrap;
        wrap.cast(wrap.placeholder(0), Type::UnsignedInt);
        QCOMPARE(runMap(wrap, {negative}), (std::vector<double>{4294967295.0, 5}));
    }

    void integerDivisionByZeroGivesZero() {
        Operand a{Type::Int, {3}, {7, -7, -2147483648.0}};
        Operand b{Type::Int, {3}, {0, 0, -1}};
        Expression e;
        e.binary(BinaryOp::Divide, e.placeholder(0), e.placeholder(1));
        QCOMPARE(runMap(e, {a, b}), (std::vector<double>{0, 0, -2147483648.0}));
    }

    // mapInPlace(_1 = _1 * 2 + _2) with _2 a row broadcast down the columns.
    void inPlaceAndWithOutput() {
        Graph g(Target::preset("tiles:4"));
        Tensor x = g.addVariable(Type::Float, {3, 4}, "x");
        Tensor row = g.addVariable(Type::Float, {4}, "row");
        Tensor out = g.addVariable(Type::Float, {3, 4}, "out");
        ops::mapLinearly(g, x);
        g.setTileMapping(row, TileId{3u});
        ops::mapLinearly(g, out, 1, TileId{1u}, 2);
        Expression e;
        e.binary(BinaryOp::Add,
                 e.binary(BinaryOp::Multiply, e.placeholder(0), e.constant(2, Type::Float)),
                 e.placeholder(1));
        prog::Sequence seq;
        ops::mapInPlace(g, seq, e, {x, row}, "axpy");
        Expression neg;
        neg.unary(UnaryOp::Negate, neg.placeholder(0));
        ops::mapWithOutput(g, seq, neg, {x}, out, "negate");
        g.createHostRead("x", x); // live to the end: read back below
        g.createHostRead("out", out);
        Engine engine(g, seq);
        std::vector<double> xv(12), rv = {1, 2, 3, 4};
        for (std::size_t i = 0; i < 12; ++i) {
            xv[i] = double(i);
        }
        engine.writeValues(x, xv);
        engine.writeValues(row, rv);
        engine.run();
        const std::vector<double> gotX = engine.readValues(x);
        const std::vector<double> gotOut = engine.readValues(out);
        for (std::size_t i = 0; i < 12; ++i) {
            QCOMPARE(gotX[i], 2.0 * double(i) + rv[i % 4]);
            QCOMPARE(gotOut[i], -gotX[i]);
        }
        // In place cannot grow the first operand.
        Tensor small = g.addVariable(Type::Float, {4}, "small");
        TESSERA_EXPECT_ERROR(Error, ops::mapInPlace(g, seq, e, {small, x}, "grow"),
                             (QStringList{"grow", "small", "{4}", "{3,4}"}));
    }

    void typeErrorsAsPopLibsReportsThem() {
        Graph g(Target::preset("tiles:4"));
        Tensor fl = g.addVariable(Type::Float, {4}, "fl");
        Tensor in = g.addVariable(Type::Int, {4}, "in");
        Tensor bo = g.addVariable(Type::Bool, {4}, "bo");
        Tensor wide = g.addVariable(Type::Float, {3}, "wide");
        for (const Tensor& t : {fl, in, bo, wide}) {
            ops::mapLinearly(g, t);
        }
        prog::Sequence seq;
        Expression add;
        add.binary(BinaryOp::Add, add.placeholder(0), add.placeholder(1));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, add, {fl, in}, "m"),
                             (QStringList{"ADD", "do not have the same type", "float", "int"}));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, add, {fl, wide}, "m"),
                             (QStringList{"{4}", "{3}", "broadcast"}));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, add, {fl}, "m"),
                             (QStringList{"Invalid placeholder _2"}));
        Expression sel;
        sel.ternary(TernaryOp::Select, sel.placeholder(0), sel.placeholder(0), sel.placeholder(1));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, sel, {fl, in}, "m"),
                             (QStringList{"condition argument of select"}));
        Expression exp;
        exp.unary(UnaryOp::Exponent, exp.placeholder(0));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, exp, {in}, "m"),
                             (QStringList{"EXPONENT", "not supported for type int"}));
        Expression both;
        both.binary(BinaryOp::LogicalAnd, both.placeholder(0), both.placeholder(1));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, both, {fl, fl}, "m"),
                             (QStringList{"LOGICAL_AND", "float"}));
        Expression constants;
        constants.binary(BinaryOp::Add, constants.constant(1, Type::Int),
                         constants.constant(2, Type::Int));
        TESSERA_EXPECT_ERROR(Error, ops::map(g, seq, constants, {fl}, "m"),
                             (QStringList{"Cannot infer type"}));
        // A comparison gives bool, whatever its operands.
        Expression lt;
        lt.binary(BinaryOp::LessThan, lt.placeholder(0), lt.constant(0.5, Type::Float));
        QCOMPARE(inferTypes(lt, {Type::Int}).resultType(), Type::Bool);
        QCOMPARE(inferTypes(lt, {Type::Int}).types[1], Type::Int); // the constant met an int
        Q_UNUSED(bo);
    }

    // Hand-derived from PopLibs' estimators (docs/engine.md): w = 8 bytes over
    // the first input's size; one operator costs 13 + ceil(n / w) * its
    // cycles a vector; a fused expression 13 + inputs * (n / w + n % w) * ops.
    void cycleFormula() {
        Expression e;
        e.binary(BinaryOp::Add, e.placeholder(0), e.placeholder(1));
        const TypedExpression fl = inferTypes(e, {Type::Float, Type::Float});
        QCOMPARE(mapCycles(fl, 8), std::uint64_t{13 + 4 * 1});
        QCOMPARE(mapCycles(fl, 9), std::uint64_t{13 + 5 * 1});
        const TypedExpression hf = inferTypes(e, {Type::Half, Type::Half});
        QCOMPARE(mapCycles(hf, 8), std::uint64_t{13 + 2 * 1});
        QCOMPARE(mapCycles(hf, 9), std::uint64_t{13 + 3 * 1});
        QCOMPARE(mapFlops(fl, 8), std::uint64_t{8});
        const TypedExpression in = inferTypes(e, {Type::Int, Type::Int});
        QCOMPARE(mapCycles(in, 8), std::uint64_t{13 + 4 * 1});
        QCOMPARE(mapFlops(in, 8), std::uint64_t{0});
        Expression ex;
        ex.unary(UnaryOp::Exponent, ex.placeholder(0));
        QCOMPARE(mapCycles(inferTypes(ex, {Type::Float}), 4), std::uint64_t{13 + 2 * 10});
        Expression dv;
        dv.binary(BinaryOp::Divide, dv.placeholder(0), dv.constant(3, Type::Float));
        QCOMPARE(mapCycles(inferTypes(dv, {Type::Half}), 10), std::uint64_t{13 + 3 * 4});
        // (_1 + _2) * _1 in float over 9 elements: 2 inputs, 2 operators,
        // 9 / 2 + 9 % 2 = 5 per input: 13 + 2 * 5 * 2.
        Expression fused;
        fused.binary(BinaryOp::Multiply,
                     fused.binary(BinaryOp::Add, fused.placeholder(0), fused.placeholder(1)),
                     fused.placeholder(0));
        QCOMPARE(mapCycles(inferTypes(fused, {Type::Float, Type::Float}), 9),
                 std::uint64_t{13 + 2 * 5 * 2});
        // The same in half over 9: 9 / 4 + 9 % 4 = 3 per input.
        QCOMPARE(mapCycles(inferTypes(fused, {Type::Half, Type::Half}), 9),
                 std::uint64_t{13 + 2 * 3 * 2});
        // A bare cast keeps popops::cast's cost: 16 + ceil(n / w_out) * (load + cast + store).
        Expression cast;
        cast.cast(cast.placeholder(0), Type::Half);
        QCOMPARE(mapCycles(inferTypes(cast, {Type::Float}), 8), std::uint64_t{16 + 2 * 3});
    }
};

QTEST_GUILESS_MAIN(TestEngineMap)
#include "tst_engine_map.moc"
