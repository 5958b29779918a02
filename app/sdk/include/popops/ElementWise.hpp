// Element-wise operations, as PopLibs has them: map / mapInPlace /
// mapWithOutput of an expression (popops/Expr.hpp) over tensors broadcast by
// numpy's rules, and every named operation in three forms (a new tensor,
// InPlace into the first operand, WithOutput into a given tensor); binary
// operations also take a scalar constant on either side.
#ifndef TESSERA_POPOPS_ELEMENTWISE_HPP
#define TESSERA_POPOPS_ELEMENTWISE_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/Expr.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace popops {

poplar::Tensor map(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = poplar::DebugContext(),
                   const poplar::OptionFlags& options = poplar::OptionFlags());
// One output per expression, each over the same tensors.
std::vector<poplar::Tensor> map(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                                const std::vector<poplar::Tensor>& ts,
                                poplar::program::Sequence& prog,
                                const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                const poplar::OptionFlags& options = poplar::OptionFlags());
// The result written into ts[0] (the others broadcast to its shape).
void mapInPlace(poplar::Graph& graph, const expr::Expr& expr, const std::vector<poplar::Tensor>& ts,
                poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = poplar::DebugContext(),
                const poplar::OptionFlags& options = poplar::OptionFlags());
void mapWithOutput(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, const poplar::Tensor& out,
                   poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = poplar::DebugContext(),
                   const poplar::OptionFlags& options = poplar::OptionFlags());
void mapWithOutput(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                   const std::vector<poplar::Tensor>& ts, const std::vector<poplar::Tensor>& outs,
                   poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = poplar::DebugContext(),
                   const poplar::OptionFlags& options = poplar::OptionFlags());

inline poplar::Tensor map(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& t,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags()) {
    return map(graph, expr::UnaryOp(op, expr::_1), std::vector<poplar::Tensor>{t}, prog,
               debugContext, options);
}
inline poplar::Tensor map(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags()) {
    return map(graph, expr::BinaryOp(op, expr::_1, expr::_2), std::vector<poplar::Tensor>{a, b},
               prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, const poplar::Tensor& c,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags()) {
    return map(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3),
               std::vector<poplar::Tensor>{a, b, c}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& t,
                       poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = poplar::DebugContext(),
                       const poplar::OptionFlags& options = poplar::OptionFlags()) {
    mapInPlace(graph, expr::UnaryOp(op, expr::_1), std::vector<poplar::Tensor>{t}, prog,
               debugContext, options);
}
inline void mapInPlace(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                       const poplar::Tensor& b, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = poplar::DebugContext(),
                       const poplar::OptionFlags& options = poplar::OptionFlags()) {
    mapInPlace(graph, expr::BinaryOp(op, expr::_1, expr::_2), std::vector<poplar::Tensor>{a, b},
               prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                       const poplar::Tensor& b, const poplar::Tensor& c,
                       poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = poplar::DebugContext(),
                       const poplar::OptionFlags& options = poplar::OptionFlags()) {
    mapInPlace(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3),
               std::vector<poplar::Tensor>{a, b, c}, prog, debugContext, options);
}
inline void mapWithOutput(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& in,
                          const poplar::Tensor& out, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags()) {
    mapWithOutput(graph, expr::UnaryOp(op, expr::_1), std::vector<poplar::Tensor>{in}, out, prog,
                  debugContext, options);
}
inline void mapWithOutput(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, const poplar::Tensor& out,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags()) {
    mapWithOutput(graph, expr::BinaryOp(op, expr::_1, expr::_2), std::vector<poplar::Tensor>{a, b},
                  out, prog, debugContext, options);
}
inline void mapWithOutput(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, const poplar::Tensor& c,
                          const poplar::Tensor& out, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags()) {
    mapWithOutput(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3),
                  std::vector<poplar::Tensor>{a, b, c}, out, prog, debugContext, options);
}

