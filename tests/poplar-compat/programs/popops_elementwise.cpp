// popops element-wise operations as PopLibs defines them, property-tested:
// every named binary, unary and ternary operation in its three forms (a new
// tensor, InPlace, WithOutput) and with a scalar constant on either side, on
// random shapes with numpy broadcasting, random mappings and the types each
// operation takes; expression trees with placeholders, constants, casts and
// C++ operators; and the errors PopLibs throws. Every result is compared
// with a host reference computed here.
#include "popops_check.h"

#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <cstdint>
#include <functional>
#include <limits>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

namespace {

// The value a result of `type` holds: float rounding, 32-bit wrapping, bool.
double asType(const Type& type, double v) {
    if (type == FLOAT) {
        return static_cast<double>(static_cast<float>(v));
    }
    if (type == INT) {
        return static_cast<double>(
            static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(v))));
    }
    if (type == UNSIGNED_INT) {
        return static_cast<double>(static_cast<std::uint32_t>(static_cast<std::int64_t>(v)));
    }
    return v != 0 ? 1 : 0;
}

// Rounds to the nearest half (11 significant bits, ties to even; normal range).
double toHalf(double v) {
    if (v == 0) {
        return 0;
    }
    int e = 0;
    const double m = std::frexp(v, &e);
    return std::ldexp(std::nearbyint(std::ldexp(m, 11)), e - 11);
}

std::vector<std::size_t> randomShape(Rng& rng) {
    std::vector<std::size_t> shape(1 + rng.below(3));
    for (std::size_t i = 0; i < shape.size(); ++i) {
        shape[i] = 1 + rng.below(5);
    }
    return shape;
}

// A shape that broadcasts to `shape`: some dims 1, maybe fewer leading dims.
std::vector<std::size_t> broadcastable(Rng& rng, const std::vector<std::size_t>& shape) {
    std::vector<std::size_t> out(shape.begin() + rng.below(unsigned(shape.size()) + 1),
                                 shape.end());
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (rng.below(3) == 0) {
            out[i] = 1;
        }
    }
    return out;
}

// The flat index into an operand of `shape` of element `i` of `out`.
std::size_t sourceIndex(std::size_t i, const std::vector<std::size_t>& out,
                        const std::vector<std::size_t>& shape) {
    std::size_t index = 0, stride = 1;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const std::size_t od = out.size() - 1 - d, sd = shape.size() - 1 - d;
        std::size_t outStride = 1;
        for (std::size_t k = od + 1; k < out.size(); ++k) {
            outStride *= out[k];
        }
        const std::size_t coord = (i / outStride) % out[od];
        index += (shape[sd] == 1 ? 0 : coord) * stride;
        stride *= shape[sd];
    }
    return index;
}

std::vector<double> values(Rng& rng, const Type& type, std::size_t n, double lo, double hi,
                           bool nonZero = false) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        do {
            v[i] = type == FLOAT  ? asType(FLOAT, rng.uniform(lo, hi))
                   : type == BOOL ? double(rng.below(2))
                                  : double(rng.between(int(lo), int(hi)));
        } while (nonZero && std::fabs(v[i]) < 0.25);
    }
    return v;
}

typedef std::function<double(double, double)> Ref2;
typedef std::function<double(double)> Ref1;

struct Operands {
    std::vector<std::size_t> out, sa, sb;
    std::vector<double> a, b;
};

std::vector<double> reference(const Operands& o, const Ref2& f, const Type& resultType) {
    std::vector<double> r(count(o.out));
    for (std::size_t i = 0; i < r.size(); ++i) {
        r[i] = asType(resultType,
                      f(o.a[sourceIndex(i, o.out, o.sa)], o.b[sourceIndex(i, o.out, o.sb)]));
    }
    return r;
}

