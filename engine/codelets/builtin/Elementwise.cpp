// Element-wise unary and binary operations, and binary operations with a
// scalar second operand ("...Scalar"), for float and half.
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/core/HalfBlocks.h"
#include "engine/target/Target.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace tessera {

namespace {

enum class Unary { Neg, Abs, Exp, Log, Sqrt, Tanh, Sigmoid, Relu, Square, Inv };
enum class Binary { Add, Sub, Mul, Div, Max, Min, ReluGrad };

struct UnaryInfo {
    Unary op;
    const char* name;
    double cycles; // per float element
};
struct BinaryInfo {
    Binary op;
    const char* name;
    double cycles;
};

constexpr UnaryInfo kUnary[] = {
    {Unary::Neg, "Neg", 0.5},       {Unary::Abs, "Abs", 0.5},   {Unary::Exp, "Exp", 3},
    {Unary::Log, "Log", 3},         {Unary::Sqrt, "Sqrt", 4},   {Unary::Tanh, "Tanh", 4},
    {Unary::Sigmoid, "Sigmoid", 5}, {Unary::Relu, "Relu", 0.5}, {Unary::Square, "Square", 0.5},
    {Unary::Inv, "Inv", 4},
};
constexpr BinaryInfo kBinary[] = {
    {Binary::Add, "Add", 0.5},         {Binary::Sub, "Sub", 0.5}, {Binary::Mul, "Mul", 0.5},
    {Binary::Div, "Div", 4},           {Binary::Max, "Max", 0.5}, {Binary::Min, "Min", 0.5},
    {Binary::ReluGrad, "ReluGrad", 1},
};

template <Unary op>
float apply(float x) {
    if constexpr (op == Unary::Neg)
        return -x;
    if constexpr (op == Unary::Abs)
        return std::fabs(x);
    if constexpr (op == Unary::Exp)
        return std::exp(x);
    if constexpr (op == Unary::Log)
        return std::log(x);
    if constexpr (op == Unary::Sqrt)
        return std::sqrt(x);
    if constexpr (op == Unary::Tanh)
        return std::tanh(x);
    if constexpr (op == Unary::Sigmoid)
        return 1.0f / (1.0f + std::exp(-x));
    if constexpr (op == Unary::Relu)
        return x > 0 ? x : 0.0f;
    if constexpr (op == Unary::Square)
        return x * x;
    if constexpr (op == Unary::Inv)
        return 1.0f / x;
    return x;
}

// ReluGrad(grad, activation) passes grad where the activation was positive.
template <Binary op>
float apply(float a, float b) {
    if constexpr (op == Binary::Add)
        return a + b;
    if constexpr (op == Binary::Sub)
        return a - b;
    if constexpr (op == Binary::Mul)
        return a * b;
    if constexpr (op == Binary::Div)
        return a / b;
    if constexpr (op == Binary::Max)
        return std::max(a, b);
    if constexpr (op == Binary::Min)
        return std::min(a, b);
    if constexpr (op == Binary::ReluGrad)
        return b > 0 ? a : 0.0f;
    return a;
}

// out[i] = op(in1[i]) for a unary op; op(in1[i], in2[i]) for a binary one,
// or op(in1[i], scalar) when in2 is null.
template <auto op>
void elementwise(const float* in1, const float* in2, float scalar, float* out, std::size_t n) {
    if constexpr (std::is_same_v<decltype(op), Unary>) {
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = apply<op>(in1[i]);
        }
    } else if (in2) {
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = apply<op>(in1[i], in2[i]);
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = apply<op>(in1[i], scalar);
        }
    }
}

// Halves go through float a block at a time, converted in bulk
// (core/HalfBlocks.h): the same bits as converting each element.
template <auto op>
void elementwise(const half* in1, const half* in2, float scalar, half* out, std::size_t n) {
    constexpr std::size_t kBlock = 512;
    float a[kBlock], b[kBlock];
    for (std::size_t done = 0; done < n; done += kBlock) {
        const std::size_t m = std::min(kBlock, n - done);
        halvesToFloats(in1 + done, a, m);
        if (in2) {
            halvesToFloats(in2 + done, b, m);
        }
        elementwise<op>(a, in2 ? b : nullptr, scalar, a, m);
        floatsToHalves(a, out + done, m);
    }
}

