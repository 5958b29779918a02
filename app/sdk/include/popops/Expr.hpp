// popops element-wise expressions: placeholders _1.._20 for the tensors given
// to popops::map, constants, casts and unary / binary / ternary operators,
// built with PopLibs' class names or with C++ operators:
//   popops::map(graph, expr::Tanh(expr::_1 + 2 * expr::_2), {a, b}, prog);
#ifndef TESSERA_POPOPS_EXPR_HPP
#define TESSERA_POPOPS_EXPR_HPP

#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace popops {
namespace expr {

class Expr {
protected:
    typedef void (*ExprClassID)(void);
    ExprClassID classId;
    explicit Expr(ExprClassID id)
        : classId(id) {}

public:
    virtual ~Expr();

    template <class T>
    bool isA() const {
        return classId == T::getClassId();
    }
    template <class T>
    T* getAs() {
        return isA<T>() ? static_cast<T*>(this) : 0;
    }
    template <class T>
    const T* getAs() const {
        return isA<T>() ? static_cast<const T*>(this) : 0;
    }

    virtual std::unique_ptr<Expr> clone() const = 0;
    virtual std::string name(const std::vector<poplar::Tensor>& inputs) const = 0;
    virtual bool deepEquals(const Expr& other) const = 0;
    virtual void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const = 0;
};

std::ostream& operator<<(std::ostream& os, const Expr& expr);
bool deepEquals(const Expr& a, const Expr& b);

template <class T>
class ExprType : public Expr {
    static void loc() {}

public:
    static ExprClassID getClassId() { return &loc; }
    ExprType()
        : Expr(getClassId()) {}
    friend class Expr;
};

// Any expression, held by value: for building trees at run time.
class Any {
    std::unique_ptr<Expr> expr_;

public:
    Any(const Expr& e)
        : expr_(e.clone()) {}
    Any(const Any& o)
        : expr_(o.expr_->clone()) {}
    Any& operator=(const Any& o) {
        expr_ = o.expr_->clone();
        return *this;
    }
    operator Expr&() { return *expr_; }
    operator const Expr&() const { return *expr_; }
    std::string name(const std::vector<poplar::Tensor>& inputs) const {
        return expr_->name(inputs);
    }
};

namespace detail {
// The device type equivalent to a host type (float and double: FLOAT).
template <typename T>
poplar::Type hostType() {
    return std::is_same<T, bool>::value       ? poplar::BOOL
           : std::is_floating_point<T>::value ? poplar::FLOAT
           : std::is_signed<T>::value         ? poplar::INT
                                              : poplar::UNSIGNED_INT;
}
} // namespace detail

// A constant. Its type is its host type's (float for float and double, int,
// unsigned, bool) unless the expression decides it: a constant takes the
// type of the operand it meets, as in PopLibs.
class Const : public ExprType<Const> {
    poplar::Type type_;
    double value_;

protected:
    template <typename T>
    Const(T x, bool isHalfType)
        : type_(isHalfType ? poplar::HALF : detail::hostType<T>())
        , value_(static_cast<double>(x)) {
        static_assert(std::is_integral<T>::value || std::is_floating_point<T>::value,
                      "Constant expression values should be integrals or floats");
    }

public:
    template <typename T>
    Const(T x)
        : type_(detail::hostType<T>())
        , value_(static_cast<double>(x)) {
        static_assert(std::is_integral<T>::value || std::is_floating_point<T>::value,
                      "Constant expression values should be integrals or floats");
    }
    Const(poplar::Type t, double v)
        : type_(t)
        , value_(v) {}

    const poplar::Type& getType() const { return type_; }
    double getDataAsDouble() const { return value_; }
    std::uint64_t getDataForUnsignedIntegral() const { return static_cast<std::uint64_t>(value_); }
    std::string printValue() const;

    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new Const(type_, value_));
    }
    std::string name(const std::vector<poplar::Tensor>&) const override;
    bool deepEquals(const Expr& other) const override;
    void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

// A constant of type half.
class ConstHalf : public Const {
public:
    ConstHalf(float x)
        : Const(x, true) {}
};

inline ConstHalf operator"" _half(long double x) {
    return ConstHalf(static_cast<float>(x));
}

class Cast : public ExprType<Cast> {
    std::unique_ptr<Expr> arg_;
    poplar::Type to_;

public:
    Cast(const Expr& a, const poplar::Type bType)
        : arg_(a.clone())
        , to_(bType) {}
    const Expr& getLHS() const { return *arg_; }
    const poplar::Type& getRHSType() const { return to_; }

    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new Cast(*arg_, to_));
    }
    std::string name(const std::vector<poplar::Tensor>& inputs) const override;
    bool deepEquals(const Expr& other) const override;
    void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

// _1 is the first tensor given to map, _2 the second, ...
class PlaceHolder : public ExprType<PlaceHolder> {
    unsigned index_;

public:
    PlaceHolder(unsigned index)
        : index_(index) {}
    unsigned getIndex() const { return index_; }

    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new PlaceHolder(index_));
    }
    std::string name(const std::vector<poplar::Tensor>& inputs) const override;
    bool deepEquals(const Expr& other) const override;
    void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

