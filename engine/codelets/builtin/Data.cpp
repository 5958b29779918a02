// Data movement and update codelets: fill, cast, scaled add (SGD update).
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/core/Convert.h"

namespace tessera {

namespace {

template <typename T>
class Fill : public Vertex {
public:
    Output<Vector<T>> out;
    T value{}; // of the tensor's type, so integers beyond 2^24 fill exactly
    bool compute() {
        const T v = value;
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = v;
        }
        return true;
    }
};

template <typename In, typename Out>
class Cast : public Vertex {
public:
    Input<Vector<In>> in;
    Output<Vector<Out>> out;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = convertElement<Out, In>(in[i]);
        }
        return true;
    }
};

// data += scale * deltas
template <typename T>
class ScaledAdd : public Vertex {
public:
    InOut<Vector<T>> data;
    Input<Vector<T>> deltas;
    float scale = 1;
    bool compute() {
        for (std::size_t i = 0; i < data.size(); ++i) {
            data[i] = T(float(data[i]) + scale * float(deltas[i]));
        }
        return true;
    }
};

template <typename T>
void addFill(CodeletRegistry& r) {
    using F = Fill<T>;
    r.add(CodeletBuilder<F>(typedName<T>("Fill"))
              .field("out", &F::out)
              .state("value", &F::value)
              .codeBytes(96)
              .estimator("8 + n / 2 (4-byte types), n / 4 (half)",
                         [](const VertexIntrospector& v, const Target&) {
                             return PerfEstimate{
                                 vectorCycles(v.fieldSize("out"), TypeOf<T>::value, 0.5, 8), 0};
                         })
              .build());
}

template <typename T>
void addScaledAdd(CodeletRegistry& r) {
    using S = ScaledAdd<T>;
    r.add(CodeletBuilder<S>(typedName<T>("ScaledAdd"))
              .field("data", &S::data)
              .field("deltas", &S::deltas)
              .state("scale", &S::scale)
              .sameSize({"data", "deltas"})
              .codeBytes(176)
              .estimator("14 + n / 2 (float), n / 4 (half)",
                         [](const VertexIntrospector& v, const Target&) {
                             const std::size_t n = v.fieldSize("data");
                             return PerfEstimate{vectorCycles(n, TypeOf<T>::value, 0.5, 14), 2 * n};
                         })
              .build());
}

template <typename In, typename Out>
void addCast(CodeletRegistry& r) {
    using C = Cast<In, Out>;
    r.add(
        CodeletBuilder<C>("Cast<" + typeNameOf<In>() + "," + typeNameOf<Out>() + ">")
            .field("in", &C::in)
            .field("out", &C::out)
            .sameSize({"in", "out"})
            .codeBytes(128)
            .estimator(
                "12 + n / 2",
                [](const VertexIntrospector& v, const Target&) {
                    return PerfEstimate{vectorCycles(v.fieldSize("out"), Type::Float, 0.5, 12), 0};
                })
            .build());
}

// Cast<In,Out> for every other element type Out.
template <typename In>
void addCasts(CodeletRegistry& r) {
    const auto add = [&r]<typename Out>(Out*) {
        if constexpr (!std::is_same_v<In, Out>) {
            addCast<In, Out>(r);
        }
    };
    add(static_cast<float*>(nullptr));
    add(static_cast<half*>(nullptr));
    add(static_cast<int*>(nullptr));
    add(static_cast<unsigned*>(nullptr));
    add(static_cast<bool*>(nullptr));
}

} // namespace

void registerDataCodelets(CodeletRegistry& registry) {
    addFill<float>(registry);
    addFill<half>(registry);
    addFill<int>(registry);
    addFill<unsigned>(registry);
    addFill<bool>(registry);
    addScaledAdd<float>(registry);
    addScaledAdd<half>(registry);
    addCasts<float>(registry);
    addCasts<half>(registry);
    addCasts<int>(registry);
    addCasts<unsigned>(registry);
    addCasts<bool>(registry);
}

} // namespace tessera