// A binary operation under test: its forms, its reference, its operand ranges.
struct Binary {
    std::string name;
    std::function<Tensor(Graph&, const Tensor&, const Tensor&, Sequence&)> call;
    std::function<void(Graph&, const Tensor&, const Tensor&, Sequence&)> inPlace;
    std::function<void(Graph&, const Tensor&, const Tensor&, const Tensor&, Sequence&)> withOutput;
    std::function<Tensor(Graph&, const Tensor&, double, Sequence&)> scalarRight;
    std::function<Tensor(Graph&, double, const Tensor&, Sequence&)> scalarLeft;
    Ref2 ref;
    double lo, hi, blo, bhi;
    bool bNonZero, givesBool;
};

// The scalar overloads take the host type matching the tensor's.
#define SCALAR_CALL(expr_float, expr_int, expr_unsigned, expr_bool, type)                          \
    ((type) == FLOAT          ? (expr_float)                                                       \
     : (type) == INT          ? (expr_int)                                                         \
     : (type) == UNSIGNED_INT ? (expr_unsigned)                                                    \
                              : (expr_bool))

#define BINARY(fn)                                                                                 \
    Binary b_##fn;                                                                                 \
    b_##fn.name = #fn;                                                                             \
    b_##fn.call = [](Graph& g, const Tensor& a, const Tensor& b, Sequence& p) {                    \
        return popops::fn(g, a, b, p, #fn);                                                        \
    };                                                                                             \
    b_##fn.inPlace = [](Graph& g, const Tensor& a, const Tensor& b, Sequence& p) {                 \
        popops::fn##InPlace(g, a, b, p);                                                           \
    };                                                                                             \
    b_##fn.withOutput = [](Graph& g, const Tensor& a, const Tensor& b, const Tensor& o,            \
                           Sequence& p) { popops::fn##WithOutput(g, a, b, o, p); };                \
    b_##fn.scalarRight = [](Graph& g, const Tensor& a, double v, Sequence& p) {                    \
        const Type t = a.elementType();                                                            \
        return SCALAR_CALL(popops::fn(g, a, float(v), p), popops::fn(g, a, int(v), p),             \
                           popops::fn(g, a, unsigned(v), p), popops::fn(g, a, v != 0, p), t);      \
    };                                                                                             \
    b_##fn.scalarLeft = [](Graph& g, double v, const Tensor& b, Sequence& p) {                     \
        const Type t = b.elementType();                                                            \
        return SCALAR_CALL(popops::fn(g, float(v), b, p), popops::fn(g, int(v), b, p),             \
                           popops::fn(g, unsigned(v), b, p), popops::fn(g, v != 0, b, p), t);      \
    };                                                                                             \
    b_##fn.lo = -8;                                                                                \
    b_##fn.hi = 8;                                                                                 \
    b_##fn.blo = -8;                                                                               \
    b_##fn.bhi = 8;                                                                                \
    b_##fn.bNonZero = false;                                                                       \
    b_##fn.givesBool = false

void testBinary(Checker& c, const Binary& op, const Type& type) {
    Rng& rng = c.rng;
    Graph& g = c.graph;
    const std::string group = "binary " + op.name + " " + type.toString();
    const Type result = op.givesBool ? BOOL : type;
    for (int trial = 0; trial < 3; ++trial) {
        Operands o;
        o.out = randomShape(rng);
        o.sa = o.out;
        o.sb = broadcastable(rng, o.out);
        if (trial == 1) {
            std::swap(o.sa, o.sb); // the first operand broadcasts
        }
        o.a = values(rng, type, count(o.sa), op.lo, op.hi);
        o.b = values(rng, type, count(o.sb), op.blo, op.bhi, op.bNonZero);
        const Tensor a = c.constant(type, o.sa, o.a);
        const Tensor b = c.constant(type, o.sb, o.b);
        const std::vector<double> want = reference(o, op.ref, result);
        c.expect(group, "new " + shapeText(o.sa) + " " + shapeText(o.sb), op.call(g, a, b, c.prog),
                 want);
        const Tensor out = g.addVariable(result, o.out);
        c.place(out);
        op.withOutput(g, a, b, out, c.prog);
        c.expect(group, "WithOutput", out, want);
        if (trial != 1 && !op.givesBool) {
            const Tensor x = c.variable(type, o.sa, o.a);
            op.inPlace(g, x, b, c.prog);
            c.expect(group, "InPlace", x, want);
        }
        // A scalar constant on either side.
        const double k = values(rng, type, 1, op.blo, op.bhi, true)[0];
        Operands right = o;
        right.out = o.sa;
        right.sb = std::vector<std::size_t>();
        right.b = std::vector<double>(1, k);
        c.expect(group, "tensor op constant", op.scalarRight(g, a, k, c.prog),
                 reference(right, op.ref, result));
        Operands left = o;
        left.out = o.sb;
        left.sa = std::vector<std::size_t>();
        left.a = std::vector<double>(1, op.bNonZero ? o.a[0] : k);
        if (!op.bNonZero) {
            c.expect(group, "constant op tensor", op.scalarLeft(g, k, b, c.prog),
                     reference(left, op.ref, result));
        }
    }
}