const PlaceHolder _1(1);
const PlaceHolder _2(2);
const PlaceHolder _3(3);
const PlaceHolder _4(4);
const PlaceHolder _5(5);
const PlaceHolder _6(6);
const PlaceHolder _7(7);
const PlaceHolder _8(8);
const PlaceHolder _9(9);
const PlaceHolder _10(10);
const PlaceHolder _11(11);
const PlaceHolder _12(12);
const PlaceHolder _13(13);
const PlaceHolder _14(14);
const PlaceHolder _15(15);
const PlaceHolder _16(16);
const PlaceHolder _17(17);
const PlaceHolder _18(18);
const PlaceHolder _19(19);
const PlaceHolder _20(20);

class UnaryOp : public ExprType<UnaryOp> {
    UnaryOpType type_;
    std::unique_ptr<Expr> arg_;

public:
    UnaryOp(UnaryOpType type, const Expr& a)
        : type_(type)
        , arg_(a.clone()) {}
    UnaryOpType getOpType() const { return type_; }
    const Expr& getArg() const { return *arg_; }

    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new UnaryOp(type_, *arg_));
    }
    std::string name(const std::vector<poplar::Tensor>& inputs) const override;
    std::string exprName(const std::vector<poplar::Tensor>& inputs) const {
        return arg_->name(inputs);
    }
    bool deepEquals(const Expr& other) const override;
    void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

#define TESSERA_POPOPS_UNARY_EXPR(Name, Op)                                                        \
    class Name : public UnaryOp {                                                                  \
    public:                                                                                        \
        Name(const Expr& a)                                                                        \
            : UnaryOp(UnaryOpType::Op, a) {}                                                       \
    };
#define TESSERA_POPOPS_UNARY_EXPR_SYMBOL(Name, Op, Sym)                                            \
    TESSERA_POPOPS_UNARY_EXPR(Name, Op)                                                            \
    inline Name operator Sym(const Expr& a) {                                                      \
        return Name(a);                                                                            \
    }

TESSERA_POPOPS_UNARY_EXPR(Abs, ABSOLUTE)
TESSERA_POPOPS_UNARY_EXPR(Asin, ASIN)
TESSERA_POPOPS_UNARY_EXPR_SYMBOL(BitwiseNot, BITWISE_NOT, ~)
TESSERA_POPOPS_UNARY_EXPR(Cbrt, CBRT)
TESSERA_POPOPS_UNARY_EXPR(Ceil, CEIL)
TESSERA_POPOPS_UNARY_EXPR(Cos, COS)
TESSERA_POPOPS_UNARY_EXPR(Erf, ERF)
TESSERA_POPOPS_UNARY_EXPR(Exp, EXPONENT)
TESSERA_POPOPS_UNARY_EXPR(Expm1, EXPONENT_MINUS_ONE)
TESSERA_POPOPS_UNARY_EXPR(Floor, FLOOR)
TESSERA_POPOPS_UNARY_EXPR(Inv, INVERSE)
TESSERA_POPOPS_UNARY_EXPR(IsFinite, IS_FINITE)
TESSERA_POPOPS_UNARY_EXPR(IsInf, IS_INF)
TESSERA_POPOPS_UNARY_EXPR(IsNaN, IS_NAN)
TESSERA_POPOPS_UNARY_EXPR(Log, LOGARITHM)
TESSERA_POPOPS_UNARY_EXPR(Log1p, LOGARITHM_ONE_PLUS)
TESSERA_POPOPS_UNARY_EXPR_SYMBOL(Not, LOGICAL_NOT, !)
TESSERA_POPOPS_UNARY_EXPR_SYMBOL(Neg, NEGATE, -)
TESSERA_POPOPS_UNARY_EXPR(Signum, SIGNUM)
TESSERA_POPOPS_UNARY_EXPR(Sin, SIN)
TESSERA_POPOPS_UNARY_EXPR(Tan, TAN)
TESSERA_POPOPS_UNARY_EXPR(Tanh, TANH)
TESSERA_POPOPS_UNARY_EXPR(Round, ROUND)
TESSERA_POPOPS_UNARY_EXPR(Sqrt, SQRT)
TESSERA_POPOPS_UNARY_EXPR(Square, SQUARE)
TESSERA_POPOPS_UNARY_EXPR(Sigmoid, SIGMOID)
TESSERA_POPOPS_UNARY_EXPR(Rsqrt, RSQRT)
#undef TESSERA_POPOPS_UNARY_EXPR_SYMBOL
#undef TESSERA_POPOPS_UNARY_EXPR

