#include "engine/ops/MapExpr.h"

#include "engine/core/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace tessera::ops::expr {

const char* name(UnaryOp op) {
    static constexpr const char* kNames[] = {"ABSOLUTE",
                                             "ASIN",
                                             "BITWISE_NOT",
                                             "CBRT",
                                             "CEIL",
                                             "COS",
                                             "COUNT_LEADING_ZEROS",
                                             "ERF",
                                             "EXPONENT",
                                             "EXPONENT_MINUS_ONE",
                                             "FLOOR",
                                             "INVERSE",
                                             "IS_FINITE",
                                             "IS_INF",
                                             "IS_NAN",
                                             "LOGARITHM",
                                             "LOGARITHM_ONE_PLUS",
                                             "LOGICAL_NOT",
                                             "NEGATE",
                                             "POPCOUNT",
                                             "RELU",
                                             "ROUND",
                                             "RSQRT",
                                             "SIGMOID",
                                             "SIGNUM",
                                             "SIN",
                                             "SQRT",
                                             "SQUARE",
                                             "TAN",
                                             "TANH"};
    return kNames[static_cast<std::size_t>(op)];
}

const char* name(BinaryOp op) {
    static constexpr const char* kNames[] = {"ADD",
                                             "ATAN2",
                                             "BITWISE_AND",
                                             "BITWISE_OR",
                                             "BITWISE_XNOR",
                                             "BITWISE_XOR",
                                             "DIVIDE",
                                             "EQUAL",
                                             "GREATER_THAN",
                                             "GREATER_THAN_EQUAL",
                                             "INV_STD_DEV_TO_VARIANCE",
                                             "LESS_THAN",
                                             "LESS_THAN_EQUAL",
                                             "LOGICAL_AND",
                                             "LOGICAL_OR",
                                             "MAXIMUM",
                                             "MINIMUM",
                                             "MULTIPLY",
                                             "NOT_EQUAL",
                                             "POWER",
                                             "REMAINDER",
                                             "SHIFT_LEFT",
                                             "SHIFT_RIGHT",
                                             "SHIFT_RIGHT_SIGN_EXTEND",
                                             "SUBTRACT",
                                             "VARIANCE_TO_INV_STD_DEV"};
    return kNames[static_cast<std::size_t>(op)];
}

const char* name(TernaryOp op) {
    return op == TernaryOp::Clamp ? "CLAMP" : "SELECT";
}

namespace {

std::size_t operandCount(Node::Kind kind) {
    switch (kind) {
    case Node::Kind::Ternary:
        return 3;
    case Node::Kind::Binary:
        return 2;
    case Node::Kind::Unary:
    case Node::Kind::Cast:
        return 1;
    default:
        return 0;
    }
}

} // namespace

std::int32_t Expression::append(Node node) {
    for (std::size_t i = 0; i < operandCount(node.kind); ++i) {
        if (node.args[i] < 0 || node.args[i] >= static_cast<std::int32_t>(nodes_.size())) {
            throw Error("map expression: operand " + std::to_string(i + 1) +
                        " is not an earlier node");
        }
    }
    nodes_.push_back(node);
    return root();
}

std::int32_t Expression::placeholder(std::size_t index) {
    Node n;
    n.kind = Node::Kind::Placeholder;
    n.placeholder = index;
    n.args = {-1, -1, -1};
    return append(n);
}

std::int32_t Expression::constant(double value, Type ownType) {
    Node n;
    n.kind = Node::Kind::Constant;
    n.value = value;
    n.type = ownType;
    n.args = {-1, -1, -1};
    return append(n);
}

std::int32_t Expression::cast(std::int32_t a, Type to) {
    Node n;
    n.kind = Node::Kind::Cast;
    n.type = to;
    n.args = {a, -1, -1};
    return append(n);
}

std::int32_t Expression::unary(UnaryOp op, std::int32_t a) {
    Node n;
    n.kind = Node::Kind::Unary;
    n.op = static_cast<std::uint8_t>(op);
    n.args = {a, -1, -1};
    return append(n);
}

std::int32_t Expression::binary(BinaryOp op, std::int32_t a, std::int32_t b) {
    Node n;
    n.kind = Node::Kind::Binary;
    n.op = static_cast<std::uint8_t>(op);
    n.args = {a, b, -1};
    return append(n);
}

std::int32_t Expression::ternary(TernaryOp op, std::int32_t a, std::int32_t b, std::int32_t c) {
    Node n;
    n.kind = Node::Kind::Ternary;
    n.op = static_cast<std::uint8_t>(op);
    n.args = {a, b, c};
    return append(n);
}

std::size_t Expression::arity() const {
    std::size_t n = 0;
    for (const Node& node : nodes_) {
        if (node.kind == Node::Kind::Placeholder) {
            n = std::max(n, node.placeholder + 1);
        }
    }
    return n;
}