double cmp(bool v) {
    return v ? 1 : 0;
}

std::uint32_t u(double v) {
    return static_cast<std::uint32_t>(static_cast<std::int64_t>(v));
}

void binaries(Checker& c) {
    BINARY(add);
    b_add.ref = [](double a, double b) { return a + b; };
    BINARY(sub);
    b_sub.ref = [](double a, double b) { return a - b; };
    BINARY(mul);
    b_mul.ref = [](double a, double b) { return a * b; };
    BINARY(div);
    b_div.bNonZero = true;
    BINARY(max);
    b_max.ref = [](double a, double b) { return std::max(a, b); };
    BINARY(min);
    b_min.ref = [](double a, double b) { return std::min(a, b); };
    BINARY(rem);
    b_rem.bNonZero = true;
    BINARY(pow);
    b_pow.lo = 0.25;
    b_pow.hi = 3;
    b_pow.blo = -2;
    b_pow.bhi = 2;
    b_pow.ref = [](double a, double b) { return std::pow(float(a), float(b)); };
    BINARY(atan2);
    b_atan2.ref = [](double a, double b) { return std::atan2(a, b); };
    BINARY(varianceToInvStdDev);
    b_varianceToInvStdDev.lo = 0.1;
    b_varianceToInvStdDev.blo = 0.01;
    b_varianceToInvStdDev.bhi = 0.5;
    b_varianceToInvStdDev.ref = [](double v, double e) { return 1 / std::sqrt(v + e); };
    BINARY(invStdDevToVariance);
    b_invStdDevToVariance.lo = 0.5;
    b_invStdDevToVariance.hi = 3;
    b_invStdDevToVariance.blo = 0.01;
    b_invStdDevToVariance.bhi = 0.5;
    b_invStdDevToVariance.ref = [](double s, double e) { return 1 / (s * s) - e; };
    BINARY(eq);
    b_eq.ref = [](double a, double b) { return cmp(a == b); };
    b_eq.lo = b_eq.blo = -2;
    b_eq.hi = b_eq.bhi = 2;
    BINARY(neq);
    b_neq.ref = [](double a, double b) { return cmp(a != b); };
    b_neq.lo = b_neq.blo = -2;
    b_neq.hi = b_neq.bhi = 2;
    BINARY(gt);
    b_gt.ref = [](double a, double b) { return cmp(a > b); };
    BINARY(gteq);
    b_gteq.ref = [](double a, double b) { return cmp(a >= b); };
    b_gteq.lo = b_gteq.blo = -2;
    b_gteq.hi = b_gteq.bhi = 2;
    BINARY(lt);
    b_lt.ref = [](double a, double b) { return cmp(a < b); };
    BINARY(lteq);
    b_lteq.ref = [](double a, double b) { return cmp(a <= b); };
    b_lteq.lo = b_lteq.blo = -2;
    b_lteq.hi = b_lteq.bhi = 2;
    BINARY(bitwiseAnd);
    b_bitwiseAnd.ref = [](double a, double b) { return double(u(a) & u(b)); };
    b_bitwiseAnd.lo = b_bitwiseAnd.blo = -100000;
    b_bitwiseAnd.hi = b_bitwiseAnd.bhi = 100000;
    BINARY(bitwiseOr);
    b_bitwiseOr.ref = [](double a, double b) { return double(u(a) | u(b)); };
    BINARY(bitwiseXor);
    b_bitwiseXor.ref = [](double a, double b) { return double(u(a) ^ u(b)); };
    BINARY(bitwiseXnor);
    b_bitwiseXnor.ref = [](double a, double b) { return double(std::uint32_t(~(u(a) ^ u(b)))); };
    BINARY(shiftLeft);
    b_shiftLeft.ref = [](double a, double b) { return double(std::uint32_t(u(a) << u(b))); };
    b_shiftLeft.blo = 0;
    b_shiftLeft.bhi = 31;
    BINARY(shiftRight);
    b_shiftRight.ref = [](double a, double b) { return double(u(a) >> u(b)); };
    b_shiftRight.blo = 0;
    b_shiftRight.bhi = 31;
    BINARY(shiftRightSignExtend);
    b_shiftRightSignExtend.ref = [](double a, double b) {
        return double(static_cast<std::int32_t>(u(a)) >> u(b));
    };
    b_shiftRightSignExtend.blo = 0;
    b_shiftRightSignExtend.bhi = 31;
    BINARY(logicalAnd);
    b_logicalAnd.ref = [](double a, double b) { return cmp(a != 0 && b != 0); };
    BINARY(logicalOr);
    b_logicalOr.ref = [](double a, double b) { return cmp(a != 0 || b != 0); };

    for (Binary* op : {&b_eq, &b_neq, &b_gt, &b_gteq, &b_lt, &b_lteq}) {
        op->givesBool = true;
    }
    b_logicalAnd.givesBool = b_logicalOr.givesBool = false; // bool in, bool out
    // Float: the reference rounds each result to float.
    b_div.ref = [](double a, double b) { return a / b; };
    b_rem.ref = [](double a, double b) { return std::fmod(a, b); };
    for (Binary* op : {&b_add, &b_sub, &b_mul, &b_div, &b_max, &b_min, &b_rem, &b_pow, &b_atan2,
                       &b_varianceToInvStdDev, &b_invStdDevToVariance, &b_eq, &b_neq, &b_gt,
                       &b_gteq, &b_lt, &b_lteq}) {
        testBinary(c, *op, FLOAT);
    }
    // Integers: C++'s truncating division and remainder, 32-bit wrapping.
    b_div.ref = [](double a, double b) { return double(std::int64_t(a) / std::int64_t(b)); };
    b_rem.ref = [](double a, double b) { return double(std::int64_t(a) % std::int64_t(b)); };
    for (Binary* op : {&b_add, &b_sub, &b_mul, &b_div, &b_max, &b_min, &b_rem, &b_eq, &b_gt,
                       &b_bitwiseAnd, &b_bitwiseOr, &b_bitwiseXor, &b_bitwiseXnor, &b_shiftLeft,
                       &b_shiftRight, &b_shiftRightSignExtend}) {
        testBinary(c, *op, INT);
    }
    b_div.lo = b_rem.lo = b_max.lo = b_min.lo = b_add.lo = b_mul.lo = 0;
    b_div.blo = b_rem.blo = b_max.blo = b_min.blo = b_add.blo = b_mul.blo = 0;
    b_bitwiseAnd.lo = b_bitwiseAnd.blo = b_lteq.lo = b_lteq.blo = 0;
    b_div.bNonZero = b_rem.bNonZero = true;
    for (Binary* op : {&b_add, &b_mul, &b_div, &b_rem, &b_max, &b_min, &b_lteq, &b_bitwiseAnd,
                       &b_shiftRightSignExtend, &b_shiftRight}) {
        testBinary(c, *op, UNSIGNED_INT);
    }
    for (Binary* op : {&b_logicalAnd, &b_logicalOr, &b_eq, &b_neq}) {
        testBinary(c, *op, BOOL);
    }
}