class BinaryOp : public ExprType<BinaryOp> {
    BinaryOpType type_;
    std::unique_ptr<Expr> lhs_, rhs_;

public:
    BinaryOp(BinaryOpType type, const Expr& a, const Expr& b)
        : type_(type)
        , lhs_(a.clone())
        , rhs_(b.clone()) {}
    BinaryOpType getOpType() const { return type_; }
    const Expr& getLHS() const { return *lhs_; }
    const Expr& getRHS() const { return *rhs_; }

    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new BinaryOp(type_, *lhs_, *rhs_));
    }
    std::string name(const std::vector<poplar::Tensor>& inputs) const override;
    std::string exprName(const std::vector<poplar::Tensor>& inputs) const {
        return lhs_->name(inputs) + "_" + rhs_->name(inputs);
    }
    bool deepEquals(const Expr& other) const override;
    void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

#define TESSERA_POPOPS_BINARY_EXPR(Name, Op)                                                       \
    class Name : public BinaryOp {                                                                 \
    public:                                                                                        \
        Name(const Expr& a, const Expr& b)                                                         \
            : BinaryOp(BinaryOpType::Op, a, b) {}                                                  \
    };
// A scalar on either side becomes a Const.
#define TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Name, Op, Sym)                                           \
    TESSERA_POPOPS_BINARY_EXPR(Name, Op)                                                           \
    template <typename T>                                                                          \
    inline                                                                                         \
        typename std::enable_if<!std::is_base_of<Expr, T>::value && std::is_arithmetic<T>::value,  \
                                Name>::type                                                        \
        operator Sym(const T& a, const Expr& b) {                                                  \
        return Name(Const(a), b);                                                                  \
    }                                                                                              \
    template <typename T>                                                                          \
    inline                                                                                         \
        typename std::enable_if<!std::is_base_of<Expr, T>::value && std::is_arithmetic<T>::value,  \
                                Name>::type                                                        \
        operator Sym(const Expr& a, const T& b) {                                                  \
        return Name(a, Const(b));                                                                  \
    }                                                                                              \
    inline Name operator Sym(const Expr& a, const Expr& b) {                                       \
        return Name(a, b);                                                                         \
    }

TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Add, ADD, +)
TESSERA_POPOPS_BINARY_EXPR(Atan2, ATAN2)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(BitwiseAnd, BITWISE_AND, &)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(BitwiseOr, BITWISE_OR, |)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(BitwiseXor, BITWISE_XOR, ^)
TESSERA_POPOPS_BINARY_EXPR(BitwiseXnor, BITWISE_XNOR)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Divide, DIVIDE, /)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Equal, EQUAL, ==)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Gte, GREATER_THAN_EQUAL, >=)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Gt, GREATER_THAN, >)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Lte, LESS_THAN_EQUAL, <=)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(And, LOGICAL_AND, &&)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Or, LOGICAL_OR, ||)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Lt, LESS_THAN, <)
TESSERA_POPOPS_BINARY_EXPR(InvStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
TESSERA_POPOPS_BINARY_EXPR(Max, MAXIMUM)
TESSERA_POPOPS_BINARY_EXPR(Min, MINIMUM)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Mul, MULTIPLY, *)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(NotEqual, NOT_EQUAL, !=)
TESSERA_POPOPS_BINARY_EXPR(Pow, POWER)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Rem, REMAINDER, %)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Shl, SHIFT_LEFT, <<)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Shr, SHIFT_RIGHT, >>)
TESSERA_POPOPS_BINARY_EXPR(ShrSE, SHIFT_RIGHT_SIGN_EXTEND)
TESSERA_POPOPS_BINARY_EXPR_SYMBOL(Sub, SUBTRACT, -)
TESSERA_POPOPS_BINARY_EXPR(VarianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)
#undef TESSERA_POPOPS_BINARY_EXPR_SYMBOL
#undef TESSERA_POPOPS_BINARY_EXPR

class TernaryOp : public ExprType<TernaryOp> {
    TernaryOpType type_;
    std::unique_ptr<Expr> arg0_, arg1_, arg2_;

public:
    TernaryOp(TernaryOpType type, const Expr& a, const Expr& b, const Expr& c)
        : type_(type)
        , arg0_(a.clone())
        , arg1_(b.clone())
        , arg2_(c.clone()) {}
    TernaryOpType getOpType() const { return type_; }
    const Expr& getArg0() const { return *arg0_; }
    const Expr& getArg1() const { return *arg1_; }
    const Expr& getArg2() const { return *arg2_; }

    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new TernaryOp(type_, *arg0_, *arg1_, *arg2_));
    }
    std::string name(const std::vector<poplar::Tensor>& inputs) const override;
    std::string exprName(const std::vector<poplar::Tensor>& inputs) const {
        return arg0_->name(inputs) + "_" + arg1_->name(inputs) + "_" + arg2_->name(inputs);
    }
    bool deepEquals(const Expr& other) const override;
    void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

// Select(a, b, condition): a where the condition holds, else b.
class Select : public TernaryOp {
public:
    Select(const Expr& a, const Expr& b, const Expr& c)
        : TernaryOp(TernaryOpType::SELECT, a, b, c) {}
};
// Clamp(x, lower, upper)
class Clamp : public TernaryOp {
public:
    Clamp(const Expr& a, const Expr& b, const Expr& c)
        : TernaryOp(TernaryOpType::CLAMP, a, b, c) {}
};

} // namespace expr
} // namespace popops

#endif