namespace {

std::string constantText(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return std::to_string(static_cast<long long>(v));
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

std::string text(const std::vector<Node>& nodes, std::int32_t i) {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    switch (n.kind) {
    case Node::Kind::Placeholder:
        return "_" + std::to_string(n.placeholder + 1);
    case Node::Kind::Constant:
        return constantText(n.value);
    case Node::Kind::Cast:
        return "Cast(" + text(nodes, n.args[0]) + "," + std::string(typeName(n.type)) + ")";
    case Node::Kind::Unary:
        return std::string(name(static_cast<UnaryOp>(n.op))) + "(" + text(nodes, n.args[0]) + ")";
    case Node::Kind::Binary:
        return std::string(name(static_cast<BinaryOp>(n.op))) + "(" + text(nodes, n.args[0]) + "," +
               text(nodes, n.args[1]) + ")";
    case Node::Kind::Ternary:
        return std::string(name(static_cast<TernaryOp>(n.op))) + "(" + text(nodes, n.args[0]) +
               "," + text(nodes, n.args[1]) + "," + text(nodes, n.args[2]) + ")";
    }
    return "?";
}

} // namespace

std::string Expression::toString() const {
    return nodes_.empty() ? std::string() : text(nodes_, root());
}

namespace {

bool isInteger(Type t) {
    return t == Type::Int || t == Type::UnsignedInt;
}

bool givesBool(UnaryOp op) {
    return op == UnaryOp::IsFinite || op == UnaryOp::IsInf || op == UnaryOp::IsNaN ||
           op == UnaryOp::LogicalNot;
}

bool givesBool(BinaryOp op) {
    switch (op) {
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
    case BinaryOp::GreaterThan:
    case BinaryOp::GreaterThanEqual:
    case BinaryOp::LessThan:
    case BinaryOp::LessThanEqual:
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
        return true;
    default:
        return false;
    }
}

// Which operand types an operator is defined for (as PopLibs' codelets are).
bool accepts(UnaryOp op, Type t) {
    switch (op) {
    case UnaryOp::Absolute:
    case UnaryOp::Negate:
    case UnaryOp::Signum:
    case UnaryOp::Square:
    case UnaryOp::Sqrt:
    case UnaryOp::Relu:
        return t != Type::Bool && !(t == Type::UnsignedInt && op == UnaryOp::Negate);
    case UnaryOp::BitwiseNot:
    case UnaryOp::CountLeadingZeros:
    case UnaryOp::Popcount:
        return isInteger(t);
    case UnaryOp::LogicalNot:
        return t == Type::Bool;
    default: // the transcendental and rounding operators
        return isFloatingPoint(t);
    }
}

bool accepts(BinaryOp op, Type t) {
    switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Subtract:
    case BinaryOp::Multiply:
    case BinaryOp::Divide:
    case BinaryOp::Remainder:
    case BinaryOp::Maximum:
    case BinaryOp::Minimum:
    case BinaryOp::GreaterThan:
    case BinaryOp::GreaterThanEqual:
    case BinaryOp::LessThan:
    case BinaryOp::LessThanEqual:
        return t != Type::Bool;
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
        return true;
    case BinaryOp::BitwiseAnd:
    case BinaryOp::BitwiseOr:
    case BinaryOp::BitwiseXor:
    case BinaryOp::BitwiseXnor:
    case BinaryOp::ShiftLeft:
    case BinaryOp::ShiftRight:
    case BinaryOp::ShiftRightSignExtend:
        return isInteger(t);
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
        return t == Type::Bool;
    case BinaryOp::Atan2:
    case BinaryOp::Power:
    case BinaryOp::InvStdDevToVariance:
    case BinaryOp::VarianceToInvStdDev:
        return isFloatingPoint(t);
    }
    return false;
}

[[noreturn]] void fail(const std::string& what) {
    throw Error("popops::map: " + what);
}

// Type inference in PopLibs' manner: a constant's type is unknown until it
// meets a typed operand; `unknown` collects the constants still waiting.
class Inference {
public:
    Inference(const Expression& e, const std::vector<Type>& inputs)
        : expression_(e)
        , nodes_(e.nodes())
        , inputs_(inputs)
        , types_(nodes_.size()) {}

    std::vector<Type> run(std::int32_t root) {
        std::vector<std::int32_t> unknown;
        const std::optional<Type> t = infer(root, unknown);
        if (!t || !unknown.empty()) {
            fail("Cannot infer type of expression " + expression_.toString());
        }
        std::vector<Type> out(nodes_.size());
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            if (!types_[i]) {
                fail("Cannot infer constant types in expression");
            }
            out[i] = *types_[i];
        }
        return out;
    }

private:
    void settle(std::vector<std::int32_t>& unknown, Type t) {
        for (const std::int32_t c : unknown) {
            types_[static_cast<std::size_t>(c)] = t;
        }
        unknown.clear();
    }

    std::optional<Type> set(std::int32_t i, std::optional<Type> t) {
        if (t) {
            types_[static_cast<std::size_t>(i)] = t;
        }
        return t;
    }