// Throws std::runtime_error unless a host constant of type constType may
// meet a tensor of elementType (float and double: FLOAT or HALF; others:
// their own device type).
template <typename constType>
inline void checkTypes(poplar::Type elementType, constType) {
    if (elementType != expr::detail::hostType<constType>()) {
        throw std::runtime_error("Type mismatch between Binary op Tensor and constant");
    }
}
template <>
inline void checkTypes<float>(poplar::Type elementType, float) {
    if (elementType != poplar::FLOAT && elementType != poplar::HALF) {
        throw std::runtime_error("Type mismatch between Binary op Tensor and constant");
    }
}
template <>
inline void checkTypes<double>(poplar::Type elementType, double) {
    if (elementType != poplar::FLOAT && elementType != poplar::HALF) {
        throw std::runtime_error("Type mismatch between Binary op Tensor and constant");
    }
}

namespace detail {
// A scalar constant of `type` on tile 0, for the scalar overloads.
template <typename T>
poplar::Tensor scalarConstant(poplar::Graph& graph, const poplar::Type& type, T value) {
    checkTypes(type, value);
    poplar::Tensor c = graph.addConstant(type, {}, value);
    graph.setTileMapping(c, 0);
    return c;
}
} // namespace detail

#define TESSERA_POPOPS_UNARY_FN(fn, op)                                                            \
    inline poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A,                        \
                             poplar::program::Sequence& prog,                                      \
                             const poplar::DebugContext& debugContext = poplar::DebugContext(),    \
                             const poplar::OptionFlags& options = poplar::OptionFlags()) {         \
        return map(graph, expr::UnaryOpType::op, A, prog, debugContext, options);                  \
    }                                                                                              \
    inline void fn##WithOutput(poplar::Graph& graph, const poplar::Tensor& A,                      \
                               const poplar::Tensor& out, poplar::program::Sequence& prog,         \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        mapWithOutput(graph, expr::UnaryOpType::op, A, out, prog, debugContext, options);          \
    }
#define TESSERA_POPOPS_UNARY_FN_IN_PLACE(fn, op)                                                   \
    TESSERA_POPOPS_UNARY_FN(fn, op)                                                                \
    inline void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A,                         \
                            poplar::program::Sequence& prog,                                       \
                            const poplar::DebugContext& debugContext = poplar::DebugContext(),     \
                            const poplar::OptionFlags& options = poplar::OptionFlags()) {          \
        mapInPlace(graph, expr::UnaryOpType::op, A, prog, debugContext, options);                  \
    }

TESSERA_POPOPS_UNARY_FN_IN_PLACE(abs, ABSOLUTE)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(asin, ASIN)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(bitwiseNot, BITWISE_NOT)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(cbrt, CBRT)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(ceil, CEIL)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(cos, COS)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(countLeadingZeros, COUNT_LEADING_ZEROS)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(erf, ERF)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(exp, EXPONENT)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(expm1, EXPONENT_MINUS_ONE)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(floor, FLOOR)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(inv, INVERSE)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(log, LOGARITHM)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(log1p, LOGARITHM_ONE_PLUS)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(logicalNot, LOGICAL_NOT)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(neg, NEGATE)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(popcount, POPCOUNT)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(signum, SIGNUM)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(sin, SIN)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(tan, TAN)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(tanh, TANH)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(round, ROUND)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(sqrt, SQRT)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(square, SQUARE)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(sigmoid, SIGMOID)
TESSERA_POPOPS_UNARY_FN_IN_PLACE(rsqrt, RSQRT)
// Bool results: no InPlace form (as in PopLibs).
TESSERA_POPOPS_UNARY_FN(isFinite, IS_FINITE)
TESSERA_POPOPS_UNARY_FN(isInf, IS_INF)
TESSERA_POPOPS_UNARY_FN(isNaN, IS_NAN)
#undef TESSERA_POPOPS_UNARY_FN_IN_PLACE
#undef TESSERA_POPOPS_UNARY_FN

