#include "engine/ops/Slice.h"

#include "engine/core/Error.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"

#include <algorithm>
#include <numeric>

namespace tessera::ops {

namespace {

constexpr std::size_t kColumnsPerWorker = 16; // a run is split among workers past this

// t as [outer, D, inner] around dimension `dim`.
struct Around {
    std::size_t outer = 1, entries = 0, inner = 1;
};

Around around(const std::vector<std::size_t>& shape, std::size_t dim) {
    Around a;
    a.entries = shape[dim];
    for (std::size_t d = 0; d < dim; ++d) {
        a.outer *= shape[d];
    }
    for (std::size_t d = dim + 1; d < shape.size(); ++d) {
        a.inner *= shape[d];
    }
    return a;
}

// A run of columns [begin, end) of one outer index, on one tile.
struct ColumnRun {
    TileId tile;
    std::size_t outer, begin, end;
};

// Runs of the columns of t (around `dim`), on the tile holding each column's
// first entry, split so each worker gets a share.
std::vector<ColumnRun> columnRuns(const Graph& graph, const Tensor& t3, const Around& a) {
    const Tensor first = t3.slice(0, 1, 1).flatten(); // [outer * inner] columns
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    std::vector<ColumnRun> runs;
    for (const TileRange& r : tileRanges(graph, first)) {
        for (std::size_t b = r.begin; b < r.end;) {
            const std::size_t o = b / a.inner;
            const std::size_t e = std::min(r.end, (o + 1) * a.inner);
            const std::size_t pieces = (e - b) / kColumnsPerWorker >= 2 ? workers : 1;
            for (const auto& [pb, pe] : splitRange(b, e, pieces, kColumnsPerWorker)) {
                runs.push_back({r.tile, o, pb - o * a.inner, pe - o * a.inner});
            }
            b = e;
        }
    }
    std::sort(runs.begin(), runs.end(), [](const ColumnRun& x, const ColumnRun& y) {
        return x.outer != y.outer ? x.outer < y.outer : x.begin < y.begin;
    });
    return runs;
}

// The list of [outer o, entry k, columns b..e) of a [outer, n, inner] tensor.
std::vector<Tensor> entriesOf(const Tensor& t3, const ColumnRun& r, std::size_t n) {
    std::vector<Tensor> list;
    for (std::size_t k = 0; k < n; ++k) {
        list.push_back(t3[r.outer][k].slice(r.begin, r.end));
    }
    return list;
}

void checkOffsets(const Tensor& offsets, std::size_t count, const std::string& name) {
    if (offsets.elementType() != Type::UnsignedInt) {
        throw Error(name + ": the offsets " + offsets.describe() + " must be unsigned int, not " +
                    std::string(typeName(offsets.elementType())));
    }
    if (offsets.numElements() != count) {
        throw Error(name + ": the offsets " + offsets.describe() + " have " +
                    std::to_string(offsets.numElements()) + " elements, expected " +
                    std::to_string(count));
    }
}

void checkDims(const Tensor& t, const std::vector<std::size_t>& dims,
               const std::vector<std::size_t>& sizes, const std::string& name) {
    if (dims.size() != sizes.size()) {
        throw Error(name + ": " + std::to_string(dims.size()) + " dimensions but " +
                    std::to_string(sizes.size()) + " sizes");
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= t.rank()) {
            throw Error(name + ": dimension " + std::to_string(dims[i]) + " is out of range for " +
                        t.describe() + " " + shapeString(t.shape()));
        }
        if (sizes[i] > t.dim(dims[i])) {
            throw Error(name + ": a slice of " + std::to_string(sizes[i]) + " along dimension " +
                        std::to_string(dims[i]) + " of " + t.describe() + " " +
                        shapeString(t.shape()) + " is larger than the dimension");
        }
        if (std::count(dims.begin(), dims.end(), dims[i]) > 1) {
            throw Error(name + ": dimension " + std::to_string(dims[i]) + " is given twice");
        }
    }
}

std::vector<std::size_t> withSize(std::vector<std::size_t> shape, std::size_t dim,
                                  std::size_t size) {
    shape[dim] = size;
    return shape;
}

// One dimension: out = t[..., offset + i (wrapping), ...] for i < size.
void sliceOne(Graph& graph, ComputeSet cs, const Tensor& out, const Tensor& t, const Tensor& offset,
              std::size_t dim, std::size_t size, bool mapOut) {
    const Around a = around(t.shape(), dim);
    const Tensor t3 = t.reshape({a.outer, a.entries, a.inner});
    const Tensor o3 = out.reshape({a.outer, size, a.inner});
    const std::string codelet =
        "popops::DynamicSlice<" + std::string(typeName(t.elementType())) + ">";
    for (const ColumnRun& r : columnRuns(graph, t3, a)) {
        const std::vector<Tensor> sub = entriesOf(o3, r, size);
        if (mapOut) {
            for (const Tensor& s : sub) {
                graph.setTileMapping(s, r.tile);
            }
        }
        VertexRef v = graph.addVertex(cs, codelet, {{"offset", offset}});
        graph.connect(v["base"], entriesOf(t3, r, a.entries));
        graph.connect(v["sub"], sub);
        graph.setTileMapping(v, r.tile);
    }
}

void updateOne(Graph& graph, ComputeSet cs, const Tensor& t, const Tensor& s, const Tensor& offset,
               std::size_t dim, std::size_t size) {
    const Around a = around(t.shape(), dim);
    const Tensor t3 = t.reshape({a.outer, a.entries, a.inner});
    const Tensor s3 = s.reshape({a.outer, size, a.inner});
    const std::string codelet =
        "popops::DynamicUpdate<" + std::string(typeName(t.elementType())) + ">";
    for (const ColumnRun& r : columnRuns(graph, t3, a)) {
        VertexRef v = graph.addVertex(cs, codelet, {{"offset", offset}});
        graph.connect(v["base"], entriesOf(t3, r, a.entries));
        graph.connect(v["sub"], entriesOf(s3, r, size));
        graph.setTileMapping(v, r.tile);
    }
}

void addOperation(program::Sequence& seq, const std::vector<ComputeSet>& css,
                  const std::string& name, const char* function) {
    program::Sequence body;
    for (const ComputeSet& cs : css) {
        body.add(program::Execute(cs));
    }
    seq.add(program::Block(body, name, program::LibraryCall{function}));
}

} // namespace