// A unary operation: its three forms and its reference.
struct Unary {
    std::string name;
    std::function<Tensor(Graph&, const Tensor&, Sequence&)> call;
    std::function<void(Graph&, const Tensor&, Sequence&)> inPlace;
    std::function<void(Graph&, const Tensor&, const Tensor&, Sequence&)> withOutput;
    Ref1 ref;
    double lo, hi;
    bool givesBool;
};

#define UNARY_COMMON(fn, lo_, hi_, ref_)                                                           \
    Unary u_##fn;                                                                                  \
    u_##fn.name = #fn;                                                                             \
    u_##fn.call = [](Graph& g, const Tensor& a, Sequence& p) { return popops::fn(g, a, p); };      \
    u_##fn.withOutput = [](Graph& g, const Tensor& a, const Tensor& o, Sequence& p) {              \
        popops::fn##WithOutput(g, a, o, p);                                                        \
    };                                                                                             \
    u_##fn.ref = ref_;                                                                             \
    u_##fn.lo = lo_;                                                                               \
    u_##fn.hi = hi_;                                                                               \
    u_##fn.givesBool = false
#define UNARY(fn, lo_, hi_, ref_)                                                                  \
    UNARY_COMMON(fn, lo_, hi_, ref_);                                                              \
    u_##fn.inPlace = [](Graph& g, const Tensor& a, Sequence& p) { popops::fn##InPlace(g, a, p); }

