#include "engine/ops/MapEval.h"

#include "engine/core/Half.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

namespace tessera::ops::expr {

namespace {

constexpr std::size_t kBlock = 256; // elements evaluated together, node by node

// Rounds to what a value of `t` can hold.
double roundTo(Type t, double v) {
    return t == Type::Half ? static_cast<double>(halfBitsToFloat(floatToHalfBits(float(v))))
                           : static_cast<double>(static_cast<float>(v));
}

std::int64_t wrapTo(Type t, std::int64_t v) {
    switch (t) {
    case Type::Int:
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    case Type::UnsignedInt:
        return static_cast<std::int64_t>(static_cast<std::uint32_t>(v));
    default: // bool
        return v != 0 ? 1 : 0;
    }
}

// Floating to integer as a saturating, truncating conversion (NaN is 0).
std::int64_t toInteger(Type t, double v) {
    if (std::isnan(v)) {
        return 0;
    }
    const double lo = t == Type::Int ? -2147483648.0 : 0.0;
    const double hi = t == Type::Int ? 2147483647.0 : 4294967295.0;
    if (t == Type::Bool) {
        return v != 0.0 ? 1 : 0;
    }
    return static_cast<std::int64_t>(std::trunc(std::clamp(v, lo, hi)));
}

// Scratch columns of one evaluation: a double and an int64 column per node
// (only the one of the node's kind is used).
struct Columns {
    std::vector<double> real;
    std::vector<std::int64_t> whole;
    double* f(std::size_t node) { return real.data() + node * kBlock; }
    std::int64_t* i(std::size_t node) { return whole.data() + node * kBlock; }
};

void load(Type t, const std::byte* p, std::size_t n, double* f, std::int64_t* w) {
    switch (t) {
    case Type::Float:
        for (std::size_t j = 0; j < n; ++j) {
            float v;
            std::memcpy(&v, p + j * 4, 4);
            f[j] = v;
        }
        break;
    case Type::Half:
        for (std::size_t j = 0; j < n; ++j) {
            std::uint16_t bits;
            std::memcpy(&bits, p + j * 2, 2);
            f[j] = halfBitsToFloat(bits);
        }
        break;
    case Type::Int:
        for (std::size_t j = 0; j < n; ++j) {
            std::int32_t v;
            std::memcpy(&v, p + j * 4, 4);
            w[j] = v;
        }
        break;
    case Type::UnsignedInt:
        for (std::size_t j = 0; j < n; ++j) {
            std::uint32_t v;
            std::memcpy(&v, p + j * 4, 4);
            w[j] = v;
        }
        break;
    case Type::Bool:
        for (std::size_t j = 0; j < n; ++j) {
            w[j] = p[j] != std::byte{0} ? 1 : 0;
        }
        break;
    }
}

void store(Type t, std::byte* p, std::size_t n, const double* f, const std::int64_t* w) {
    for (std::size_t j = 0; j < n; ++j) {
        switch (t) {
        case Type::Float: {
            const float v = static_cast<float>(f[j]);
            std::memcpy(p + j * 4, &v, 4);
            break;
        }
        case Type::Half: {
            const std::uint16_t bits = floatToHalfBits(static_cast<float>(f[j]));
            std::memcpy(p + j * 2, &bits, 2);
            break;
        }
        case Type::Int: {
            const auto v = static_cast<std::int32_t>(w[j]);
            std::memcpy(p + j * 4, &v, 4);
            break;
        }
        case Type::UnsignedInt: {
            const auto v = static_cast<std::uint32_t>(w[j]);
            std::memcpy(p + j * 4, &v, 4);
            break;
        }
        case Type::Bool:
            p[j] = w[j] != 0 ? std::byte{1} : std::byte{0};
            break;
        }
    }
}

double unaryReal(UnaryOp op, double x) {
    switch (op) {
    case UnaryOp::Absolute:
        return std::fabs(x);
    case UnaryOp::Asin:
        return std::asin(x);
    case UnaryOp::Cbrt:
        return std::cbrt(x);
    case UnaryOp::Ceil:
        return std::ceil(x);
    case UnaryOp::Cos:
        return std::cos(x);
    case UnaryOp::Erf:
        return std::erf(x);
    case UnaryOp::Exponent:
        return std::exp(x);
    case UnaryOp::ExponentMinusOne:
        return std::expm1(x);
    case UnaryOp::Floor:
        return std::floor(x);
    case UnaryOp::Inverse:
        return 1.0 / x;
    case UnaryOp::Logarithm:
        return std::log(x);
    case UnaryOp::LogarithmOnePlus:
        return std::log1p(x);
    case UnaryOp::Negate:
        return -x;
    case UnaryOp::Relu:
        return x > 0.0 ? x : 0.0;
    case UnaryOp::Round:
        return std::round(x);
    case UnaryOp::Rsqrt:
        return 1.0 / std::sqrt(x);
    case UnaryOp::Sigmoid:
        return 1.0 / (1.0 + std::exp(-x));
    case UnaryOp::Signum:
        return std::isnan(x) ? x : double((x > 0.0) - (x < 0.0));
    case UnaryOp::Sin:
        return std::sin(x);
    case UnaryOp::Sqrt:
        return std::sqrt(x);
    case UnaryOp::Square:
        return x * x;
    case UnaryOp::Tan:
        return std::tan(x);
    case UnaryOp::Tanh:
        return std::tanh(x);
    default: // the rest take integers or give bool: not reached (inferTypes checks)
        return x;
    }
}

std::int64_t unaryWhole(UnaryOp op, std::int64_t x) {
    const auto bits = static_cast<std::uint32_t>(x);
    switch (op) {
    case UnaryOp::Absolute:
        return x < 0 ? -x : x;
    case UnaryOp::BitwiseNot:
        return static_cast<std::int64_t>(~bits);
    case UnaryOp::CountLeadingZeros:
        return std::countl_zero(bits);
    case UnaryOp::Popcount:
        return std::popcount(bits);
    case UnaryOp::LogicalNot:
        return x == 0 ? 1 : 0;
    case UnaryOp::Negate:
        return -x;
    case UnaryOp::Relu:
        return x > 0 ? x : 0;
    case UnaryOp::Signum:
        return (x > 0) - (x < 0);
    case UnaryOp::Sqrt:
        return x > 0 ? static_cast<std::int64_t>(std::sqrt(static_cast<double>(x))) : 0;
    case UnaryOp::Square:
        return x * x;
    default:
        return x;
    }
}

double binaryReal(BinaryOp op, double a, double b) {
    switch (op) {
    case BinaryOp::Add:
        return a + b;
    case BinaryOp::Atan2:
        return std::atan2(a, b);
    case BinaryOp::Divide:
        return a / b;
    case BinaryOp::InvStdDevToVariance:
        return 1.0 / (a * a) - b;
    case BinaryOp::Maximum:
        return std::fmax(a, b);
    case BinaryOp::Minimum:
        return std::fmin(a, b);
    case BinaryOp::Multiply:
        return a * b;
    case BinaryOp::Power:
        return std::pow(a, b);
    case BinaryOp::Remainder:
        return std::fmod(a, b);
    case BinaryOp::Subtract:
        return a - b;
    case BinaryOp::VarianceToInvStdDev:
        return 1.0 / std::sqrt(a + b);
    default:
        return a;
    }
}

std::int64_t binaryWhole(BinaryOp op, Type t, std::int64_t a, std::int64_t b) {
    const auto ua = static_cast<std::uint32_t>(a);
    const auto ub = static_cast<std::uint32_t>(b);
    switch (op) {
    case BinaryOp::Add:
        return a + b;
    case BinaryOp::Subtract:
        return a - b;
    case BinaryOp::Multiply:
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) *
                                         static_cast<std::uint64_t>(b));
    case BinaryOp::Divide:
        return b == 0 ? 0 : a / b; // int64: INT_MIN / -1 does not trap, then wraps
    case BinaryOp::Remainder:
        return b == 0 ? 0 : a % b;
    case BinaryOp::Maximum:
        return std::max(a, b);
    case BinaryOp::Minimum:
        return std::min(a, b);
    case BinaryOp::BitwiseAnd:
        return ua & ub;
    case BinaryOp::BitwiseOr:
        return ua | ub;
    case BinaryOp::BitwiseXor:
        return ua ^ ub;
    case BinaryOp::BitwiseXnor:
        return static_cast<std::uint32_t>(~(ua ^ ub));
    case BinaryOp::ShiftLeft:
        return static_cast<std::uint32_t>(ua << (ub & 31u));
    case BinaryOp::ShiftRight:
        return ua >> (ub & 31u);
    case BinaryOp::ShiftRightSignExtend: {
        const std::int32_t shifted = static_cast<std::int32_t>(ua) >> (ub & 31u);
        return t == Type::Int ? shifted : static_cast<std::uint32_t>(shifted);
    }
    case BinaryOp::LogicalAnd:
        return (a != 0 && b != 0) ? 1 : 0;
    case BinaryOp::LogicalOr:
        return (a != 0 || b != 0) ? 1 : 0;
    default:
        return a;
    }
}

