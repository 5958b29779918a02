// popops::topK on the engine's stable key-value sort: each innermost row is
// copied with its indices (or the caller's values), sorted in the direction
// that puts the wanted k first, and the first k sliced off; when the order
// asked for is the other one, those k are sorted again. Equal keys keep
// their index order in every direction: a descending sort is an ascending
// sort of the reversed row.
#include "Common.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Order.h"

#include <popops/TopK.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <ostream>

namespace popops {

using detail::eg;
using detail::et;
using detail::nameOf;
using detail::pt;

TopKParams::TopKParams(unsigned k_, bool largest_, SortOrder sortOrder_, bool stableSort_) noexcept
    : k(k_)
    , largest(largest_)
    , sortOrder(sortOrder_)
    , stableSort(stableSort_) {}

std::ostream& operator<<(std::ostream& os, const SortOrder& o) {
    switch (o) {
    case SortOrder::NONE:
        return os << "none";
    case SortOrder::ASCENDING:
        return os << "ascending";
    case SortOrder::DESCENDING:
        return os << "descending";
    }
    return os << "unknown";
}

std::ostream& operator<<(std::ostream& os, const TopKParams& p) {
    return os << "{k=" << p.k << ", largest=" << (p.largest ? "true" : "false")
              << ", sortOrder=" << p.sortOrder
              << ", stableSort=" << (p.stableSort ? "true" : "false") << "}";
}

namespace {

void check(const std::vector<std::size_t>& shape, const poplar::Type& type, const TopKParams& p,
           const std::string& what) {
    if (shape.empty()) {
        throw poputil::poplibs_error(what + ": the input must have at least one dimension");
    }
    if (type == poplar::BOOL) {
        throw poputil::poplibs_error(what + ": bool inputs cannot be ordered");
    }
    if (p.k > shape.back()) {
        throw poputil::poplibs_error(what + ": k (" + std::to_string(p.k) +
                                     ") is greater than the innermost dimension (" +
                                     std::to_string(shape.back()) + ")");
    }
}

void check(const poplar::Tensor& t, const TopKParams& p, const std::string& what) {
    check(t.shape(), t.elementType(), p, what);
}

// A copy of `t` mapped like `like`.
tessera::Tensor copyOf(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& t,
                       const tessera::Tensor& like, const std::string& name) {
    const tessera::Tensor c = tessera::ops::cloneLike(g, like, t.elementType(), name);
    seq.add(tessera::program::Copy(t, c));
    return c;
}

// Sorts the rows of keys and values in place, stably, ascending or descending.
void sortRows(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& keys,
              const tessera::Tensor& values, bool descending, const std::string& name) {
    const std::size_t last = keys.rank() - 1;
    if (descending) {
        tessera::ops::sortKeyValueInPlace(g, seq, keys.reverse(last), values.reverse(last), last,
                                          name);
    } else {
        tessera::ops::sortKeyValueInPlace(g, seq, keys, values, last, name);
    }
}

// The top k of `keys` and `values` permuted alike (values: the indices when
// not given), in one Block named `name`.
std::pair<tessera::Tensor, tessera::Tensor>
topKPairs(tessera::Graph& g, tessera::program::Sequence& outer, const tessera::Tensor& keys,
          const tessera::Tensor* values, const TopKParams& p, const std::string& name) {
    tessera::program::Sequence seq;
    const std::size_t last = keys.rank() - 1;
    const std::size_t n = keys.dim(last);
    tessera::Tensor k = copyOf(g, seq, keys, keys, name + "/keys");
    tessera::Tensor v;
    if (values != nullptr) {
        v = copyOf(g, seq, *values, keys, name + "/values");
    } else {
        std::vector<double> indices(keys.numElements());
        for (std::size_t i = 0; i < indices.size(); ++i) {
            indices[i] = static_cast<double>(n == 0 ? 0 : i % n);
        }
        const tessera::Tensor iota =
            g.addConstant(tessera::Type::UnsignedInt, keys.shape(), indices, name + "/indices");
        tessera::ops::mapLinearly(g, iota, std::max<std::size_t>(1, n));
        v = copyOf(g, seq, iota, keys, name + "/indices");
    }
    if (n > 0 && p.k > 0) {
        sortRows(g, seq, k, v, p.largest, name + "/sort");
    }
    tessera::Tensor topKeys = k.slice(0, p.k, last);
    tessera::Tensor topValues = v.slice(0, p.k, last);
    const bool reorder = (p.largest && p.sortOrder == SortOrder::ASCENDING) ||
                         (!p.largest && p.sortOrder == SortOrder::DESCENDING);
    if (reorder && p.k > 1) {
        topKeys = copyOf(g, seq, topKeys, topKeys, name + "/orderedKeys");
        topValues = copyOf(g, seq, topValues, topKeys, name + "/orderedValues");
        sortRows(g, seq, topKeys, topValues, !p.largest, name + "/order");
    }
    outer.add(tessera::program::Block(seq, name, tessera::program::LibraryCall::at()));
    return {topKeys, topValues};
}

} // namespace

poplar::Tensor createTopKInput(poplar::Graph& graph, const poplar::Type& type,
                               const std::vector<std::size_t>& shape, const TopKParams& params,
                               const poplar::DebugContext& dc) {
    check(shape, type, params, "createTopKInput");
    poplar::Tensor t = graph.addVariable(type, shape, poplar::DebugContext(dc, "topKInput"));
    detail::run(graph, [&] {
        tessera::ops::mapLinearly(eg(graph), et(t), std::max<std::size_t>(1, shape.back()));
    });
    return t;
}

poplar::Tensor topK(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& dc) {
    check(t, params, "topK");
    return detail::run(graph, [&] {
        return pt(detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return topKPairs(eg(graph), seq, et(t), nullptr, params, nameOf(dc, "topK")).first;
        }));
    });
}

std::pair<poplar::Tensor, poplar::Tensor>
topKKeyValue(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& keys,
             const poplar::Tensor& values, const TopKParams& params,
             const poplar::DebugContext& dc) {
    check(keys, params, "topKKeyValue");
    if (keys.shape() != values.shape()) {
        throw poputil::poplibs_error("topKKeyValue: the keys " + keys.shapeToString() +
                                     " and values " + values.shapeToString() +
                                     " must have the same shape");
    }
    return detail::run(graph, [&] {
        const auto r = detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return topKPairs(eg(graph), seq, et(keys), &et(values), params,
                             nameOf(dc, "topKKeyValue"));
        });
        return std::make_pair(pt(r.first), pt(r.second));
    });
}

std::pair<poplar::Tensor, poplar::Tensor>
topKWithPermutation(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& dc) {
    check(t, params, "topKWithPermutation");
    return detail::run(graph, [&] {
        const auto r = detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return topKPairs(eg(graph), seq, et(t), nullptr, params,
                             nameOf(dc, "topKWithPermutation"));
        });
        return std::make_pair(pt(r.first), pt(r.second));
    });
}

} // namespace popops