void testUnary(Checker& c, const Unary& op, const Type& type, double tol) {
    const std::string group = "unary " + op.name + " " + type.toString();
    const Type result = op.givesBool ? BOOL : type;
    for (int trial = 0; trial < 2; ++trial) {
        const std::vector<std::size_t> shape = randomShape(c.rng);
        const std::vector<double> x = values(c.rng, type, count(shape), op.lo, op.hi);
        std::vector<double> want(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            want[i] = asType(result, op.ref(x[i]));
        }
        const Tensor a = c.constant(type, shape, x);
        c.expect(group, "new", op.call(c.graph, a, c.prog), want, tol);
        const Tensor out = c.graph.addVariable(result, shape);
        c.place(out);
        op.withOutput(c.graph, a, out, c.prog);
        c.expect(group, "WithOutput", out, want, tol);
        if (op.inPlace) {
            const Tensor v = c.variable(type, shape, x);
            op.inPlace(c.graph, v, c.prog);
            c.expect(group, "InPlace", v, want, tol);
        }
    }
}

double clz(double v) {
    std::uint32_t x = u(v);
    double n = 0;
    for (std::uint32_t bit = 0x80000000u; bit != 0 && (x & bit) == 0; bit >>= 1) {
        ++n;
    }
    return n;
}

double popcount(double v) {
    std::uint32_t x = u(v);
    double n = 0;
    for (; x != 0; x &= x - 1) {
        ++n;
    }
    return n;
}