Tensor createSliceable(Graph& graph, Type type, const std::vector<std::size_t>& shape,
                       std::size_t dim, std::size_t minGrain, const std::string& name) {
    if (dim >= shape.size()) {
        throw Error(name + ": dimension " + std::to_string(dim) + " is out of range for a tensor " +
                    shapeString(shape));
    }
    const Tensor t = graph.addVariable(type, shape, name);
    const Around a = around(shape, dim);
    // Columns spread over the tiles; every entry of a column on its tile.
    const Tensor columns = t.reshape({a.outer, a.entries, a.inner})
                               .dimShuffle({1, 0, 2})
                               .reshape({a.entries, a.outer * a.inner});
    const std::size_t total = a.outer * a.inner;
    const std::size_t tiles = graph.getTarget().numTiles();
    const std::size_t grain = std::max<std::size_t>(1, minGrain);
    const std::size_t groups = std::max<std::size_t>(1, (total + grain - 1) / grain);
    const std::size_t used = std::min(tiles, groups);
    for (std::size_t i = 0; i < used; ++i) {
        const std::size_t b = std::min(total, groups * i / used * grain);
        const std::size_t e = std::min(total, groups * (i + 1) / used * grain);
        if (b < e) {
            graph.setTileMapping(columns.slice(b, e, 1), record::idAt<TileId>(i));
        }
    }
    return t;
}

Tensor dynamicSlice(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& offsets,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    const std::string& name) {
    checkDims(t, dims, sizes, name);
    checkOffsets(offsets, dims.size(), name);
    const Tensor flat = offsets.flatten();
    Tensor current = t;
    std::vector<ComputeSet> css;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const Tensor out =
            graph.addVariable(t.elementType(), withSize(current.shape(), dims[i], sizes[i]),
                              name + "/slice" + std::to_string(i));
        css.push_back(graph.addComputeSet(name + "/dim" + std::to_string(dims[i])));
        sliceOne(graph, css.back(), out, current, flat[i].reshape({}), dims[i], sizes[i], true);
        current = out;
    }
    if (dims.empty()) {
        return t;
    }
    addOperation(seq, css, name, __func__);
    return current;
}