template <typename T>
bool compare(BinaryOp op, T a, T b) {
    switch (op) {
    case BinaryOp::Equal:
        return a == b;
    case BinaryOp::NotEqual:
        return a != b;
    case BinaryOp::GreaterThan:
        return a > b;
    case BinaryOp::GreaterThanEqual:
        return a >= b;
    case BinaryOp::LessThan:
        return a < b;
    case BinaryOp::LessThanEqual:
        return a <= b;
    default:
        return false;
    }
}

bool isComparison(BinaryOp op) {
    return op == BinaryOp::Equal || op == BinaryOp::NotEqual || op == BinaryOp::GreaterThan ||
           op == BinaryOp::GreaterThanEqual || op == BinaryOp::LessThan ||
           op == BinaryOp::LessThanEqual;
}

// Evaluates node `k` for `n` elements from its operands' columns.
void evaluateNode(const TypedExpression& e, std::size_t k, std::size_t n, Columns& c,
                  std::span<const std::byte* const> inputs, std::size_t offset) {
    const Node& node = e.expression.nodes()[k];
    const Type t = e.types[k];
    const bool real = isFloatingPoint(t);
    double* f = c.f(k);
    std::int64_t* w = c.i(k);
    auto arg = [&](int a) {
        return static_cast<std::size_t>(node.args[static_cast<std::size_t>(a)]);
    };
    switch (node.kind) {
    case Node::Kind::Placeholder: {
        const std::size_t size = sizeOf(t);
        load(t, inputs[node.placeholder] + offset * size, n, f, w);
        return;
    }
    case Node::Kind::Constant:
        if (real) {
            std::fill(f, f + n, roundTo(t, node.value));
        } else {
            std::fill(w, w + n, wrapTo(t, toInteger(t, node.value)));
        }
        return;
    case Node::Kind::Cast: {
        const Type from = e.types[arg(0)];
        if (isFloatingPoint(from) && real) {
            const double* x = c.f(arg(0));
            for (std::size_t j = 0; j < n; ++j) {
                f[j] = roundTo(t, x[j]);
            }
        } else if (isFloatingPoint(from)) {
            const double* x = c.f(arg(0));
            for (std::size_t j = 0; j < n; ++j) {
                w[j] = wrapTo(t, toInteger(t, x[j]));
            }
        } else if (real) {
            const std::int64_t* x = c.i(arg(0));
            for (std::size_t j = 0; j < n; ++j) {
                f[j] = roundTo(t, static_cast<double>(x[j]));
            }
        } else {
            const std::int64_t* x = c.i(arg(0));
            for (std::size_t j = 0; j < n; ++j) {
                w[j] = wrapTo(t, x[j]);
            }
        }
        return;
    }
    case Node::Kind::Unary: {
        const auto op = static_cast<UnaryOp>(node.op);
        const Type from = e.types[arg(0)];
        if (isFloatingPoint(from)) {
            const double* x = c.f(arg(0));
            if (op == UnaryOp::IsFinite || op == UnaryOp::IsInf || op == UnaryOp::IsNaN) {
                for (std::size_t j = 0; j < n; ++j) {
                    w[j] = op == UnaryOp::IsFinite ? std::isfinite(x[j])
                           : op == UnaryOp::IsInf  ? std::isinf(x[j])
                                                   : std::isnan(x[j]);
                }
            } else {
                for (std::size_t j = 0; j < n; ++j) {
                    f[j] = roundTo(t, unaryReal(op, x[j]));
                }
            }
        } else {
            const std::int64_t* x = c.i(arg(0));
            for (std::size_t j = 0; j < n; ++j) {
                w[j] = wrapTo(t, unaryWhole(op, x[j]));
            }
        }
        return;
    }
    case Node::Kind::Binary: {
        const auto op = static_cast<BinaryOp>(node.op);
        const Type from = e.types[arg(0)];
        if (isComparison(op)) {
            if (isFloatingPoint(from)) {
                const double* a = c.f(arg(0));
                const double* b = c.f(arg(1));
                for (std::size_t j = 0; j < n; ++j) {
                    w[j] = compare(op, a[j], b[j]);
                }
            } else {
                const std::int64_t* a = c.i(arg(0));
                const std::int64_t* b = c.i(arg(1));
                for (std::size_t j = 0; j < n; ++j) {
                    w[j] = compare(op, a[j], b[j]);
                }
            }
        } else if (real) {
            const double* a = c.f(arg(0));
            const double* b = c.f(arg(1));
            for (std::size_t j = 0; j < n; ++j) {
                f[j] = roundTo(t, binaryReal(op, a[j], b[j]));
            }
        } else {
            const std::int64_t* a = c.i(arg(0));
            const std::int64_t* b = c.i(arg(1));
            for (std::size_t j = 0; j < n; ++j) {
                w[j] = wrapTo(t, binaryWhole(op, t, a[j], b[j]));
            }
        }
        return;
    }
    case Node::Kind::Ternary: {
        const auto op = static_cast<TernaryOp>(node.op);
        if (op == TernaryOp::Select) { // Select(a, b, condition)
            const std::int64_t* cond = c.i(arg(2));
            if (real) {
                const double* a = c.f(arg(0));
                const double* b = c.f(arg(1));
                for (std::size_t j = 0; j < n; ++j) {
                    f[j] = cond[j] != 0 ? a[j] : b[j];
                }
            } else {
                const std::int64_t* a = c.i(arg(0));
                const std::int64_t* b = c.i(arg(1));
                for (std::size_t j = 0; j < n; ++j) {
                    w[j] = cond[j] != 0 ? a[j] : b[j];
                }
            }
        } else if (real) { // Clamp(x, lo, hi)
            const double* x = c.f(arg(0));
            const double* lo = c.f(arg(1));
            const double* hi = c.f(arg(2));
            for (std::size_t j = 0; j < n; ++j) {
                f[j] = x[j] < lo[j] ? lo[j] : (x[j] > hi[j] ? hi[j] : x[j]);
            }
        } else {
            const std::int64_t* x = c.i(arg(0));
            const std::int64_t* lo = c.i(arg(1));
            const std::int64_t* hi = c.i(arg(2));
            for (std::size_t j = 0; j < n; ++j) {
                w[j] = x[j] < lo[j] ? lo[j] : (x[j] > hi[j] ? hi[j] : x[j]);
            }
        }
        return;
    }
    }
}

} // namespace