void unaries(Checker& c) {
    const double t = 2e-6; // transcendental functions: a few float ulps
    UNARY(abs, -5, 5, [](double x) { return std::fabs(x); });
    UNARY(asin, -0.9, 0.9, [](double x) { return std::asin(x); });
    UNARY(cbrt, -8, 8, [](double x) { return std::cbrt(x); });
    UNARY(ceil, -5, 5, [](double x) { return std::ceil(x); });
    UNARY(cos, -3, 3, [](double x) { return std::cos(x); });
    UNARY(erf, -2, 2, [](double x) { return std::erf(x); });
    UNARY(exp, -3, 3, [](double x) { return std::exp(x); });
    UNARY(expm1, -1, 1, [](double x) { return std::expm1(x); });
    UNARY(floor, -5, 5, [](double x) { return std::floor(x); });
    UNARY(inv, 0.5, 4, [](double x) { return 1 / x; });
    UNARY(log, 0.1, 10, [](double x) { return std::log(x); });
    UNARY(log1p, -0.5, 3, [](double x) { return std::log1p(x); });
    UNARY(neg, -5, 5, [](double x) { return -x; });
    UNARY(signum, -3, 3, [](double x) { return double((x > 0) - (x < 0)); });
    UNARY(sin, -3, 3, [](double x) { return std::sin(x); });
    UNARY(tan, -1, 1, [](double x) { return std::tan(x); });
    UNARY(tanh, -3, 3, [](double x) { return std::tanh(x); });
    UNARY(round, -5, 5, [](double x) { return std::round(x); });
    UNARY(sqrt, 0, 9, [](double x) { return std::sqrt(x); });
    UNARY(square, -5, 5, [](double x) { return x * x; });
    UNARY(sigmoid, -4, 4, [](double x) { return 1 / (1 + std::exp(-x)); });
    UNARY(rsqrt, 0.25, 9, [](double x) { return 1 / std::sqrt(x); });
    UNARY_COMMON(isFinite, -5, 5, [](double) { return 1.0; });
    u_isFinite.givesBool = true;
    for (Unary* op :
         {&u_abs,   &u_asin,  &u_cbrt, &u_ceil,   &u_cos,     &u_erf,    &u_exp,     &u_expm1,
          &u_floor, &u_inv,   &u_log,  &u_log1p,  &u_neg,     &u_signum, &u_sin,     &u_tan,
          &u_tanh,  &u_round, &u_sqrt, &u_square, &u_sigmoid, &u_rsqrt,  &u_isFinite}) {
        testUnary(c, *op, FLOAT, t);
    }
    UNARY(bitwiseNot, -1000, 1000, [](double x) { return double(~u(x)); });
    UNARY(countLeadingZeros, 0, 100000, clz);
    UNARY(popcount, -100000, 100000, popcount);
    for (Unary* op :
         {&u_abs, &u_neg, &u_square, &u_signum, &u_bitwiseNot, &u_countLeadingZeros, &u_popcount}) {
        testUnary(c, *op, INT, 0);
    }
    UNARY(logicalNot, 0, 1, [](double x) { return cmp(x == 0); });
    testUnary(c, u_logicalNot, BOOL, 0);
}

void ternaries(Checker& c) {
    for (int trial = 0; trial < 3; ++trial) {
        const Type type = trial == 2 ? INT : FLOAT;
        Operands o;
        o.out = randomShape(c.rng);
        const std::vector<std::size_t> sc = broadcastable(c.rng, o.out);
        o.sa = o.out;
        o.sb = broadcastable(c.rng, o.out);
        o.a = values(c.rng, type, count(o.sa), -5, 5);
        o.b = values(c.rng, type, count(o.sb), -5, 5);
        const std::vector<double> cond = values(c.rng, BOOL, count(sc), 0, 1);
        const Tensor a = c.constant(type, o.sa, o.a);
        const Tensor b = c.constant(type, o.sb, o.b);
        const Tensor k = c.constant(BOOL, sc, cond);
        std::vector<double> want(count(o.out));
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i] =
                cond[sourceIndex(i, o.out, sc)] != 0 ? o.a[i] : o.b[sourceIndex(i, o.out, o.sb)];
        }
        const std::string sel = "ternary select " + type.toString();
        c.expect(sel, "new", popops::select(c.graph, a, b, k, c.prog), want);
        const Tensor out = c.graph.addVariable(type, o.out);
        c.place(out);
        popops::selectWithOutput(c.graph, a, b, k, out, c.prog);
        c.expect(sel, "WithOutput", out, want);
        const Tensor x = c.variable(type, o.sa, o.a);
        popops::selectInPlace(c.graph, x, b, k, c.prog);
        c.expect(sel, "InPlace", x, want);

        // clamp(values, lower, upper) with lower <= upper.
        std::vector<double> lo = values(c.rng, type, count(o.sb), -3, 0);
        std::vector<double> hi = values(c.rng, type, count(sc), 0, 3);
        const Tensor tl = c.constant(type, o.sb, lo);
        const Tensor th = c.constant(type, sc, hi);
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i] = std::min(std::max(o.a[i], lo[sourceIndex(i, o.out, o.sb)]),
                               hi[sourceIndex(i, o.out, sc)]);
        }
        const std::string cl = "ternary clamp " + type.toString();
        c.expect(cl, "new", popops::clamp(c.graph, a, tl, th, c.prog), want);
        const Tensor out2 = c.graph.addVariable(type, o.out);
        c.place(out2);
        popops::clampWithOutput(c.graph, a, tl, th, out2, c.prog);
        c.expect(cl, "WithOutput", out2, want);
        const Tensor y = c.variable(type, o.sa, o.a);
        popops::clampInPlace(c.graph, y, tl, th, c.prog);
        c.expect(cl, "InPlace", y, want);
    }
}

