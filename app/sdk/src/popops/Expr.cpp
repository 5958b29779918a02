// popops::expr: the expression classes' out-of-line members (names, deep
// comparison, printing) and their translation into the engine's expressions.
#include "Common.h"

#include <popops/Expr.hpp>

#include <cmath>
#include <sstream>

namespace popops {
namespace expr {

namespace {

using ::popops::detail::opName;

const char* ternaryName(TernaryOpType op) {
    return op == TernaryOpType::CLAMP ? "CLAMP" : "SELECT";
}

void indentBy(std::ostream& os, unsigned indent, bool pretty) {
    if (pretty) {
        os << std::string(indent, ' ');
    }
}

} // namespace

Expr::~Expr() = default;

std::ostream& operator<<(std::ostream& os, const Expr& expr) {
    expr.print(os, 0, false);
    return os;
}

bool deepEquals(const Expr& a, const Expr& b) {
    return a.deepEquals(b);
}

std::string Const::printValue() const {
    std::ostringstream s;
    if (type_ == poplar::BOOL) {
        s << (value_ != 0 ? "true" : "false");
    } else if (type_ == poplar::INT || type_ == poplar::UNSIGNED_INT) {
        s << static_cast<long long>(value_);
    } else {
        s << value_;
    }
    return s.str();
}

std::string Const::name(const std::vector<poplar::Tensor>&) const {
    std::string v = printValue();
    for (char& c : v) {
        if (c == '.' || c == '-' || c == '+') {
            c = '_';
        }
    }
    return v;
}

bool Const::deepEquals(const Expr& other) const {
    const Const* o = other.getAs<Const>();
    return o != nullptr && o->type_ == type_ &&
           (o->value_ == value_ || (std::isnan(o->value_) && std::isnan(value_)));
}

void Const::print(std::ostream& os, unsigned indent, bool prettyPrint) const {
    indentBy(os, indent, prettyPrint);
    os << printValue();
}

std::string Cast::name(const std::vector<poplar::Tensor>& inputs) const {
    return "Cast_" + arg_->name(inputs) + "_" + to_.toString();
}

bool Cast::deepEquals(const Expr& other) const {
    const Cast* o = other.getAs<Cast>();
    return o != nullptr && o->to_ == to_ && arg_->deepEquals(*o->arg_);
}

void Cast::print(std::ostream& os, unsigned indent, bool prettyPrint) const {
    indentBy(os, indent, prettyPrint);
    os << "Cast(";
    arg_->print(os, indent + 2, false);
    os << ", " << to_ << ")";
}

std::string PlaceHolder::name(const std::vector<poplar::Tensor>& inputs) const {
    if (index_ >= 1 && index_ <= inputs.size()) {
        return inputs[index_ - 1].elementType().toString() + "_" + std::to_string(index_);
    }
    return "_" + std::to_string(index_);
}

bool PlaceHolder::deepEquals(const Expr& other) const {
    const PlaceHolder* o = other.getAs<PlaceHolder>();
    return o != nullptr && o->index_ == index_;
}

void PlaceHolder::print(std::ostream& os, unsigned indent, bool prettyPrint) const {
    indentBy(os, indent, prettyPrint);
    os << "_" << index_;
}

std::string UnaryOp::name(const std::vector<poplar::Tensor>& inputs) const {
    return std::string(opName(type_)) + "_" + exprName(inputs);
}

bool UnaryOp::deepEquals(const Expr& other) const {
    const UnaryOp* o = other.getAs<UnaryOp>();
    return o != nullptr && o->type_ == type_ && arg_->deepEquals(*o->arg_);
}

void UnaryOp::print(std::ostream& os, unsigned indent, bool prettyPrint) const {
    indentBy(os, indent, prettyPrint);
    os << opName(type_) << "(";
    arg_->print(os, indent + 2, false);
    os << ")";
}

std::string BinaryOp::name(const std::vector<poplar::Tensor>& inputs) const {
    return std::string(opName(type_)) + "_" + exprName(inputs);
}

bool BinaryOp::deepEquals(const Expr& other) const {
    const BinaryOp* o = other.getAs<BinaryOp>();
    return o != nullptr && o->type_ == type_ && lhs_->deepEquals(*o->lhs_) &&
           rhs_->deepEquals(*o->rhs_);
}

void BinaryOp::print(std::ostream& os, unsigned indent, bool prettyPrint) const {
    indentBy(os, indent, prettyPrint);
    os << opName(type_) << "(";
    lhs_->print(os, indent + 2, false);
    os << ", ";
    rhs_->print(os, indent + 2, false);
    os << ")";
}

std::string TernaryOp::name(const std::vector<poplar::Tensor>& inputs) const {
    return std::string(ternaryName(type_)) + "_" + exprName(inputs);
}

bool TernaryOp::deepEquals(const Expr& other) const {
    const TernaryOp* o = other.getAs<TernaryOp>();
    return o != nullptr && o->type_ == type_ && arg0_->deepEquals(*o->arg0_) &&
           arg1_->deepEquals(*o->arg1_) && arg2_->deepEquals(*o->arg2_);
}

void TernaryOp::print(std::ostream& os, unsigned indent, bool prettyPrint) const {
    indentBy(os, indent, prettyPrint);
    os << ternaryName(type_) << "(";
    arg0_->print(os, indent + 2, false);
    os << ", ";
    arg1_->print(os, indent + 2, false);
    os << ", ";
    arg2_->print(os, indent + 2, false);
    os << ")";
}

} // namespace expr

namespace detail {

namespace eo = tessera::ops::expr;

namespace {

eo::UnaryOp engineOp(expr::UnaryOpType op) {
    using U = expr::UnaryOpType;
    switch (op) {
    case U::ABSOLUTE:
        return eo::UnaryOp::Absolute;
    case U::ASIN:
        return eo::UnaryOp::Asin;
    case U::BITWISE_NOT:
        return eo::UnaryOp::BitwiseNot;
    case U::CBRT:
        return eo::UnaryOp::Cbrt;
    case U::CEIL:
        return eo::UnaryOp::Ceil;
    case U::COS:
        return eo::UnaryOp::Cos;
    case U::COUNT_LEADING_ZEROS:
        return eo::UnaryOp::CountLeadingZeros;
    case U::ERF:
        return eo::UnaryOp::Erf;
    case U::EXPONENT:
        return eo::UnaryOp::Exponent;
    case U::EXPONENT_MINUS_ONE:
        return eo::UnaryOp::ExponentMinusOne;
    case U::FLOOR:
        return eo::UnaryOp::Floor;
    case U::INVERSE:
        return eo::UnaryOp::Inverse;
    case U::IS_FINITE:
        return eo::UnaryOp::IsFinite;
    case U::IS_INF:
        return eo::UnaryOp::IsInf;
    case U::IS_NAN:
        return eo::UnaryOp::IsNaN;
    case U::LOGARITHM:
        return eo::UnaryOp::Logarithm;
    case U::LOGARITHM_ONE_PLUS:
        return eo::UnaryOp::LogarithmOnePlus;
    case U::LOGICAL_NOT:
        return eo::UnaryOp::LogicalNot;
    case U::NEGATE:
        return eo::UnaryOp::Negate;
    case U::POPCOUNT:
        return eo::UnaryOp::Popcount;
    case U::SIGNUM:
        return eo::UnaryOp::Signum;
    case U::SIN:
        return eo::UnaryOp::Sin;
    case U::TAN:
        return eo::UnaryOp::Tan;
    case U::TANH:
        return eo::UnaryOp::Tanh;
    case U::ROUND:
        return eo::UnaryOp::Round;
    case U::SQRT:
        return eo::UnaryOp::Sqrt;
    case U::SQUARE:
        return eo::UnaryOp::Square;
    case U::SIGMOID:
        return eo::UnaryOp::Sigmoid;
    case U::RSQRT:
        return eo::UnaryOp::Rsqrt;
    }
    unsupported("popops::expr unary operator " + std::to_string(int(op)));
}

eo::BinaryOp engineOp(expr::BinaryOpType op) {
    using B = expr::BinaryOpType;
    switch (op) {
    case B::ADD:
        return eo::BinaryOp::Add;
    case B::ATAN2:
        return eo::BinaryOp::Atan2;
    case B::BITWISE_AND:
        return eo::BinaryOp::BitwiseAnd;
    case B::BITWISE_OR:
        return eo::BinaryOp::BitwiseOr;
    case B::BITWISE_XOR:
        return eo::BinaryOp::BitwiseXor;
    case B::BITWISE_XNOR:
        return eo::BinaryOp::BitwiseXnor;
    case B::DIVIDE:
        return eo::BinaryOp::Divide;
    case B::EQUAL:
        return eo::BinaryOp::Equal;
    case B::GREATER_THAN_EQUAL:
        return eo::BinaryOp::GreaterThanEqual;
    case B::GREATER_THAN:
        return eo::BinaryOp::GreaterThan;
    case B::INV_STD_DEV_TO_VARIANCE:
        return eo::BinaryOp::InvStdDevToVariance;
    case B::LESS_THAN_EQUAL:
        return eo::BinaryOp::LessThanEqual;
    case B::LOGICAL_AND:
        return eo::BinaryOp::LogicalAnd;
    case B::LOGICAL_OR:
        return eo::BinaryOp::LogicalOr;
    case B::LESS_THAN:
        return eo::BinaryOp::LessThan;
    case B::MAXIMUM:
        return eo::BinaryOp::Maximum;
    case B::MINIMUM:
        return eo::BinaryOp::Minimum;
    case B::MULTIPLY:
        return eo::BinaryOp::Multiply;
    case B::NOT_EQUAL:
        return eo::BinaryOp::NotEqual;
    case B::POWER:
        return eo::BinaryOp::Power;
    case B::REMAINDER:
        return eo::BinaryOp::Remainder;
    case B::SHIFT_LEFT:
        return eo::BinaryOp::ShiftLeft;
    case B::SHIFT_RIGHT:
        return eo::BinaryOp::ShiftRight;
    case B::SHIFT_RIGHT_SIGN_EXTEND:
        return eo::BinaryOp::ShiftRightSignExtend;
    case B::SUBTRACT:
        return eo::BinaryOp::Subtract;
    case B::VARIANCE_TO_INV_STD_DEV:
        return eo::BinaryOp::VarianceToInvStdDev;
    }
    unsupported("popops::expr binary operator " + std::to_string(int(op)));
}

std::int32_t build(const expr::Expr& e, eo::Expression& out) {
    if (const auto* c = e.getAs<expr::Const>()) {
        return out.constant(c->getDataAsDouble(), poplar::detail::engineType(c->getType()));
    }
    if (const auto* p = e.getAs<expr::PlaceHolder>()) {
        if (p->getIndex() == 0) {
            throw poputil::poplibs_error("popops::map: placeholder _0 does not exist (_1 is the "
                                         "first tensor)");
        }
        return out.placeholder(p->getIndex() - 1);
    }
    if (const auto* c = e.getAs<expr::Cast>()) {
        const std::int32_t a = build(c->getLHS(), out);
        return out.cast(a, poplar::detail::engineType(c->getRHSType()));
    }
    if (const auto* u = e.getAs<expr::UnaryOp>()) {
        const std::int32_t a = build(u->getArg(), out);
        return out.unary(engineOp(u->getOpType()), a);
    }
    if (const auto* b = e.getAs<expr::BinaryOp>()) {
        const std::int32_t l = build(b->getLHS(), out);
        const std::int32_t r = build(b->getRHS(), out);
        return out.binary(engineOp(b->getOpType()), l, r);
    }
    if (const auto* t = e.getAs<expr::TernaryOp>()) {
        const std::int32_t a = build(t->getArg0(), out);
        const std::int32_t b = build(t->getArg1(), out);
        const std::int32_t c = build(t->getArg2(), out);
        return out.ternary(t->getOpType() == expr::TernaryOpType::CLAMP ? eo::TernaryOp::Clamp
                                                                        : eo::TernaryOp::Select,
                           a, b, c);
    }
    unsupported("this kind of popops::expr::Expr");
}

} // namespace

const char* opName(expr::UnaryOpType op) {
    return eo::name(engineOp(op));
}

const char* opName(expr::BinaryOpType op) {
    return eo::name(engineOp(op));
}

eo::Expression toEngine(const expr::Expr& e) {
    eo::Expression out;
    build(e, out);
    return out;
}

eo::Expression castExpression(tessera::Type to) {
    eo::Expression out;
    out.cast(out.placeholder(0), to);
    return out;
}

} // namespace detail
} // namespace popops
