#include "engine/ops/Elementwise.h"

#include "engine/core/Error.h"
#include "engine/ops/Mapping.h"

namespace tessera::ops {

namespace {

constexpr std::size_t kElementwiseGrain =
    8; // elements per vertex at least: one 64-bit-aligned chunk or more

// Calls make(begin, end, tile) for vertex-sized chunks of `t`'s flat elements,
// about one chunk per worker context on each tile.
template <typename F>
void forEachChunk(const Graph& graph, const Tensor& t, F&& make) {
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    for (const TileRange& r : tileRanges(graph, t)) {
        for (const auto& [b, e] : splitRange(r.begin, r.end, workers, kElementwiseGrain)) {
            make(b, e, r.tile);
        }
    }
}

void addOperation(program::Sequence& seq, ComputeSet cs, const std::string& name,
                  const char* function) {
    seq.add(program::Block(program::Sequence{program::Execute(cs)}, name,
                           program::LibraryCall{function}));
}

void requireSameShape(const Tensor& a, const Tensor& b, const std::string& name) {
    if (a.shape() != b.shape()) {
        throw Error(name + ": shapes of " + a.describe() + " " + shapeString(a.shape()) + " and " +
                    b.describe() + " " + shapeString(b.shape()) + " differ");
    }
    if (a.elementType() != b.elementType()) {
        throw Error(name + ": types of " + a.describe() + " and " + b.describe() + " differ");
    }
}

} // namespace

std::string codeletName(const std::string& op, Type type) {
    return op + "<" + std::string(typeName(type)) + ">";
}

Tensor cloneLike(Graph& graph, const Tensor& like, Type type, const std::string& name) {
    Tensor out = graph.addVariable(type, like.shape(), name);
    const Tensor flat = out.flatten();
    for (const TileRange& r : tileRanges(graph, like)) {
        graph.setTileMapping(flat.slice(r.begin, r.end), r.tile);
    }
    return out;
}

Tensor unary(Graph& graph, program::Sequence& seq, const std::string& op, const Tensor& in,
             const std::string& name) {
    Tensor out = cloneLike(graph, in, in.elementType(), name + "/out");
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet = codeletName(op, in.elementType());
    const Tensor fin = in.flatten();
    const Tensor fout = out.flatten();
    forEachChunk(graph, out, [&](std::size_t b, std::size_t e, TileId tile) {
        VertexRef v =
            graph.addVertex(cs, codelet, {{"in", fin.slice(b, e)}, {"out", fout.slice(b, e)}});
        graph.setTileMapping(v, tile);
    });
    addOperation(seq, cs, name, __func__);
    return out;
}

Tensor binary(Graph& graph, program::Sequence& seq, const std::string& op, const Tensor& a,
              const Tensor& b, const std::string& name) {
    requireSameShape(a, b, name);
    Tensor out = cloneLike(graph, a, a.elementType(), name + "/out");
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet = codeletName(op, a.elementType());
    const Tensor fa = a.flatten();
    const Tensor fb = b.flatten();
    const Tensor fout = out.flatten();
    forEachChunk(graph, out, [&](std::size_t s, std::size_t e, TileId tile) {
        VertexRef v = graph.addVertex(
            cs, codelet,
            {{"in1", fa.slice(s, e)}, {"in2", fb.slice(s, e)}, {"out", fout.slice(s, e)}});
        graph.setTileMapping(v, tile);
    });
    addOperation(seq, cs, name, __func__);
    return out;
}

Tensor binaryRowScalar(Graph& graph, program::Sequence& seq, const std::string& op,
                       const Tensor& in, const Tensor& scalars, const std::string& name) {
    if (in.rank() != 2 || scalars.rank() != 1 || scalars.dim(0) != in.dim(0)) {
        throw Error(name + ": needs a 2-D tensor and one scalar per row, got " +
                    shapeString(in.shape()) + " and " + shapeString(scalars.shape()));
    }
    Tensor out = cloneLike(graph, in, in.elementType(), name + "/out");
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet = codeletName(op + "Scalar", in.elementType());
    const std::size_t cols = in.dim(1);
    const Tensor fin = in.flatten();
    const Tensor fout = out.flatten();
    for (const TileRange& r : tileRanges(graph, out)) {
        // Split at row boundaries so each vertex sees one scalar.
        for (std::size_t b = r.begin; b < r.end;) {
            const std::size_t row = b / cols;
            const std::size_t e = std::min(r.end, (row + 1) * cols);
            VertexRef v = graph.addVertex(
                cs, codelet,
                {{"in", fin.slice(b, e)}, {"scalar", scalars[row]}, {"out", fout.slice(b, e)}});
            graph.setTileMapping(v, r.tile);
            b = e;
        }
    }
    addOperation(seq, cs, name, __func__);
    return out;
}

void fill(Graph& graph, program::Sequence& seq, const Tensor& t, double value,
          const std::string& name) {
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet = codeletName("Fill", t.elementType());
    const Tensor flat = t.flatten();
    forEachChunk(graph, t, [&](std::size_t b, std::size_t e, TileId tile) {
        VertexRef v = graph.addVertex(cs, codelet, {{"out", flat.slice(b, e)}});
        graph.setInitialValue(v["value"], value);
        graph.setTileMapping(v, tile);
    });
    addOperation(seq, cs, name, __func__);
}

void scaledAddTo(Graph& graph, program::Sequence& seq, const Tensor& data, const Tensor& deltas,
                 double scale, const std::string& name) {
    requireSameShape(data, deltas, name);
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet = codeletName("ScaledAdd", data.elementType());
    const Tensor fd = data.flatten();
    const Tensor fx = deltas.flatten();
    forEachChunk(graph, data, [&](std::size_t b, std::size_t e, TileId tile) {
        VertexRef v =
            graph.addVertex(cs, codelet, {{"data", fd.slice(b, e)}, {"deltas", fx.slice(b, e)}});
        graph.setInitialValue(v["scale"], scale);
        graph.setTileMapping(v, tile);
    });
    addOperation(seq, cs, name, __func__);
}

Tensor cast(Graph& graph, program::Sequence& seq, const Tensor& in, Type to,
            const std::string& name) {
    Tensor out = cloneLike(graph, in, to, name + "/out");
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string codelet =
        "Cast<" + std::string(typeName(in.elementType())) + "," + std::string(typeName(to)) + ">";
    const Tensor fin = in.flatten();
    const Tensor fout = out.flatten();
    forEachChunk(graph, out, [&](std::size_t b, std::size_t e, TileId tile) {
        VertexRef v =
            graph.addVertex(cs, codelet, {{"in", fin.slice(b, e)}, {"out", fout.slice(b, e)}});
        graph.setTileMapping(v, tile);
    });
    addOperation(seq, cs, name, __func__);
    return out;
}

} // namespace tessera::ops
