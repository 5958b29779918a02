// Slicing at run-time offsets (ops/Slice.h): each vertex holds the candidate
// slices `base` of some columns (one list entry per index of the sliced
// dimension) and the slices `sub` it reads or writes.
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"

#include <algorithm>

namespace tessera {

namespace {

// Where dynamicSlice starts: the offset, or 0 when it is out of range.
std::size_t start(unsigned offset, std::size_t entries) {
    return offset < entries ? offset : 0;
}

template <typename T>
class DynamicSlice : public Vertex {
public:
    Input<unsigned> offset;
    Vector<Input<Vector<T>>> base;
    Vector<Output<Vector<T>>> sub;
    bool compute() {
        const std::size_t n = base.size();
        std::size_t from = start(offset, n);
        for (std::size_t i = 0; i < sub.size(); ++i, from = (from + 1) % n) {
            std::copy(base[from].begin(), base[from].end(), sub[i].begin());
        }
        return true;
    }
};

template <typename T>
class DynamicUpdate : public Vertex {
public:
    Input<unsigned> offset;
    Vector<InOut<Vector<T>>> base;
    Vector<Input<Vector<T>>> sub;
    bool compute() {
        const std::size_t n = base.size();
        std::size_t to = start(offset, n);
        for (std::size_t i = 0; i < sub.size(); ++i, to = (to + 1) % n) {
            std::copy(sub[i].begin(), sub[i].end(), base[to].begin());
        }
        return true;
    }
};

template <typename T>
class MultiSlice : public Vertex {
public:
    Input<Vector<unsigned>> offsets;
    Vector<Input<Vector<T>>> base;
    Vector<Output<Vector<T>>> sub;
    bool compute() {
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            if (offsets[i] < base.size()) {
                std::copy(base[offsets[i]].begin(), base[offsets[i]].end(), sub[i].begin());
            } else { // out of range: a defined value rather than stale memory
                std::fill(sub[i].begin(), sub[i].end(), T(0.0f));
            }
        }
        return true;
    }
};

template <typename T>
class MultiUpdate : public Vertex {
public:
    Input<Vector<unsigned>> offsets;
    Vector<InOut<Vector<T>>> base;
    Vector<Input<Vector<T>>> sub;
    bool compute() {
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            if (offsets[i] < base.size()) {
                std::copy(sub[i].begin(), sub[i].end(), base[offsets[i]].begin());
            }
        }
        return true;
    }
};

template <typename T, typename S>
class MultiUpdateAdd : public Vertex {
public:
    Input<Vector<unsigned>> offsets;
    Input<S> scale;
    Vector<InOut<Vector<T>>> base;
    Vector<Input<Vector<T>>> sub;
    bool compute() {
        const float k = float(S(scale));
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            if (offsets[i] < base.size()) {
                auto& row = base[offsets[i]];
                for (std::size_t e = 0; e < row.size(); ++e) {
                    if constexpr (std::is_integral_v<T>) {
                        row[e] = T(row[e] + T(k * float(sub[i][e])));
                    } else {
                        row[e] = T(float(row[e]) + k * float(sub[i][e]));
                    }
                }
            }
        }
        return true;
    }
};

template <typename T>
class MultiUpdateMax : public Vertex {
public:
    Input<Vector<unsigned>> offsets;
    Vector<InOut<Vector<T>>> base;
    Vector<Input<Vector<T>>> sub;
    bool compute() {
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            if (offsets[i] < base.size()) {
                auto& row = base[offsets[i]];
                for (std::size_t e = 0; e < row.size(); ++e) {
                    if (float(sub[i][e]) > float(row[e])) {
                        row[e] = sub[i][e];
                    }
                }
            }
        }
        return true;
    }
};

// Copies `slices` rows of `region` elements, a few cycles of set-up per row.
std::uint64_t copyCycles(const VertexIntrospector& v, Type t, std::size_t slices) {
    const std::vector<std::size_t> rows = v.listSizes("sub");
    const std::size_t region = rows.empty() ? 0 : rows.front();
    return 10 + slices * vectorCycles(region, t, t == Type::Bool ? 0.125 : 0.5, 4);
}

template <typename C, typename B>
B&& listFields(B&& b) {
    return std::forward<B>(b)
        .field("base", &C::base)
        .field("sub", &C::sub)
        .sameSize({"base", "sub"});
}