#define TESSERA_POPOPS_BINARY_FN(fn, op)                                                           \
    inline poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A,                        \
                             const poplar::Tensor& B, poplar::program::Sequence& prog,             \
                             const poplar::DebugContext& debugContext = poplar::DebugContext(),    \
                             const poplar::OptionFlags& options = poplar::OptionFlags()) {         \
        return map(graph, expr::BinaryOpType::op, A, B, prog, debugContext, options);              \
    }                                                                                              \
    template <typename constType>                                                                  \
    inline poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A, const constType B,     \
                             poplar::program::Sequence& prog,                                      \
                             const poplar::DebugContext& debugContext = poplar::DebugContext(),    \
                             const poplar::OptionFlags& options = poplar::OptionFlags()) {         \
        const poplar::Tensor b = detail::scalarConstant(graph, A.elementType(), B);                \
        return map(graph, expr::BinaryOpType::op, A, b, prog, debugContext, options);              \
    }                                                                                              \
    template <typename constType>                                                                  \
    inline poplar::Tensor fn(poplar::Graph& graph, const constType A, const poplar::Tensor& B,     \
                             poplar::program::Sequence& prog,                                      \
                             const poplar::DebugContext& debugContext = poplar::DebugContext(),    \
                             const poplar::OptionFlags& options = poplar::OptionFlags()) {         \
        const poplar::Tensor a = detail::scalarConstant(graph, B.elementType(), A);                \
        return map(graph, expr::BinaryOpType::op, a, B, prog, debugContext, options);              \
    }                                                                                              \
    inline void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A,                         \
                            const poplar::Tensor& B, poplar::program::Sequence& prog,              \
                            const poplar::DebugContext& debugContext = poplar::DebugContext(),     \
                            const poplar::OptionFlags& options = poplar::OptionFlags()) {          \
        mapInPlace(graph, expr::BinaryOpType::op, A, B, prog, debugContext, options);              \
    }                                                                                              \
    template <typename constType>                                                                  \
    inline void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A, const constType B,      \
                            poplar::program::Sequence& prog,                                       \
                            const poplar::DebugContext& debugContext = poplar::DebugContext(),     \
                            const poplar::OptionFlags& options = poplar::OptionFlags()) {          \
        const poplar::Tensor b = detail::scalarConstant(graph, A.elementType(), B);                \
        mapInPlace(graph, expr::BinaryOpType::op, A, b, prog, debugContext, options);              \
    }                                                                                              \
    inline void fn##WithOutput(poplar::Graph& graph, const poplar::Tensor& A,                      \
                               const poplar::Tensor& B, const poplar::Tensor& out,                 \
                               poplar::program::Sequence& prog,                                    \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        mapWithOutput(graph, expr::BinaryOpType::op, A, B, out, prog, debugContext, options);      \
    }                                                                                              \
    template <typename constType>                                                                  \
    inline void fn##WithOutput(poplar::Graph& graph, const poplar::Tensor& A, const constType B,   \
                               const poplar::Tensor& out, poplar::program::Sequence& prog,         \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        const poplar::Tensor b = detail::scalarConstant(graph, A.elementType(), B);                \
        mapWithOutput(graph, expr::BinaryOpType::op, A, b, out, prog, debugContext, options);      \
    }                                                                                              \
    template <typename constType>                                                                  \
    inline void fn##WithOutput(poplar::Graph& graph, const constType A, const poplar::Tensor& B,   \
                               const poplar::Tensor& out, poplar::program::Sequence& prog,         \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        const poplar::Tensor a = detail::scalarConstant(graph, B.elementType(), A);                \
        mapWithOutput(graph, expr::BinaryOpType::op, a, B, out, prog, debugContext, options);      \
    }

