#pragma once
// Element-wise expressions for ops::map, in the shape of PopLibs' popops::expr
// (placeholders _1.._N, constants, casts, unary / binary / ternary operators):
// a tree stored as a node list, children first, the root last. Types are
// inferred as PopLibs infers them: a placeholder has its tensor's type, a
// constant takes the type of what it meets, comparisons and logical operators
// give bool, everything else keeps its operands' (equal) type.
#include "engine/core/Type.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::ops::expr {

enum class UnaryOp : std::uint8_t {
    Absolute,
    Asin,
    BitwiseNot,
    Cbrt,
    Ceil,
    Cos,
    CountLeadingZeros,
    Erf,
    Exponent,
    ExponentMinusOne,
    Floor,
    Inverse,
    IsFinite,
    IsInf,
    IsNaN,
    Logarithm,
    LogarithmOnePlus,
    LogicalNot,
    Negate,
    Popcount,
    Relu, // not a PopLibs operator: used by the engine's own operations
    Round,
    Rsqrt,
    Sigmoid,
    Signum,
    Sin,
    Sqrt,
    Square,
    Tan,
    Tanh,
};
constexpr std::size_t kUnaryOpCount = static_cast<std::size_t>(UnaryOp::Tanh) + 1;

enum class BinaryOp : std::uint8_t {
    Add,
    Atan2,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXnor,
    BitwiseXor,
    Divide,
    Equal,
    GreaterThan,
    GreaterThanEqual,
    InvStdDevToVariance,
    LessThan,
    LessThanEqual,
    LogicalAnd,
    LogicalOr,
    Maximum,
    Minimum,
    Multiply,
    NotEqual,
    Power,
    Remainder,
    ShiftLeft,
    ShiftRight,
    ShiftRightSignExtend,
    Subtract,
    VarianceToInvStdDev,
};
constexpr std::size_t kBinaryOpCount = static_cast<std::size_t>(BinaryOp::VarianceToInvStdDev) + 1;

enum class TernaryOp : std::uint8_t { Clamp, Select };
constexpr std::size_t kTernaryOpCount = static_cast<std::size_t>(TernaryOp::Select) + 1;

// PopLibs' spelling of each operator ("ADD", "IS_FINITE"), for names and errors.
const char* name(UnaryOp op);
const char* name(BinaryOp op);
const char* name(TernaryOp op);

struct Node {
    enum class Kind : std::uint8_t { Placeholder, Constant, Cast, Unary, Binary, Ternary };
    Kind kind = Kind::Constant;
    std::uint8_t op = 0;                // the UnaryOp, BinaryOp or TernaryOp
    std::array<std::int32_t, 3> args{}; // operand nodes (indices into the list)
    std::size_t placeholder = 0;        // 0-based input index (_1 is 0)
    double value = 0;                   // a constant's value
    // A constant's own type (used only when nothing else decides it); a
    // cast's target type.
    Type type = Type::Float;
};

// Built bottom-up: each call appends a node and returns its index; the last
// node appended is the root.
class Expression {
public:
    std::int32_t placeholder(std::size_t index); // 0-based
    std::int32_t constant(double value, Type ownType);
    std::int32_t cast(std::int32_t a, Type to);
    std::int32_t unary(UnaryOp op, std::int32_t a);
    std::int32_t binary(BinaryOp op, std::int32_t a, std::int32_t b);
    std::int32_t ternary(TernaryOp op, std::int32_t a, std::int32_t b, std::int32_t c);

    const std::vector<Node>& nodes() const { return nodes_; }
    std::int32_t root() const { return static_cast<std::int32_t>(nodes_.size()) - 1; }
    // The number of placeholders it needs (1 + the highest index).
    std::size_t arity() const;
    // "Add(_1,Mul(_2,3))": the expression as text, for codelet names and errors.
    std::string toString() const;

private:
    std::int32_t append(Node node);
    std::vector<Node> nodes_;
};

// An expression with the type of every node decided.
struct TypedExpression {
    Expression expression;
    std::vector<Type> types; // per node
    Type resultType() const { return types.back(); }
};

// Infers every node's type from the inputs' types as PopLibs does, and checks
// each operator is defined for its type. Throws Error naming the operator
// ("popops::map: Arguments of binary operator ADD do not have the same type
// (float and int)").
TypedExpression inferTypes(const Expression& expression, const std::vector<Type>& inputs);

} // namespace tessera::ops::expr