void evaluate(const TypedExpression& e, std::span<const std::byte* const> inputs, std::byte* out,
              std::size_t count) {
    const std::size_t nodes = e.expression.nodes().size();
    // Per thread, reused across vertices: a map runs on every worker of the pool.
    thread_local Columns columns;
    columns.real.resize(nodes * kBlock);
    columns.whole.resize(nodes * kBlock);
    const Type result = e.resultType();
    const std::size_t root = nodes - 1;
    // The whole block is read before any of it is written, so `out` may be an input.
    for (std::size_t first = 0; first < count; first += kBlock) {
        const std::size_t n = std::min(kBlock, count - first);
        for (std::size_t k = 0; k < nodes; ++k) {
            evaluateNode(e, k, n, columns, inputs, first);
        }
        store(result, out + first * sizeOf(result), n, columns.f(root), columns.i(root));
    }
}

namespace {

// Thread cycles per vector of elements for one operator: simple ALU work 1,
// division and square roots 4, transcendental functions 10 (as PopLibs'
// generated codelets call the device's maths library).
std::uint64_t operatorCost(const Node& n) {
    switch (n.kind) {
    case Node::Kind::Placeholder:
        return 1; // a load
    case Node::Kind::Constant:
        return 0;
    case Node::Kind::Cast:
    case Node::Kind::Ternary:
        return 1;
    case Node::Kind::Unary:
        switch (static_cast<UnaryOp>(n.op)) {
        case UnaryOp::Inverse:
        case UnaryOp::Sqrt:
        case UnaryOp::Rsqrt:
        case UnaryOp::Cbrt:
            return 4;
        case UnaryOp::Absolute:
        case UnaryOp::BitwiseNot:
        case UnaryOp::Ceil:
        case UnaryOp::CountLeadingZeros:
        case UnaryOp::Floor:
        case UnaryOp::IsFinite:
        case UnaryOp::IsInf:
        case UnaryOp::IsNaN:
        case UnaryOp::LogicalNot:
        case UnaryOp::Negate:
        case UnaryOp::Popcount:
        case UnaryOp::Relu:
        case UnaryOp::Round:
        case UnaryOp::Signum:
        case UnaryOp::Square:
            return 1;
        default:
            return 10;
        }
    case Node::Kind::Binary:
        switch (static_cast<BinaryOp>(n.op)) {
        case BinaryOp::Divide:
        case BinaryOp::Remainder:
        case BinaryOp::VarianceToInvStdDev:
        case BinaryOp::InvStdDevToVariance:
            return 4;
        case BinaryOp::Power:
        case BinaryOp::Atan2:
            return 10;
        default:
            return 1;
        }
    }
    return 1;
}

} // namespace