template <typename T>
void addSliceCodelets(CodeletRegistry& r) {
    constexpr Type t = TypeOf<T>::value; // a constant: the estimators need not capture it
    {
        using C = DynamicSlice<T>;
        r.add(
            listFields<C>(
                CodeletBuilder<C>(typedName<T>("popops::DynamicSlice")).field("offset", &C::offset))
                .codeBytes(160)
                .estimator("10 + slices * (4 + region / 2 (half: / 4))",
                           [](const VertexIntrospector& v, const Target&) {
                               return PerfEstimate{copyCycles(v, t, v.listSizes("sub").size()), 0};
                           })
                .build());
    }
    {
        using C = DynamicUpdate<T>;
        r.add(
            listFields<C>(CodeletBuilder<C>(typedName<T>("popops::DynamicUpdate"))
                              .field("offset", &C::offset))
                .codeBytes(160)
                .estimator("10 + slices * (4 + region / 2 (half: / 4))",
                           [](const VertexIntrospector& v, const Target&) {
                               return PerfEstimate{copyCycles(v, t, v.listSizes("sub").size()), 0};
                           })
                .build());
    }
    auto multi = [](const VertexIntrospector& v, const Target&) {
        return PerfEstimate{copyCycles(v, t, v.fieldSize("offsets")) + 2 * v.fieldSize("offsets"),
                            0};
    };
    {
        using C = MultiSlice<T>;
        r.add(
            listFields<C>(
                CodeletBuilder<C>(typedName<T>("popops::MultiSlice")).field("offsets", &C::offsets))
                .codeBytes(192)
                .estimator("10 + offsets * (6 + region / 2 (half: / 4))", multi)
                .build());
    }
    {
        using C = MultiUpdate<T>;
        r.add(listFields<C>(CodeletBuilder<C>(typedName<T>("popops::MultiUpdate"))
                                .field("offsets", &C::offsets))
                  .codeBytes(192)
                  .estimator("10 + offsets * (6 + region / 2 (half: / 4))", multi)
                  .build());
    }
}

template <typename T, typename S>
void addUpdateAdd(CodeletRegistry& r) {
    using C = MultiUpdateAdd<T, S>;
    const Type t = TypeOf<T>::value;
    r.add(listFields<C>(CodeletBuilder<C>("popops::MultiUpdateAdd<" + typeNameOf<T>() + "," +
                                          typeNameOf<S>() + ">")
                            .field("offsets", &C::offsets)
                            .field("scale", &C::scale))
              .codeBytes(224)
              .estimator(
                  "10 + offsets * (6 + region (half: / 2))",
                  [](const VertexIntrospector& v, const Target&) {
                      const std::vector<std::size_t> rows = v.listSizes("sub");
                      const std::size_t region = rows.empty() ? 0 : rows.front();
                      const std::size_t n = v.fieldSize("offsets");
                      return PerfEstimate{10 + n * vectorCycles(region, t, 1.0, 6), 2 * n * region};
                  })
              .build());
}

template <typename T>
void addUpdateMax(CodeletRegistry& r) {
    using C = MultiUpdateMax<T>;
    const Type t = TypeOf<T>::value;
    r.add(
        listFields<C>(
            CodeletBuilder<C>(typedName<T>("popops::MultiUpdateMax")).field("offsets", &C::offsets))
            .codeBytes(224)
            .estimator("10 + offsets * (6 + region (half: / 2))",
                       [](const VertexIntrospector& v, const Target&) {
                           const std::vector<std::size_t> rows = v.listSizes("sub");
                           const std::size_t region = rows.empty() ? 0 : rows.front();
                           return PerfEstimate{
                               10 + v.fieldSize("offsets") * vectorCycles(region, t, 1.0, 6), 0};
                       })
            .build());
}

} // namespace

void registerSliceCodelets(CodeletRegistry& registry) {
    addSliceCodelets<float>(registry);
    addSliceCodelets<half>(registry);
    addSliceCodelets<int>(registry);
    addSliceCodelets<unsigned>(registry);
    addSliceCodelets<bool>(registry);
    addUpdateAdd<float, float>(registry);
    addUpdateAdd<half, half>(registry);
    addUpdateAdd<half, float>(registry);
    addUpdateAdd<int, int>(registry);
    addUpdateAdd<unsigned, unsigned>(registry);
    addUpdateMax<float>(registry);
    addUpdateMax<half>(registry);
    addUpdateMax<int>(registry);
    addUpdateMax<unsigned>(registry);
}

} // namespace tessera