void dynamicSliceWithOutput(Graph& graph, program::Sequence& seq, const Tensor& out,
                            const Tensor& t, const Tensor& offsets,
                            const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, const std::string& name) {
    checkDims(t, dims, sizes, name);
    std::vector<std::size_t> shape = t.shape();
    for (std::size_t i = 0; i < dims.size(); ++i) {
        shape[dims[i]] = sizes[i];
    }
    if (out.shape() != shape) {
        throw Error(name + ": the output " + out.describe() + " " + shapeString(out.shape()) +
                    " is not of the slice's shape " + shapeString(shape));
    }
    const Tensor result = dynamicSlice(graph, seq, t, offsets, dims, sizes, name);
    seq.add(program::Copy(result, out));
}

void dynamicUpdate(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& s,
                   const Tensor& offsets, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, const std::string& name) {
    checkDims(t, dims, sizes, name);
    checkOffsets(offsets, dims.size(), name);
    std::vector<std::size_t> shape = t.shape();
    for (std::size_t i = 0; i < dims.size(); ++i) {
        shape[dims[i]] = sizes[i];
    }
    if (s.shape() != shape || s.elementType() != t.elementType()) {
        throw Error(name + ": the update " + s.describe() + " " + shapeString(s.shape()) +
                    " is not a slice " + shapeString(shape) + " of " + t.describe());
    }
    if (dims.empty()) {
        seq.add(program::Copy(s, t));
        return;
    }
    const Tensor flat = offsets.flatten();
    // Several dimensions, as PopLibs does them: slice out along the first,
    // update that slice along the rest, write it back along the first.
    program::Sequence body;
    if (dims.size() > 1) {
        const std::vector<std::size_t> restDims(dims.begin() + 1, dims.end());
        const std::vector<std::size_t> restSizes(sizes.begin() + 1, sizes.end());
        const Tensor part = graph.addVariable(
            t.elementType(), withSize(t.shape(), dims[0], sizes[0]), name + "/part");
        const ComputeSet take = graph.addComputeSet(name + "/take");
        sliceOne(graph, take, part, t, flat[0].reshape({}), dims[0], sizes[0], true);
        body.add(program::Execute(take));
        dynamicUpdate(graph, body, part, s, flat.slice(1, dims.size()), restDims, restSizes,
                      name + "/inner");
        const ComputeSet put = graph.addComputeSet(name + "/put");
        updateOne(graph, put, t, part, flat[0].reshape({}), dims[0], sizes[0]);
        body.add(program::Execute(put));
    } else {
        const ComputeSet put = graph.addComputeSet(name);
        updateOne(graph, put, t, s, flat[0].reshape({}), dims[0], sizes[0]);
        body.add(program::Execute(put));
    }
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
}

namespace {

void checkMulti(const Tensor& t, const Tensor& offsets, std::size_t dim, std::size_t size,
                const std::string& name) {
    if (dim >= t.rank()) {
        throw Error(name + ": dimension " + std::to_string(dim) + " is out of range for " +
                    t.describe() + " " + shapeString(t.shape()));
    }
    if (size != 1) {
        throw Error(name + ": not supported by Tessera: slices of " + std::to_string(size) +
                    " elements (multiSlice and multiUpdate take slices of 1)");
    }
    if (offsets.elementType() != Type::UnsignedInt ||
        !(offsets.rank() == 1 || (offsets.rank() == 2 && offsets.dim(1) == 1))) {
        throw Error(name + ": the offsets " + offsets.describe() + " " +
                    shapeString(offsets.shape()) + " must be unsigned int of shape {n} or {n,1}");
    }
}

// [n, shape with dim of `size`]: n slices stacked.
std::vector<std::size_t> sliceStackShape(const std::vector<std::size_t>& shape, std::size_t dim,
                                         std::size_t size, std::size_t n) {
    std::vector<std::size_t> out{n};
    for (std::size_t d = 0; d < shape.size(); ++d) {
        out.push_back(d == dim ? size : shape[d]);
    }
    return out;
}

} // namespace

