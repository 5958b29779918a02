// Sorting, one-hot encoding and iota (ops/Order.h).
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace tessera {

namespace {

// n log2 n compare-and-moves at about 4 cycles each.
std::uint64_t sortCycles(std::size_t n) {
    const double logN = n > 1 ? std::log2(double(n)) : 1.0;
    return 20 + static_cast<std::uint64_t>(4.0 * double(n) * logN);
}

template <typename T>
class SortInPlace : public Vertex {
public:
    InOut<Vector<T>> data;
    bool compute() {
        std::sort(data.begin(), data.end(),
                  [](const T& a, const T& b) { return float(a) < float(b); });
        return true;
    }
};

template <typename K, typename V>
class SortKeyValueInPlace : public Vertex {
public:
    InOut<Vector<K>> keys;
    InOut<Vector<V>> values;
    bool compute() {
        std::vector<std::size_t> order(keys.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return float(keys[a]) < float(keys[b]);
        });
        const std::vector<K> k(keys.begin(), keys.end());
        const std::vector<V> v(values.begin(), values.end());
        for (std::size_t i = 0; i < order.size(); ++i) {
            keys[i] = k[order[i]];
            values[i] = v[order[i]];
        }
        return true;
    }
};

template <typename I, typename T>
class EncodeOneHot : public Vertex {
public:
    Input<Vector<I>> indices; // one per row of `out`
    Input<T> on;
    Input<T> off;
    Output<Vector<T>> out; // rows of `classes` elements
    unsigned classes = 0;
    bool compute() {
        const T hot = on, cold = off;
        std::fill(out.begin(), out.end(), cold);
        for (std::size_t r = 0; r < indices.size(); ++r) {
            const auto index = static_cast<long long>(indices[r]);
            if (index >= 0 && index < static_cast<long long>(classes)) {
                out[r * classes + static_cast<std::size_t>(index)] = hot;
            }
        }
        return true;
    }
};

template <typename T>
class Iota : public Vertex {
public:
    Output<Vector<T>> out;
    int start = 0;       // the value of element 0 of the whole tensor
    unsigned offset = 0; // the index of out[0] in it
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = static_cast<T>(static_cast<long long>(start) + static_cast<long long>(offset) +
                                    static_cast<long long>(i));
        }
        return true;
    }
};

template <typename T>
void addSort(CodeletRegistry& r) {
    using S = SortInPlace<T>;
    r.add(CodeletBuilder<S>(typedName<T>("popops::SortInPlace"))
              .field("data", &S::data)
              .codeBytes(512)
              .estimator("20 + 4 n log2 n",
                         [](const VertexIntrospector& v, const Target&) {
                             return PerfEstimate{sortCycles(v.fieldSize("data")), 0};
                         })
              .build());
}

template <typename K, typename V>
void addSortKeyValue(CodeletRegistry& r) {
    using S = SortKeyValueInPlace<K, V>;
    r.add(CodeletBuilder<S>("popops::SortKeyValueInPlace<" + typeNameOf<K>() + "," +
                            typeNameOf<V>() + ">")
              .field("keys", &S::keys)
              .field("values", &S::values)
              .sameSize({"keys", "values"})
              .codeBytes(640)
              .estimator("20 + 8 n log2 n",
                         [](const VertexIntrospector& v, const Target&) {
                             return PerfEstimate{2 * sortCycles(v.fieldSize("keys")), 0};
                         })
              .build());
}

template <typename I, typename T>
void addOneHot(CodeletRegistry& r) {
    using E = EncodeOneHot<I, T>;
    r.add(CodeletBuilder<E>("popops::EncodeOneHot<" + typeNameOf<I>() + "," + typeNameOf<T>() + ">")
              .field("indices", &E::indices)
              .field("on", &E::on)
              .field("off", &E::off)
              .field("out", &E::out)
              .state("classes", &E::classes)
              .validator([](const VertexIntrospector& v) -> std::string {
                  const auto classes = static_cast<std::size_t>(v.state("classes"));
                  return v.fieldSize("out") == v.fieldSize("indices") * classes
                             ? std::string()
                             : "field 'out' must hold one row of " + std::to_string(classes) +
                                   " per index";
              })
              .codeBytes(192)
              .estimator("16 + out / 2 + 4 indices",
                         [](const VertexIntrospector& v, const Target&) {
                             return PerfEstimate{
                                 16 + v.fieldSize("out") / 2 + 4 * v.fieldSize("indices"), 0};
                         })
              .build());
}

template <typename T>
void addIota(CodeletRegistry& r) {
    using I = Iota<T>;
    r.add(CodeletBuilder<I>(typedName<T>("popops::Iota"))
              .field("out", &I::out)
              .state("start", &I::start)
              .state("offset", &I::offset)
              .codeBytes(64)
              .estimator("8 + n",
                         [](const VertexIntrospector& v, const Target&) {
                             return PerfEstimate{8 + v.fieldSize("out"), 0};
                         })
              .build());
}

} // namespace

void registerOrderCodelets(CodeletRegistry& registry) {
    addSort<float>(registry);
    addSort<half>(registry);
    addSort<int>(registry);
    addSort<unsigned>(registry);
    for (auto add : {&addSortKeyValue<float, float>, &addSortKeyValue<float, unsigned>,
                     &addSortKeyValue<float, int>, &addSortKeyValue<int, int>,
                     &addSortKeyValue<int, unsigned>, &addSortKeyValue<int, float>,
                     &addSortKeyValue<unsigned, unsigned>, &addSortKeyValue<unsigned, float>,
                     &addSortKeyValue<unsigned, int>, &addSortKeyValue<half, half>,
                     &addSortKeyValue<half, unsigned>, &addSortKeyValue<half, int>,
                     &addSortKeyValue<float, half>, &addSortKeyValue<half, float>}) {
        add(registry);
    }
    for (auto add :
         {&addOneHot<unsigned, float>, &addOneHot<unsigned, half>, &addOneHot<unsigned, int>,
          &addOneHot<unsigned, unsigned>, &addOneHot<int, float>, &addOneHot<int, half>,
          &addOneHot<int, int>, &addOneHot<int, unsigned>}) {
        add(registry);
    }
    addIota<int>(registry);
    addIota<unsigned>(registry);
}

} // namespace tessera
