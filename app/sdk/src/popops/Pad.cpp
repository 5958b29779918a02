// popops::pad on Poplar's tensor views: truncation is a slice, padding a
// concatenation with constants (or a broadcast value tensor) or with slices
// of the tensor itself (EDGE, REFLECT). No program is added.
#include <poplar/Graph.hpp>
#include <popops/Pad.hpp>
#include <poputil/exceptions.hpp>

#include <functional>
#include <string>

namespace popops {

namespace {

using Padding = std::vector<std::ptrdiff_t>;
// Makes the `count` padding elements along `dim` of `t`: those before it
// when `lower`, else those after it.
using PadMaker = std::function<poplar::Tensor(const poplar::Tensor& t, unsigned dim,
                                              std::size_t count, bool lower)>;

void checkPaddings(const poplar::Tensor& t, const Padding& lower, const Padding& upper) {
    if (lower.size() != t.rank() || upper.size() != t.rank()) {
        throw poputil::poplibs_error("pad: the tensor has rank " + std::to_string(t.rank()) +
                                     " but paddingLower has " + std::to_string(lower.size()) +
                                     " entries and paddingUpper " + std::to_string(upper.size()));
    }
    for (std::size_t d = 0; d < t.rank(); ++d) {
        const auto n = static_cast<std::ptrdiff_t>(t.dim(static_cast<unsigned>(d)));
        if (lower[d] + n < 0 || upper[d] + n < 0 || lower[d] + upper[d] + n < 0) {
            throw poputil::poplibs_error("pad: cannot truncate dimension " + std::to_string(d) +
                                         " (of size " + std::to_string(n) +
                                         ") by more than its size");
        }
    }
}

// Truncates (negative paddings) then pads each dimension in turn.
poplar::Tensor padWith(poplar::Tensor t, const Padding& lower, const Padding& upper,
                       const PadMaker& make) {
    checkPaddings(t, lower, upper);
    for (unsigned d = 0; d < t.rank(); ++d) {
        if (lower[d] < 0) {
            t = t.slice(static_cast<std::size_t>(-lower[d]), t.dim(d), d);
        }
        if (upper[d] < 0) {
            t = t.slice(0, t.dim(d) - static_cast<std::size_t>(-upper[d]), d);
        }
        std::vector<poplar::Tensor> parts;
        if (lower[d] > 0) {
            parts.push_back(make(t, d, static_cast<std::size_t>(lower[d]), true));
        }
        parts.push_back(t);
        if (upper[d] > 0) {
            parts.push_back(make(t, d, static_cast<std::size_t>(upper[d]), false));
        }
        if (parts.size() > 1) {
            t = poplar::concat(parts, d);
        }
    }
    return t;
}

// The element next to the padding: the first or last slice along `dim`.
poplar::Tensor edgeOf(const poplar::Tensor& t, unsigned dim, bool lower) {
    const std::size_t n = t.dim(dim);
    return lower ? t.slice(0, 1, dim) : t.slice(n - 1, n, dim);
}

// The tile mapping of `edge`, which must be complete.
poplar::TileToTensorMapping completeMappingOf(const poplar::Graph& graph,
                                              const poplar::Tensor& edge) {
    const poplar::TileToTensorMapping mapping = graph.getTileMapping(edge);
    std::size_t mapped = 0;
    for (const auto& intervals : mapping) {
        for (const poplar::Interval& i : intervals) {
            mapped += i.size();
        }
    }
    if (mapped != edge.numElements()) {
        throw poputil::poplibs_error("pad: MappingMethod::EDGE needs the padded tensor to be "
                                     "fully mapped to tiles");
    }
    return mapping;
}

// Maps each of the `count` slices of `padding` along `dim` as `mapping` (the
// edge slice's) says.
void mapRowsLike(poplar::Graph& graph, const poplar::Tensor& padding,
                 const poplar::TileToTensorMapping& mapping, unsigned dim, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
        const poplar::Tensor row = padding.slice(k, k + 1, dim).flatten();
        for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
            for (const poplar::Interval& i : mapping[tile]) {
                graph.setTileMapping(row.slice(i.begin(), i.end()), static_cast<unsigned>(tile));
            }
        }
    }
}

PadMaker constantMaker(poplar::Graph& graph, double value, padding::MappingMethod method) {
    return [&graph, value, method](const poplar::Tensor& t, unsigned dim, std::size_t count,
                                   bool lower) {
        if (method == padding::MappingMethod::EDGE && t.dim(dim) == 0) {
            throw poputil::poplibs_error(
                "pad: MappingMethod::EDGE needs a non-empty tensor to pad");
        }
        std::vector<std::size_t> shape = t.shape();
        shape[dim] = count;
        // The edge's mapping is read (and checked) before anything is added.
        poplar::TileToTensorMapping edgeMapping;
        if (method == padding::MappingMethod::EDGE) {
            edgeMapping = completeMappingOf(graph, edgeOf(t, dim, lower));
        }
        poplar::Tensor c = graph.addConstant(t.elementType(), shape, value, "padding");
        if (method == padding::MappingMethod::ZERO) {
            graph.setTileMapping(c, 0);
        } else if (method == padding::MappingMethod::EDGE) {
            mapRowsLike(graph, c, edgeMapping, dim, count);
        }
        return c;
    };
}