// Expression trees against a host evaluation of the same formula.
void expressions(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 4; ++trial) {
        const std::vector<std::size_t> shape = randomShape(c.rng);
        const std::vector<std::size_t> sb = broadcastable(c.rng, shape);
        const std::vector<double> x = values(c.rng, FLOAT, count(shape), -2, 2);
        const std::vector<double> y = values(c.rng, FLOAT, count(sb), 0.5, 2);
        const std::vector<double> n = values(c.rng, INT, count(shape), -50, 50);
        const Tensor tx = c.constant(FLOAT, shape, x);
        const Tensor ty = c.constant(FLOAT, sb, y);
        const Tensor tn = c.constant(INT, shape, n);
        std::vector<double> w1(x.size()), w2(x.size()), w3(x.size()), w4(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double yi = y[sourceIndex(i, shape, sb)];
            // Tanh((x * 2 + y) / y): each operator rounds to float.
            const float f1 = toFloat(toFloat(toFloat(x[i] * 2) + yi) / yi);
            w1[i] = toFloat(std::tanh(f1));
            // Select(x, -x, x > 0.5 && !(y < 1))
            w2[i] = (x[i] > 0.5 && !(yi < 1)) ? x[i] : -x[i];
            // Cast(n, FLOAT) * 0.5 + x
            w3[i] = toFloat(toFloat(n[i] * 0.5) + x[i]);
            // (n % 7) << 2 | 1, on ints
            w4[i] = double(std::int32_t((std::uint32_t(std::int32_t(n[i]) % 7) << 2) | 1u));
        }
        c.expect("map expressions", "Tanh((_1 * 2 + _2) / _2)",
                 popops::map(g, pe::Tanh((pe::_1 * 2.0f + pe::_2) / pe::_2), {tx, ty}, c.prog), w1,
                 2e-6);
        c.expect("map expressions", "Select",
                 popops::map(g, pe::Select(pe::_1, -pe::_1, pe::_1 > 0.5f && !(pe::_2 < 1.0f)),
                             {tx, ty}, c.prog),
                 w2);
        c.expect("map expressions", "Cast",
                 popops::map(g, pe::Cast(pe::_3, FLOAT) * 0.5f + pe::_1, {tx, ty, tn}, c.prog), w3);
        c.expect("map expressions", "integer operators",
                 popops::map(g, ((pe::_1 % 7) << 2) | 1, {tn}, c.prog), w4);
        // In place and with an output, built at run time through Any.
        pe::Any e = pe::_1;
        e = pe::Add(e, pe::Mul(pe::_2, pe::Const(3.0f)));
        std::vector<double> w5(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            w5[i] = toFloat(x[i] + toFloat(y[sourceIndex(i, shape, sb)] * 3));
        }
        const Tensor v = c.variable(FLOAT, shape, x);
        popops::mapInPlace(g, e, {v, ty}, c.prog);
        c.expect("map expressions", "mapInPlace(Any)", v, w5);
        const Tensor out = g.addVariable(FLOAT, shape);
        c.place(out);
        popops::mapWithOutput(g, e, {tx, ty}, out, c.prog);
        c.expect("map expressions", "mapWithOutput", out, w5);
        const std::vector<Tensor> two = popops::map(
            g, std::vector<pe::Any>{pe::Any(pe::_1), pe::Any(pe::Neg(pe::_1))}, {tx}, c.prog);
        std::vector<double> negx(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            negx[i] = -x[i];
        }
        c.expect("map expressions", "several expressions [0]", two[0], x);
        c.expect("map expressions", "several expressions [1]", two[1], negx);
        // A ConstHalf meeting half tensors.
        const Tensor h = popops::cast(g, tx, HALF, c.prog);
        std::vector<double> w6(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            w6[i] = toHalf(toHalf(x[i]) + 1);
        }
        c.expect("map expressions", "ConstHalf",
                 popops::map(g, pe::_1 + pe::ConstHalf(1.0f), {h}, c.prog), w6);
    }
    c.note("map expressions");
}

