// Integer element-wise codelets (the engine's built-ins are float and half):
// Add/Sub/Mul/Div/Max/Min/Neg/Abs/Square for int and unsigned int, under the
// names engine/ops expects ("Add<int>"), with the built-ins' cycle formulas
// for 4-byte types. Integer division by zero gives 0.
#include "IntegerCodelets.h"

#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"

#include <algorithm>
#include <string>

namespace popops::detail {

namespace {

enum class Op { Add, Sub, Mul, Div, Max, Min, Neg, Abs, Square };

template <Op op, typename T>
T apply(T a, T b) {
    if constexpr (op == Op::Add)
        return T(a + b);
    if constexpr (op == Op::Sub)
        return T(a - b);
    if constexpr (op == Op::Mul)
        return T(a * b);
    if constexpr (op == Op::Div)
        return b == 0 ? T(0) : T(a / b);
    if constexpr (op == Op::Max)
        return std::max(a, b);
    if constexpr (op == Op::Min)
        return std::min(a, b);
    if constexpr (op == Op::Neg)
        return T(-a);
    if constexpr (op == Op::Abs)
        return a < 0 ? T(-a) : a;
    if constexpr (op == Op::Square)
        return T(a * a);
    return a;
}

template <Op op, typename T>
class Binary : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> in1;
    tessera::Input<tessera::Vector<T>> in2;
    tessera::Output<tessera::Vector<T>> out;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = apply<op, T>(in1[i], in2[i]);
        }
        return true;
    }
};

template <Op op, typename T>
class Unary : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> in;
    tessera::Output<tessera::Vector<T>> out;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = apply<op, T>(in[i], T(0));
        }
        return true;
    }
};

template <typename T>
std::string typed(const char* name) {
    return std::string(name) + "<" + std::string(tessera::typeName(tessera::TypeOf<T>::value)) +
           ">";
}

tessera::PerfEstimator linear(double perElement, std::uint64_t overhead, const char* field) {
    return [perElement, overhead, field](const tessera::VertexIntrospector& v,
                                         const tessera::Target&) {
        const std::size_t n = v.fieldSize(field);
        return tessera::PerfEstimate{
            tessera::vectorCycles(n, tessera::Type::Int, perElement, overhead), n};
    };
}

template <Op op, typename T>
void binary(tessera::Graph& g, const char* name, double perElement) {
    using V = Binary<op, T>;
    g.addCodelet(
        tessera::CodeletBuilder<V>(typed<T>(name))
            .field("in1", &V::in1)
            .field("in2", &V::in2)
            .field("out", &V::out)
            .sameSize({"in1", "in2", "out"})
            .codeBytes(192)
            .estimator("14 + n * " + std::to_string(perElement), linear(perElement, 14, "out"))
            .build());
}

template <Op op, typename T>
void unary(tessera::Graph& g, const char* name) {
    using V = Unary<op, T>;
    g.addCodelet(tessera::CodeletBuilder<V>(typed<T>(name))
                     .field("in", &V::in)
                     .field("out", &V::out)
                     .sameSize({"in", "out"})
                     .codeBytes(160)
                     .estimator("12 + n / 2", linear(0.5, 12, "out"))
                     .build());
}

template <typename T>
void addAll(tessera::Graph& g) {
    binary<Op::Add, T>(g, "Add", 0.5);
    binary<Op::Sub, T>(g, "Sub", 0.5);
    binary<Op::Mul, T>(g, "Mul", 0.5);
    binary<Op::Div, T>(g, "Div", 4);
    binary<Op::Max, T>(g, "Max", 0.5);
    binary<Op::Min, T>(g, "Min", 0.5);
    unary<Op::Square, T>(g, "Square");
    unary<Op::Abs, T>(g, "Abs");
    unary<Op::Neg, T>(g, "Neg");
}

} // namespace

void addIntegerCodelets(tessera::Graph& graph) {
    addAll<int>(graph);
    addAll<unsigned>(graph);
}

} // namespace popops::detail
