#include "engine/ops/Order.h"

#include "engine/core/Error.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"

namespace tessera::ops {

namespace {

// t with `dim` moved last, as [lines, length].
Tensor lines(const Tensor& t, std::size_t dim, const std::string& name) {
    if (dim >= t.rank()) {
        throw Error(name + ": dimension " + std::to_string(dim) + " is out of range for " +
                    t.describe() + " " + shapeString(t.shape()));
    }
    std::vector<std::size_t> order;
    for (std::size_t d = 0; d < t.rank(); ++d) {
        if (d != dim) {
            order.push_back(d);
        }
    }
    order.push_back(dim);
    const std::size_t length = t.dim(dim);
    const std::size_t count = length == 0 ? 0 : t.numElements() / length;
    return t.dimShuffle(order).reshape({count, length});
}

// The tile holding a line's first element.
TileId tileOf(const Graph& graph, const Tensor& line) {
    const auto mapping = graph.getTileMapping(line.slice(0, 1));
    for (const TileId t : record::idRange<TileId>(mapping.size())) {
        if (!mapping[t.value()].empty()) {
            return t;
        }
    }
    throw Error("sort: " + line.describe() + " is not mapped to a tile");
}

void sortLines(Graph& graph, program::Sequence& seq, const Tensor& keys,
               const std::optional<Tensor>& values, std::size_t dim, const std::string& name) {
    const Tensor k = lines(keys, dim, name);
    std::optional<Tensor> v;
    std::string codelet = "popops::SortInPlace<" + std::string(typeName(keys.elementType())) + ">";
    if (values) {
        if (values->shape() != keys.shape()) {
            throw Error(name + ": the keys " + keys.describe() + " " + shapeString(keys.shape()) +
                        " and values " + values->describe() + " " + shapeString(values->shape()) +
                        " differ in shape");
        }
        v = lines(*values, dim, name);
        codelet = "popops::SortKeyValueInPlace<" + std::string(typeName(keys.elementType())) + "," +
                  std::string(typeName(values->elementType())) + ">";
    }
    try {
        graph.codelet(codelet);
    } catch (const Error&) {
        throw Error(name + ": sorting " + std::string(typeName(keys.elementType())) +
                    (values
                         ? " keys with " + std::string(typeName(values->elementType())) + " values"
                         : std::string(" elements")) +
                    " is not supported");
    }
    const ComputeSet cs = graph.addComputeSet(name);
    for (std::size_t i = 0; i < k.dim(0); ++i) {
        const VertexRef vx = v ? graph.addVertex(cs, codelet, {{"keys", k[i]}, {"values", (*v)[i]}})
                               : graph.addVertex(cs, codelet, {{"data", k[i]}});
        graph.setTileMapping(vx, tileOf(graph, k[i]));
    }
    seq.add(program::Block(program::Sequence{program::Execute(cs)}, name,
                           program::LibraryCall{__func__}));
}

// A copy of t mapped like t (Copy programs move the data).
Tensor copyOf(Graph& graph, program::Sequence& seq, const Tensor& t, const std::string& name) {
    const Tensor out = cloneLike(graph, t, t.elementType(), name);
    seq.add(program::Copy(t, out));
    return out;
}

} // namespace

Tensor sort(Graph& graph, program::Sequence& seq, const Tensor& t, std::size_t dim,
            const std::string& name) {
    program::Sequence body;
    const Tensor out = copyOf(graph, body, t, name + "/out");
    sortLines(graph, body, out, std::nullopt, dim, name + "/sort");
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
    return out;
}

void sortInPlace(Graph& graph, program::Sequence& seq, const Tensor& t, std::size_t dim,
                 const std::string& name) {
    sortLines(graph, seq, t, std::nullopt, dim, name);
}

Tensor sortKeyValue(Graph& graph, program::Sequence& seq, const Tensor& keys, const Tensor& values,
                    std::size_t dim, const std::string& name) {
    program::Sequence body;
    const Tensor k = copyOf(graph, body, keys, name + "/keys");
    const Tensor v = copyOf(graph, body, values, name + "/out");
    sortLines(graph, body, k, v, dim, name + "/sort");
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
    return v;
}

void sortKeyValueInPlace(Graph& graph, program::Sequence& seq, const Tensor& keys,
                         const Tensor& values, std::size_t dim, const std::string& name) {
    sortLines(graph, seq, keys, values, dim, name);
}

void encodeOneHot(Graph& graph, program::Sequence& seq, const Tensor& indices,
                  const Tensor& encoded, const std::optional<Tensor>& on,
                  const std::optional<Tensor>& off, const std::string& name) {
    const Type it = indices.elementType();
    if (it != Type::UnsignedInt && it != Type::Int) {
        throw Error(name + ": the indices " + indices.describe() +
                    " must be unsigned int or int, not " + std::string(typeName(it)));
    }
    if (indices.rank() != 1 || encoded.rank() != 2 || encoded.dim(0) != indices.dim(0)) {
        throw Error(name + ": encoded " + encoded.describe() + " " + shapeString(encoded.shape()) +
                    " must be [N, C] for indices " + indices.describe() + " " +
                    shapeString(indices.shape()));
    }
    const Type et = encoded.elementType();
    for (const auto& value : {on, off}) {
        if (value && (value->numElements() != 1 || value->elementType() != et)) {
            throw Error(name + ": on and off must be one-element " + std::string(typeName(et)) +
                        " tensors, not " + value->describe());
        }
    }
    program::Sequence body;
    // Without on / off tensors: constants 1 and 0.
    const Tensor hot = on ? on->reshape({}) : graph.addConstant(et, {}, 1.0, name + "/on");
    const Tensor cold = off ? off->reshape({}) : graph.addConstant(et, {}, 0.0, name + "/off");
    if (!on) {
        graph.setTileMapping(hot, TileId{0u});
    }
    if (!off) {
        graph.setTileMapping(cold, TileId{0u});
    }
    const std::size_t classes = encoded.dim(1);
    const std::string codelet =
        "popops::EncodeOneHot<" + std::string(typeName(it)) + "," + std::string(typeName(et)) + ">";
    const ComputeSet cs = graph.addComputeSet(name);
    const Tensor flat = encoded.flatten();
    for (const TileRange& r : tileRanges(graph, encoded)) {
        // Whole rows: a row cut across tiles goes to the tile of its start.
        const std::size_t firstRow = (r.begin + classes - 1) / classes;
        const std::size_t endRow = classes == 0 ? 0 : (r.end + classes - 1) / classes;
        if (firstRow >= endRow) {
            continue;
        }
        VertexRef v = graph.addVertex(cs, codelet,
                                      {{"indices", indices.slice(firstRow, endRow)},
                                       {"on", hot},
                                       {"off", cold},
                                       {"out", flat.slice(firstRow * classes, endRow * classes)}});
        graph.setInitialValue(v["classes"], double(classes));
        graph.setTileMapping(v, r.tile);
    }
    body.add(program::Execute(cs));
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
}

void iota(Graph& graph, program::Sequence& seq, const Tensor& t, double start,
          const std::string& name) {
    if (t.rank() != 1 || (t.elementType() != Type::Int && t.elementType() != Type::UnsignedInt)) {
        throw Error(name + ": iota needs a 1-D int or unsigned int tensor, not " + t.describe() +
                    " " + shapeString(t.shape()));
    }
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet = "popops::Iota<" + std::string(typeName(t.elementType())) + ">";
    for (const TileRange& r : tileRanges(graph, t)) {
        VertexRef v = graph.addVertex(cs, codelet, {{"out", t.slice(r.begin, r.end)}});
        graph.setInitialValue(v["start"], start);
        graph.setInitialValue(v["offset"], double(r.begin));
        graph.setTileMapping(v, r.tile);
    }
    seq.add(program::Block(program::Sequence{program::Execute(cs)}, name,
                           program::LibraryCall{__func__}));
}

} // namespace tessera::ops