TESSERA_POPOPS_BINARY_FN(add, ADD)
TESSERA_POPOPS_BINARY_FN(atan2, ATAN2)
TESSERA_POPOPS_BINARY_FN(bitwiseAnd, BITWISE_AND)
TESSERA_POPOPS_BINARY_FN(bitwiseOr, BITWISE_OR)
TESSERA_POPOPS_BINARY_FN(bitwiseXor, BITWISE_XOR)
TESSERA_POPOPS_BINARY_FN(bitwiseXnor, BITWISE_XNOR)
TESSERA_POPOPS_BINARY_FN(div, DIVIDE)
TESSERA_POPOPS_BINARY_FN(eq, EQUAL)
TESSERA_POPOPS_BINARY_FN(gteq, GREATER_THAN_EQUAL)
TESSERA_POPOPS_BINARY_FN(gt, GREATER_THAN)
TESSERA_POPOPS_BINARY_FN(invStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
TESSERA_POPOPS_BINARY_FN(lteq, LESS_THAN_EQUAL)
TESSERA_POPOPS_BINARY_FN(logicalAnd, LOGICAL_AND)
TESSERA_POPOPS_BINARY_FN(logicalOr, LOGICAL_OR)
TESSERA_POPOPS_BINARY_FN(lt, LESS_THAN)
TESSERA_POPOPS_BINARY_FN(max, MAXIMUM)
TESSERA_POPOPS_BINARY_FN(min, MINIMUM)
TESSERA_POPOPS_BINARY_FN(mul, MULTIPLY)
TESSERA_POPOPS_BINARY_FN(neq, NOT_EQUAL)
TESSERA_POPOPS_BINARY_FN(pow, POWER)
TESSERA_POPOPS_BINARY_FN(rem, REMAINDER)
TESSERA_POPOPS_BINARY_FN(shiftLeft, SHIFT_LEFT)
TESSERA_POPOPS_BINARY_FN(shiftRight, SHIFT_RIGHT)
TESSERA_POPOPS_BINARY_FN(shiftRightSignExtend, SHIFT_RIGHT_SIGN_EXTEND)
TESSERA_POPOPS_BINARY_FN(sub, SUBTRACT)
TESSERA_POPOPS_BINARY_FN(varianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)
#undef TESSERA_POPOPS_BINARY_FN

#define TESSERA_POPOPS_TERNARY_FN(fn, op)                                                          \
    inline poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A,                        \
                             const poplar::Tensor& B, const poplar::Tensor& C,                     \
                             poplar::program::Sequence& prog,                                      \
                             const poplar::DebugContext& debugContext = poplar::DebugContext(),    \
                             const poplar::OptionFlags& options = poplar::OptionFlags()) {         \
        return map(graph, expr::TernaryOpType::op, A, B, C, prog, debugContext, options);          \
    }                                                                                              \
    inline void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A,                         \
                            const poplar::Tensor& B, const poplar::Tensor& C,                      \
                            poplar::program::Sequence& prog,                                       \
                            const poplar::DebugContext& debugContext = poplar::DebugContext(),     \
                            const poplar::OptionFlags& options = poplar::OptionFlags()) {          \
        mapInPlace(graph, expr::TernaryOpType::op, A, B, C, prog, debugContext, options);          \
    }                                                                                              \
    inline void fn##WithOutput(poplar::Graph& graph, const poplar::Tensor& A,                      \
                               const poplar::Tensor& B, const poplar::Tensor& C,                   \
                               const poplar::Tensor& out, poplar::program::Sequence& prog,         \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        mapWithOutput(graph, expr::TernaryOpType::op, A, B, C, out, prog, debugContext, options);  \
    }

// select(A, B, conditions): A where the condition is true, else B.
TESSERA_POPOPS_TERNARY_FN(select, SELECT)
// clamp(values, minimums, maximums)
TESSERA_POPOPS_TERNARY_FN(clamp, CLAMP)
#undef TESSERA_POPOPS_TERNARY_FN

} // namespace popops

#endif
