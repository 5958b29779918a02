// Element-wise operations. The second operand broadcasts to the first's
// shape (numpy rules); the result is a new tensor mapped like the first.
#ifndef TESSERA_POPOPS_ELEMENTWISE_HPP
#define TESSERA_POPOPS_ELEMENTWISE_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/ExprOp.hpp>

namespace popops {

poplar::Tensor map(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                   const poplar::Tensor& b, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = poplar::DebugContext(),
                   const poplar::OptionFlags& options = poplar::OptionFlags());
poplar::Tensor map(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& a,
                   poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = poplar::DebugContext(),
                   const poplar::OptionFlags& options = poplar::OptionFlags());
void mapInPlace(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                const poplar::Tensor& b, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = poplar::DebugContext(),
                const poplar::OptionFlags& options = poplar::OptionFlags());
void mapInPlace(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& a,
                poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = poplar::DebugContext(),
                const poplar::OptionFlags& options = poplar::OptionFlags());

#define TESSERA_POPOPS_BINARY(name, inPlace, op)                                                   \
    inline poplar::Tensor name(poplar::Graph& graph, const poplar::Tensor& a,                      \
                               const poplar::Tensor& b, poplar::program::Sequence& prog,           \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        return map(graph, expr::BinaryOpType::op, a, b, prog, debugContext, options);              \
    }                                                                                              \
    inline void inPlace(poplar::Graph& graph, const poplar::Tensor& a, const poplar::Tensor& b,    \
                        poplar::program::Sequence& prog,                                           \
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),         \
                        const poplar::OptionFlags& options = poplar::OptionFlags()) {              \
        mapInPlace(graph, expr::BinaryOpType::op, a, b, prog, debugContext, options);              \
    }
TESSERA_POPOPS_BINARY(add, addInPlace, ADD)
TESSERA_POPOPS_BINARY(sub, subInPlace, SUBTRACT)
TESSERA_POPOPS_BINARY(mul, mulInPlace, MULTIPLY)
TESSERA_POPOPS_BINARY(div, divInPlace, DIVIDE)
TESSERA_POPOPS_BINARY(max, maxInPlace, MAXIMUM)
TESSERA_POPOPS_BINARY(min, minInPlace, MINIMUM)
#undef TESSERA_POPOPS_BINARY

#define TESSERA_POPOPS_UNARY(name, inPlace, op)                                                    \
    inline poplar::Tensor name(poplar::Graph& graph, const poplar::Tensor& a,                      \
                               poplar::program::Sequence& prog,                                    \
                               const poplar::DebugContext& debugContext = poplar::DebugContext(),  \
                               const poplar::OptionFlags& options = poplar::OptionFlags()) {       \
        return map(graph, expr::UnaryOpType::op, a, prog, debugContext, options);                  \
    }                                                                                              \
    inline void inPlace(poplar::Graph& graph, const poplar::Tensor& a,                             \
                        poplar::program::Sequence& prog,                                           \
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),         \
                        const poplar::OptionFlags& options = poplar::OptionFlags()) {              \
        mapInPlace(graph, expr::UnaryOpType::op, a, prog, debugContext, options);                  \
    }
TESSERA_POPOPS_UNARY(abs, absInPlace, ABSOLUTE)
TESSERA_POPOPS_UNARY(exp, expInPlace, EXPONENT)
TESSERA_POPOPS_UNARY(inv, invInPlace, INVERSE)
TESSERA_POPOPS_UNARY(log, logInPlace, LOGARITHM)
TESSERA_POPOPS_UNARY(neg, negInPlace, NEGATE)
TESSERA_POPOPS_UNARY(sigmoid, sigmoidInPlace, SIGMOID)
TESSERA_POPOPS_UNARY(sqrt, sqrtInPlace, SQRT)
TESSERA_POPOPS_UNARY(square, squareInPlace, SQUARE)
TESSERA_POPOPS_UNARY(tanh, tanhInPlace, TANH)
#undef TESSERA_POPOPS_UNARY

} // namespace popops

#endif