Tensor multiSlice(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& offsets,
                  std::size_t dim, std::size_t size, const std::string& name) {
    checkMulti(t, offsets, dim, size, name);
    const std::size_t n = offsets.dim(0);
    const std::vector<std::size_t> shape = sliceStackShape(t.shape(), dim, size, n);
    const Tensor out = graph.addVariable(t.elementType(), shape, name + "/out");
    const Around a = around(t.shape(), dim);
    const Tensor t3 = t.reshape({a.outer, a.entries, a.inner});
    // [outer, n, inner]: output row i of column (o, j) is out[i, o, 0, j].
    const Tensor o3 = out.reshape({n, a.outer, a.inner}).dimShuffle({1, 0, 2});
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet =
        "popops::MultiSlice<" + std::string(typeName(t.elementType())) + ">";
    const Tensor flat = offsets.flatten();
    for (const ColumnRun& r : columnRuns(graph, t3, a)) {
        const std::vector<Tensor> sub = entriesOf(o3, r, n);
        for (const Tensor& s : sub) {
            graph.setTileMapping(s, r.tile);
        }
        VertexRef v = graph.addVertex(cs, codelet, {{"offsets", flat}});
        graph.connect(v["base"], entriesOf(t3, r, a.entries));
        graph.connect(v["sub"], sub);
        graph.setTileMapping(v, r.tile);
    }
    if (n > 0) {
        addOperation(seq, {cs}, name, __func__);
    }
    return out;
}

void multiUpdate(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& s,
                 const Tensor& offsets, std::size_t dim, std::size_t size, UpdateOp op,
                 const std::optional<Tensor>& scale, const std::string& name) {
    checkMulti(t, offsets, dim, size, name);
    const std::size_t n = offsets.dim(0);
    const std::vector<std::size_t> shape = sliceStackShape(t.shape(), dim, size, n);
    if (s.shape() != shape || s.elementType() != t.elementType()) {
        throw Error(name + ": the slices " + s.describe() + " " + shapeString(s.shape()) +
                    " must be " + std::string(typeName(t.elementType())) + " " +
                    shapeString(shape));
    }
    const std::string type(typeName(t.elementType()));
    std::string codelet;
    switch (op) {
    case UpdateOp::Assign:
        codelet = "popops::MultiUpdate<" + type + ">";
        break;
    case UpdateOp::Max:
        if (t.elementType() == Type::Bool) {
            throw Error(name + ": multiUpdateMax is not defined for bool");
        }
        codelet = "popops::MultiUpdateMax<" + type + ">";
        break;
    case UpdateOp::Add: {
        if (!scale || scale->numElements() != 1) {
            throw Error(name + ": multiUpdateAdd needs a one-element scale tensor");
        }
        const Type k = scale->elementType();
        const bool fits =
            k == t.elementType() || (t.elementType() == Type::Half && k == Type::Float);
        if (!fits || t.elementType() == Type::Bool) {
            throw Error(name + ": the scale " + scale->describe() + " is " +
                        std::string(typeName(k)) + "; for " + type + " data it must be " + type +
                        (t.elementType() == Type::Half ? " or float" : ""));
        }
        codelet = "popops::MultiUpdateAdd<" + type + "," + std::string(typeName(k)) + ">";
        break;
    }
    }
    const Around a = around(t.shape(), dim);
    const Tensor t3 = t.reshape({a.outer, a.entries, a.inner});
    const Tensor s3 = s.reshape({n, a.outer, a.inner}).dimShuffle({1, 0, 2});
    const ComputeSet cs = graph.addComputeSet(name);
    const Tensor flat = offsets.flatten();
    for (const ColumnRun& r : columnRuns(graph, t3, a)) {
        VertexRef v = graph.addVertex(cs, codelet, {{"offsets", flat}});
        if (op == UpdateOp::Add) {
            graph.connect(v["scale"], scale->reshape({}));
        }
        graph.connect(v["base"], entriesOf(t3, r, a.entries));
        graph.connect(v["sub"], entriesOf(s3, r, n));
        graph.setTileMapping(v, r.tile);
    }
    if (n > 0) {
        addOperation(seq, {cs}, name, __func__);
    }
}

} // namespace tessera::ops