    std::optional<Type> infer(std::int32_t i, std::vector<std::int32_t>& unknown) {
        const Node& n = nodes_[static_cast<std::size_t>(i)];
        switch (n.kind) {
        case Node::Kind::Constant:
            unknown.push_back(i);
            return std::nullopt;
        case Node::Kind::Placeholder:
            if (n.placeholder >= inputs_.size()) {
                fail("Invalid placeholder _" + std::to_string(n.placeholder + 1) +
                     " in expression (" + std::to_string(inputs_.size()) + " tensors given)");
            }
            return set(i, inputs_[n.placeholder]);
        case Node::Kind::Cast: {
            std::vector<std::int32_t> own;
            infer(n.args[0], own);
            if (!own.empty()) {
                fail("Cannot infer constant types in expression");
            }
            return set(i, n.type);
        }
        case Node::Kind::Unary: {
            const auto op = static_cast<UnaryOp>(n.op);
            std::vector<std::int32_t> own;
            std::vector<std::int32_t>& list = givesBool(op) ? own : unknown;
            const std::optional<Type> a = infer(n.args[0], list);
            if (givesBool(op) && !own.empty()) {
                fail("Cannot infer constant types in expression");
            }
            if (a && !accepts(op, *a)) {
                fail(std::string("operator ") + name(op) + " is not supported for type " +
                     std::string(typeName(*a)));
            }
            return set(i, givesBool(op) ? std::optional<Type>(Type::Bool) : a);
        }
        case Node::Kind::Binary: {
            const auto op = static_cast<BinaryOp>(n.op);
            std::vector<std::int32_t> own;
            std::vector<std::int32_t>& list = givesBool(op) ? own : unknown;
            std::optional<Type> a = infer(n.args[0], list);
            std::optional<Type> b = infer(n.args[1], list);
            if (!a && b) {
                a = b;
                settle(list, *b);
            }
            if (a && !b) {
                b = a;
                settle(list, *a);
            }
            if (a != b) {
                fail(std::string("Arguments of binary operator ") + name(op) +
                     " in expression do not have the same type (" + std::string(typeName(*a)) +
                     " and " + std::string(typeName(*b)) + ")");
            }
            if (a && !accepts(op, *a)) {
                fail(std::string("operator ") + name(op) + " is not supported for type " +
                     std::string(typeName(*a)));
            }
            if (givesBool(op)) {
                if (!own.empty()) {
                    fail("Cannot infer constant types in expression");
                }
                return set(i, Type::Bool);
            }
            return set(i, a);
        }
        case Node::Kind::Ternary:
            return static_cast<TernaryOp>(n.op) == TernaryOp::Select ? select(i, n, unknown)
                                                                     : clamp(i, n, unknown);
        }
        return std::nullopt;
    }

    // Select(a, b, condition): a where the condition holds, else b.
    std::optional<Type> select(std::int32_t i, const Node& n, std::vector<std::int32_t>& unknown) {
        const std::optional<Type> condition = infer(n.args[2], unknown);
        if (condition != Type::Bool) {
            fail("Invalid type of condition argument of select operator in expression");
        }
        std::optional<Type> a = infer(n.args[0], unknown);
        std::optional<Type> b = infer(n.args[1], unknown);
        if (!a && b) {
            a = b;
            settle(unknown, *b);
        }
        if (a && !b) {
            b = a;
            settle(unknown, *a);
        }
        const Node& na = nodes_[static_cast<std::size_t>(n.args[0])];
        const Node& nb = nodes_[static_cast<std::size_t>(n.args[1])];
        if (!a && !b && na.kind == Node::Kind::Constant && nb.kind == Node::Kind::Constant &&
            na.type == nb.type) {
            a = b = na.type;
            settle(unknown, na.type);
        }
        if (a != b || !a) {
            fail("Arguments of select operator in expression do not have the same type");
        }
        return set(i, a);
    }

    std::optional<Type> clamp(std::int32_t i, const Node& n, std::vector<std::int32_t>& unknown) {
        const std::optional<Type> t = infer(n.args[0], unknown);
        if (!t) {
            fail("Cannot infer type in clamp expression");
        }
        if (*t == Type::Bool) {
            fail("operator CLAMP is not supported for type bool");
        }
        for (const std::int32_t bound : {n.args[1], n.args[2]}) {
            const std::optional<Type> b = infer(bound, unknown);
            if (!b) {
                settle(unknown, *t);
            } else if (*b != *t) {
                fail("Arguments of clamp operator in expression do not have the same type (" +
                     std::string(typeName(*t)) + " and " + std::string(typeName(*b)) + ")");
            }
        }
        return set(i, t);
    }

    const Expression& expression_;
    const std::vector<Node>& nodes_;
    const std::vector<Type>& inputs_;
    std::vector<std::optional<Type>> types_;
};

} // namespace

TypedExpression inferTypes(const Expression& expression, const std::vector<Type>& inputs) {
    if (expression.nodes().empty()) {
        fail("the expression is empty");
    }
    TypedExpression typed{expression, Inference(expression, inputs).run(expression.root())};
    return typed;
}

} // namespace tessera::ops::expr