template <Unary op, typename T>
class UnaryVertex : public Vertex {
public:
    Input<Vector<T>> in;
    Output<Vector<T>> out;
    bool compute() {
        elementwise<op>(in.data(), static_cast<const T*>(nullptr), 0.0f, out.data(), out.size());
        return true;
    }
};

template <Binary op, typename T>
class BinaryVertex : public Vertex {
public:
    Input<Vector<T>> in1;
    Input<Vector<T>> in2;
    Output<Vector<T>> out;
    bool compute() {
        elementwise<op>(in1.data(), in2.data(), 0.0f, out.data(), out.size());
        return true;
    }
};

template <Binary op, typename T>
class BinaryScalarVertex : public Vertex {
public:
    Input<Vector<T>> in;
    Input<T> scalar;
    Output<Vector<T>> out;
    bool compute() {
        elementwise<op>(in.data(), static_cast<const T*>(nullptr), float(*scalar), out.data(),
                        out.size());
        return true;
    }
};

template <Unary op, typename T>
void addUnary(CodeletRegistry& r, const UnaryInfo& info) {
    using V = UnaryVertex<op, T>;
    const double c = info.cycles;
    r.add(CodeletBuilder<V>(typedName<T>(info.name))
              .field("in", &V::in)
              .field("out", &V::out)
              .sameSize({"in", "out"})
              .codeBytes(160)
              .estimator("12 + n * " + std::to_string(c) +
                             (TypeOf<T>::value == Type::Half ? " / 2" : ""),
                         [c](const VertexIntrospector& v, const Target&) {
                             const std::size_t n = v.fieldSize("out");
                             return PerfEstimate{vectorCycles(n, TypeOf<T>::value, c, 12), n};
                         })
              .build());
}

template <Binary op, typename T>
void addBinary(CodeletRegistry& r, const BinaryInfo& info) {
    using V = BinaryVertex<op, T>;
    using S = BinaryScalarVertex<op, T>;
    const double c = info.cycles;
    const std::string formula =
        "14 + n * " + std::to_string(c) + (TypeOf<T>::value == Type::Half ? " / 2" : "");
    auto estimate = [c](const VertexIntrospector& v, const Target&) {
        const std::size_t n = v.fieldSize("out");
        return PerfEstimate{vectorCycles(n, TypeOf<T>::value, c, 14), n};
    };
    r.add(CodeletBuilder<V>(typedName<T>(info.name))
              .field("in1", &V::in1)
              .field("in2", &V::in2)
              .field("out", &V::out)
              .sameSize({"in1", "in2", "out"})
              .codeBytes(192)
              .estimator(formula, estimate)
              .build());
    r.add(CodeletBuilder<S>(typedName<T>((std::string(info.name) + "Scalar").c_str()))
              .field("in", &S::in)
              .field("scalar", &S::scalar)
              .field("out", &S::out)
              .sameSize({"in", "out"})
              .codeBytes(176)
              .estimator(formula, estimate)
              .build());
}

template <typename T>
void addAll(CodeletRegistry& r) {
    addUnary<Unary::Neg, T>(r, kUnary[0]);
    addUnary<Unary::Abs, T>(r, kUnary[1]);
    addUnary<Unary::Exp, T>(r, kUnary[2]);
    addUnary<Unary::Log, T>(r, kUnary[3]);
    addUnary<Unary::Sqrt, T>(r, kUnary[4]);
    addUnary<Unary::Tanh, T>(r, kUnary[5]);
    addUnary<Unary::Sigmoid, T>(r, kUnary[6]);
    addUnary<Unary::Relu, T>(r, kUnary[7]);
    addUnary<Unary::Square, T>(r, kUnary[8]);
    addUnary<Unary::Inv, T>(r, kUnary[9]);
    addBinary<Binary::Add, T>(r, kBinary[0]);
    addBinary<Binary::Sub, T>(r, kBinary[1]);
    addBinary<Binary::Mul, T>(r, kBinary[2]);
    addBinary<Binary::Div, T>(r, kBinary[3]);
    addBinary<Binary::Max, T>(r, kBinary[4]);
    addBinary<Binary::Min, T>(r, kBinary[5]);
    addBinary<Binary::ReluGrad, T>(r, kBinary[6]);
}

} // namespace

void registerElementwiseCodelets(CodeletRegistry& registry) {
    addAll<float>(registry);
    addAll<half>(registry);
}

} // namespace tessera