PadMaker tensorMaker(const poplar::Tensor& val) {
    if (val.numElements() != 1) {
        throw poputil::poplibs_error("pad: the padding value tensor must have one element, not " +
                                     std::to_string(val.numElements()));
    }
    return [val](const poplar::Tensor& t, unsigned dim, std::size_t count, bool) {
        if (val.elementType() != t.elementType()) {
            throw poputil::poplibs_error("pad: the padding value is " +
                                         val.elementType().toString() + " but the tensor is " +
                                         t.elementType().toString());
        }
        std::vector<std::size_t> shape = t.shape();
        shape[dim] = count;
        poplar::Tensor v = val.reshape(std::vector<std::size_t>(shape.size(), 1));
        for (unsigned d = 0; d < shape.size(); ++d) {
            v = shape[d] == 0 ? v.slice(0, 0, d) : v.broadcast(static_cast<unsigned>(shape[d]), d);
        }
        return v;
    };
}

PadMaker numpyMaker(padding::Type type) {
    return [type](const poplar::Tensor& t, unsigned dim, std::size_t count, bool lower) {
        const std::size_t n = t.dim(dim);
        if (type == padding::Type::EDGE) {
            if (n == 0) {
                throw poputil::poplibs_error("pad: EDGE padding of dimension " +
                                             std::to_string(dim) + ", which is empty");
            }
            return edgeOf(t, dim, lower).broadcast(static_cast<unsigned>(count), dim);
        }
        if (count >= n) {
            throw poputil::poplibs_error("pad: REFLECT padding of " + std::to_string(count) +
                                         " in dimension " + std::to_string(dim) +
                                         " needs more than " + std::to_string(count) +
                                         " elements, it has " + std::to_string(n));
        }
        // Mirrored about the edge element, which is not repeated.
        return (lower ? t.slice(1, count + 1, dim) : t.slice(n - 1 - count, n - 1, dim))
            .reverse(dim);
    };
}

// Paddings of one dimension as per-dimension vectors.
std::pair<Padding, Padding> oneDim(const poplar::Tensor& t, std::ptrdiff_t lower,
                                   std::ptrdiff_t upper, unsigned dim) {
    if (dim >= t.rank()) {
        throw poputil::poplibs_error("pad: dimension " + std::to_string(dim) +
                                     " is out of range for a tensor of rank " +
                                     std::to_string(t.rank()));
    }
    Padding l(t.rank(), 0), u(t.rank(), 0);
    l[dim] = lower;
    u[dim] = upper;
    return {l, u};
}

} // namespace

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, const Padding& paddingLower,
                   const Padding& paddingUpper, float val, padding::MappingMethod mappingMethod) {
    return padWith(t, paddingLower, paddingUpper, constantMaker(graph, val, mappingMethod));
}

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, const Padding& paddingLower,
                   const Padding& paddingUpper, int val, padding::MappingMethod mappingMethod) {
    return padWith(t, paddingLower, paddingUpper, constantMaker(graph, val, mappingMethod));
}

poplar::Tensor pad(poplar::Graph&, const poplar::Tensor& t, const Padding& paddingLower,
                   const Padding& paddingUpper, const poplar::Tensor& val, padding::MappingMethod) {
    return padWith(t, paddingLower, paddingUpper, tensorMaker(val));
}

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, float val,
                   padding::MappingMethod mappingMethod) {
    const auto [l, u] = oneDim(t, paddingLower, paddingUpper, dim);
    return pad(graph, t, l, u, val, mappingMethod);
}

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, int val,
                   padding::MappingMethod mappingMethod) {
    const auto [l, u] = oneDim(t, paddingLower, paddingUpper, dim);
    return pad(graph, t, l, u, val, mappingMethod);
}

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, const poplar::Tensor& val,
                   padding::MappingMethod mappingMethod) {
    const auto [l, u] = oneDim(t, paddingLower, paddingUpper, dim);
    return pad(graph, t, l, u, val, mappingMethod);
}

poplar::Tensor pad(const poplar::Tensor& t, const Padding& paddingLower,
                   const Padding& paddingUpper, padding::Type type) {
    return padWith(t, paddingLower, paddingUpper, numpyMaker(type));
}

poplar::Tensor pad(const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, padding::Type type) {
    const auto [l, u] = oneDim(t, paddingLower, paddingUpper, dim);
    return pad(t, l, u, type);
}

} // namespace popops