// Expression utilities: names, deep equality, printing.
void exprObjects(Checker& c) {
    const pe::Add a(pe::_1, pe::Const(2));
    const pe::Add b(pe::_1, pe::Const(2));
    const pe::Add d(pe::_1, pe::Const(3));
    std::ostringstream printed;
    printed << pe::Max(pe::_2, pe::_1);
    const pe::Expr& asExpr = a;
    const bool ok = pe::deepEquals(a, b) && !pe::deepEquals(a, d) && asExpr.isA<pe::BinaryOp>() &&
                    asExpr.getAs<pe::BinaryOp>()->getOpType() == pe::BinaryOpType::ADD &&
                    !asExpr.isA<pe::UnaryOp>() && printed.str() == "MAXIMUM(_2, _1)" &&
                    a.clone()->deepEquals(a);
    if (ok) {
        c.note("expression objects (deepEquals, isA, getAs, clone, print)");
    } else {
        c.fail("expression objects (deepEquals, isA, getAs, clone, print)",
               "printed '" + printed.str() + "'");
    }
}

// The errors PopLibs throws, caught as the types it throws.
void errors(Checker& c) {
    Graph& g = c.graph;
    const Tensor f = c.constant(FLOAT, {4}, {1, 2, 3, 4});
    const Tensor i = c.constant(INT, {4}, {1, 2, 3, 4});
    const Tensor bools = c.constant(BOOL, {4}, {1, 0, 1, 0});
    const Tensor f3 = c.constant(FLOAT, {3}, {1, 2, 3});
    Sequence scratch;
    struct Case {
        const char* what;
        std::function<void()> call;
    };
    const Case cases[] = {
        {"add(float, int)", [&] { popops::add(g, f, i, scratch); }},
        {"exp(int)", [&] { popops::exp(g, i, scratch); }},
        {"bitwiseAnd(float, float)", [&] { popops::bitwiseAnd(g, f, f, scratch); }},
        {"logicalAnd(float, float)", [&] { popops::logicalAnd(g, f, f, scratch); }},
        {"add(bool, bool)", [&] { popops::add(g, bools, bools, scratch); }},
        {"add({4}, {3}) (shapes do not broadcast)", [&] { popops::add(g, f, f3, scratch); }},
        {"select with a float condition", [&] { popops::select(g, f, f, f, scratch); }},
        {"map with _3 of two tensors",
         [&] {
             popops::map(g, pe::_3 + 1.0f, {f, f}, scratch);
         }},
        {"mapInPlace into a tensor that would grow",
         [&] { popops::addInPlace(g, c.constant(FLOAT, {1}, {0}), f, scratch); }},
        {"mapWithOutput of the wrong type",
         [&] { popops::mapWithOutput(g, pe::_1 + pe::_1, {f}, i, scratch); }},
    };
    for (const Case& k : cases) {
        try {
            k.call();
            c.fail("errors", std::string(k.what) + ": no exception");
        } catch (const poputil::poplibs_error&) {
            std::cout << "caught poplibs_error: " << k.what << "\n";
        }
    }
    try {
        popops::add(g, i, 1.5f, scratch);
        c.fail("errors", "add(int tensor, 1.5f): no exception");
    } catch (const std::runtime_error& e) {
        std::cout << "caught runtime_error: add(int tensor, 1.5f): " << e.what() << "\n";
    }
    c.note("errors");
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    Sequence prog;
    Rng rng(20250101);
    Checker c(graph, prog, rng);
    errors(c);
    exprObjects(c);
    binaries(c);
    unaries(c);
    ternaries(c);
    expressions(c);
    return c.run(device);
}
