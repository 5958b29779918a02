#include "engine/ops/Reduce.h"

#include "engine/core/Error.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"

#include <map>

namespace tessera::ops {

namespace {

constexpr std::size_t kSplitThreshold = 512; // portions this long are split among workers

struct Portion {
    std::size_t row;
    TileId tile;
    std::size_t begin, end; // flat indices of `in`
};

} // namespace

Tensor reduceRows(Graph& graph, program::Sequence& seq, const Tensor& in, const std::string& op,
                  const std::string& name) {
    if (in.rank() != 2) {
        throw Error(name + ": reduceRows needs a 2-D tensor, got " + in.describe() + " " +
                    shapeString(in.shape()));
    }
    if (op != "Add" && op != "Max") {
        throw Error(name + ": unknown reduction '" + op + "' (expected Add or Max)");
    }
    const std::size_t rows = in.dim(0), cols = in.dim(1);
    if (cols == 0) {
        throw Error(name + ": cannot reduce rows of " + in.describe() + " with no columns");
    }
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    std::vector<Portion> portions;
    for (const TileRange& r : tileRanges(graph, in)) {
        for (std::size_t b = r.begin; b < r.end;) {
            const std::size_t row = b / cols;
            const std::size_t e = std::min(r.end, (row + 1) * cols);
            const std::size_t pieces = e - b >= kSplitThreshold ? workers : 1;
            for (const auto& [pb, pe] : splitRange(b, e, pieces, kSplitThreshold / workers)) {
                portions.push_back({row, r.tile, pb, pe});
            }
            b = e;
        }
    }
    std::vector<std::vector<std::size_t>> ofRow(rows);
    for (std::size_t i = 0; i < portions.size(); ++i) {
        ofRow[portions[i].row].push_back(i);
    }
    Tensor result = graph.addVariable(in.elementType(), {rows}, name + "/result");
    for (std::size_t r = 0; r < rows; ++r) {
        graph.setTileMapping(result[r], portions[ofRow[r].front()].tile);
    }
    const std::string codelet = codeletName("Reduce" + op, in.elementType());
    const Tensor flat = in.flatten();
    bool single = true;
    for (const auto& list : ofRow) {
        single = single && list.size() == 1;
    }
    program::Sequence body;
    const ComputeSet first = graph.addComputeSet(name + "/partials");
    Tensor partials;
    if (!single) {
        partials = graph.addVariable(in.elementType(), {portions.size()}, name + "/partials");
        for (std::size_t i = 0; i < portions.size(); ++i) {
            graph.setTileMapping(partials[i], portions[i].tile);
        }
    }
    for (std::size_t i = 0; i < portions.size(); ++i) {
        const Portion& p = portions[i];
        const Tensor out = single ? result[p.row] : partials[i];
        VertexRef v =
            graph.addVertex(first, codelet, {{"in", flat.slice(p.begin, p.end)}, {"out", out}});
        graph.setTileMapping(v, p.tile);
    }
    body.add(program::Execute(first));
    if (!single) {
        const ComputeSet second = graph.addComputeSet(name + "/final");
        for (std::size_t r = 0; r < rows; ++r) {
            std::vector<Tensor> parts;
            for (std::size_t i : ofRow[r]) {
                parts.push_back(partials.slice(i, i + 1));
            }
            VertexRef v =
                graph.addVertex(second, codelet, {{"in", concat(parts)}, {"out", result[r]}});
            graph.setTileMapping(v, portions[ofRow[r].front()].tile);
        }
        body.add(program::Execute(second));
    }
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
    return result;
}

Tensor reduceColumnsAdd(Graph& graph, program::Sequence& seq, const Tensor& in,
                        const std::string& name) {
    if (in.rank() != 2) {
        throw Error(name + ": reduceColumnsAdd needs a 2-D tensor, got " + in.describe());
    }
    const std::size_t rows = in.dim(0), cols = in.dim(1);
    Tensor result = graph.addVariable(in.elementType(), {cols}, name + "/result");
    mapLinearly(graph, result, 8);
    const ComputeSet cs = graph.addComputeSet(name);
    const std::string t(typeName(in.elementType()));
    const std::string codelet = "ReducePartials<" + t + "," + t + ">";
    for (const TileRange& r : tileRanges(graph, result)) {
        std::vector<Tensor> slices;
        for (std::size_t row = 0; row < rows; ++row) {
            slices.push_back(in[row].slice(r.begin, r.end));
        }
        VertexRef v = graph.addVertex(cs, codelet, {{"out", result.slice(r.begin, r.end)}});
        graph.connect(v["partials"], slices);
        graph.setTileMapping(v, r.tile);
    }
    seq.add(program::Block(program::Sequence{program::Execute(cs)}, name,
                           program::LibraryCall{__func__}));
    return result;
}

Tensor reduceAll(Graph& graph, program::Sequence& seq, const Tensor& in, const std::string& op,
                 const std::string& name) {
    return reduceRows(graph, seq, in.reshape({1, in.numElements()}), op, name);
}

} // namespace tessera::ops