std::uint64_t mapCycles(const TypedExpression& e, std::size_t count) {
    const auto& nodes = e.expression.nodes();
    std::uint64_t fusedOps = 0; // operators, as PopLibs counts them (casts excluded)
    const Node* operation = nullptr;
    std::set<std::size_t> inputsRead;
    Type firstInput = e.resultType();
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const Node& n = nodes[k];
        if (n.kind == Node::Kind::Placeholder) {
            if (inputsRead.empty() || n.placeholder < *inputsRead.begin()) {
                firstInput = e.types[k];
            }
            inputsRead.insert(n.placeholder);
        } else if (n.kind == Node::Kind::Unary || n.kind == Node::Kind::Binary ||
                   n.kind == Node::Kind::Ternary) {
            ++fusedOps;
            operation = &n;
        }
    }
    if (fusedOps == 0) {
        // A bare cast or copy (popops::cast's vertex): 64-bit vectors of the
        // result, 1 cycle per load, per cast and for the store.
        const Type t = e.resultType();
        const std::size_t width = t == Type::Half ? 4 : t == Type::Float ? 2 : 1;
        std::uint64_t perVector = 1;
        for (const Node& n : nodes) {
            perVector += operatorCost(n);
        }
        return 16 + (count + width - 1) / width * perVector;
    }
    // Poplar's Target::getVectorWidth of the first input: a 64-bit data path.
    const std::uint64_t width = std::max<std::size_t>(1, 8 / sizeOf(firstInput));
    const std::uint64_t fixed = 13; // PopLibs' estimate for a one-worker map vertex
    if (fusedOps == 1) {
        // One operator: PopLibs runs its element-wise vertex, whose loads and
        // store issue alongside the arithmetic (ADD: 1 cycle a vector).
        return fixed + (count + width - 1) / width * operatorCost(*operation);
    }
    // A fused expression: PopLibs' estimate for its generated codelet, each
    // input's vectors (and leftover elements) times the operators.
    const std::uint64_t perInput = count / width + count % width;
    return fixed + inputsRead.size() * perInput * fusedOps;
}

std::uint64_t mapFlops(const TypedExpression& e, std::size_t count) {
    std::uint64_t perElement = 0;
    const auto& nodes = e.expression.nodes();
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const Node& n = nodes[k];
        const bool operandReal = n.kind != Node::Kind::Placeholder &&
                                 n.kind != Node::Kind::Constant && n.kind != Node::Kind::Cast &&
                                 isFloatingPoint(e.types[static_cast<std::size_t>(n.args[0])]);
        perElement += operandReal ? 1 : 0;
    }
    return perElement * count;
}

} // namespace tessera::ops::expr
