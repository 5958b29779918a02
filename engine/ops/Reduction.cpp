#include "engine/ops/Reduction.h"

#include "engine/core/Error.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/ReduceCodelets.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace tessera::ops {

const char* name(ReduceOp op) {
    switch (op) {
    case ReduceOp::Add:
        return "ADD";
    case ReduceOp::SquareAdd:
        return "SQUARE_ADD";
    case ReduceOp::Mul:
        return "MUL";
    case ReduceOp::Min:
        return "MIN";
    case ReduceOp::Max:
        return "MAX";
    case ReduceOp::LogicalAnd:
        return "LOGICAL_AND";
    case ReduceOp::LogicalOr:
        return "LOGICAL_OR";
    }
    return "?";
}

namespace {

constexpr std::size_t kReduceGrain = 64;      // elements per first-stage vertex at least
constexpr std::size_t kOutputsPerVertex = 16; // outputs a second-stage vertex reduces at most

// A first-stage vertex: a run [begin, end) of the [outer, inner] view on one tile.
struct Piece {
    TileId tile;
    std::size_t begin, end;
    std::size_t firstRow, rows;
    std::size_t partial = 0; // its first element in the partials tensor
};

// PopLibs' supported combinations, plus unsigned (as int).
void checkTypes(const std::string& name, ReduceOp op, Type in, Type out) {
    auto fail = [&] {
        throw Error(name + ": reduce " + ops::name(op) + " from " + std::string(typeName(in)) +
                    " to " + std::string(typeName(out)) + " is not supported");
    };
    switch (op) {
    case ReduceOp::Add:
    case ReduceOp::SquareAdd:
    case ReduceOp::Mul:
        if (in == Type::Bool || out == Type::Bool ||
            (in != out && !(isFloatingPoint(in) && isFloatingPoint(out)))) {
            fail();
        }
        break;
    case ReduceOp::Min:
    case ReduceOp::Max:
        if (in != out || in == Type::Bool) {
            fail();
        }
        break;
    case ReduceOp::LogicalAnd:
    case ReduceOp::LogicalOr:
        if (in != Type::Bool || out != Type::Bool) {
            fail();
        }
        break;
    }
}

std::vector<Piece> planPieces(const Graph& graph, const Tensor& flat, std::size_t inner) {
    std::vector<Piece> pieces;
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    for (const TileRange& r : tileRanges(graph, flat)) {
        for (const auto& [b, e] : splitRange(r.begin, r.end, workers, kReduceGrain)) {
            const std::size_t first = b / inner;
            pieces.push_back({r.tile, b, e, first, (e - 1) / inner - first + 1});
        }
    }
    return pieces;
}

// Maps each output element that has no tile to the tile holding most of its
// inputs (runs of outputs with one tile mapped at once).
void mapOutputs(Graph& graph, const Tensor& outFlat, const std::vector<Piece>& pieces,
                const std::vector<std::vector<std::size_t>>& ofRow, std::size_t inner) {
    const std::size_t outer = ofRow.size();
    std::vector<char> mapped(outer, 0);
    std::size_t count = 0;
    for (const TileRange& r : tileRanges(graph, outFlat)) {
        std::fill(mapped.begin() + std::ptrdiff_t(r.begin), mapped.begin() + std::ptrdiff_t(r.end),
                  1);
        count += r.end - r.begin;
    }
    if (count == outer) {
        return;
    }
    std::vector<TileId> best(outer, TileId{0u});
    std::vector<std::pair<TileId, std::size_t>> byTile;
    for (std::size_t row = 0; row < outer; ++row) {
        byTile.clear();
        for (const std::size_t i : ofRow[row]) {
            const Piece& p = pieces[i];
            const std::size_t n =
                std::min(p.end, (row + 1) * inner) - std::max(p.begin, row * inner);
            auto it = std::find_if(byTile.begin(), byTile.end(),
                                   [&](const auto& t) { return t.first == p.tile; });
            if (it == byTile.end()) {
                byTile.emplace_back(p.tile, n);
            } else {
                it->second += n;
            }
        }
        best[row] =
            std::max_element(byTile.begin(), byTile.end(), [](const auto& a, const auto& b) {
                return a.second < b.second;
            })->first;
    }
    for (std::size_t row = 0; row < outer;) {
        std::size_t end = row + 1;
        while (end < outer && mapped[end] == mapped[row] && best[end] == best[row]) {
            ++end;
        }
        if (mapped[row] == 0) {
            graph.setTileMapping(outFlat.slice(row, end), best[row]);
        }
        row = end;
    }
}

} // namespace

std::vector<std::size_t> reducedShape(const std::vector<std::size_t>& shape,
                                      const std::vector<std::size_t>& dims,
                                      const std::string& what) {
    std::vector<bool> reduced(shape.size(), false);
    for (const std::size_t d : dims) {
        if (d >= shape.size()) {
            throw Error(what + ": cannot reduce dimension " + std::to_string(d) + " of a tensor " +
                        shapeString(shape) + " (rank " + std::to_string(shape.size()) + ")");
        }
        reduced[d] = true;
    }
    std::vector<std::size_t> out;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (!reduced[d]) {
            out.push_back(shape[d]);
        }
    }
    return out;
}

void reduceWithOutput(Graph& graph, const Tensor& in, const Tensor& out,
                      const std::vector<std::size_t>& dims, const ReduceSpec& spec,
                      std::vector<ComputeSet>& css, const std::string& name) {
    const std::vector<std::size_t> shape = reducedShape(in.shape(), dims, name);
    if (out.shape() != shape) {
        throw Error(name + ": the output " + out.describe() + " " + shapeString(out.shape()) +
                    " does not have the reduced shape " + shapeString(shape));
    }
    checkTypes(name, spec.op, in.elementType(), out.elementType());
    const bool sum = spec.op == ReduceOp::Add || spec.op == ReduceOp::SquareAdd;
    if ((spec.update || spec.scaleTensor || spec.scale != 1.0) && !sum) {
        throw Error(name +
                    ": scale and update are only valid with the ADD or SQUARE_ADD "
                    "operations, not " +
                    std::string(ops::name(spec.op)));
    }
    if (spec.scaleTensor &&
        (spec.scaleTensor->numElements() != 1 || spec.scaleTensor->elementType() != Type::Float)) {
        throw Error(name + ": the scale " + spec.scaleTensor->describe() +
                    " must be a one-element float tensor");
    }
    // [outer, inner]: the kept dimensions first, the reduced ones last.
    std::vector<std::size_t> order;
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < in.rank(); ++d) {
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
            order.push_back(d);
            outer *= in.dim(d);
        }
    }
    for (std::size_t d = 0; d < in.rank(); ++d) {
        if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
            order.push_back(d);
            inner *= in.dim(d);
        }
    }
    if (outer == 0) {
        return;
    }
    if (inner == 0) {
        throw Error(name + ": reducing " + in.describe() + " " + shapeString(in.shape()) +
                    " over an empty dimension is not supported by Tessera");
    }
    const Tensor flat = in.dimShuffle(order).flatten();
    const Tensor outFlat = out.flatten();
    std::vector<Piece> pieces = planPieces(graph, flat, inner);
    std::vector<std::vector<std::size_t>> ofRow(outer); // pieces touching each row
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        for (std::size_t r = pieces[i].firstRow; r < pieces[i].firstRow + pieces[i].rows; ++r) {
            ofRow[r].push_back(i);
        }
    }
    for (std::size_t r = 0; r < outer; ++r) {
        if (ofRow[r].empty()) {
            throw Error(name + ": " + in.describe() + " has elements not mapped to a tile");
        }
    }
    mapOutputs(graph, outFlat, pieces, ofRow, inner);
    const bool oneStage =
        std::all_of(ofRow.begin(), ofRow.end(), [](const auto& list) { return list.size() == 1; });
    const Type acc = detail::accumulatorType(spec.op, in.elementType());
    auto setStates = [&](VertexRef v, const Piece* p) {
        if (p != nullptr) {
            graph.setInitialValue(v["inner"], double(inner));
            graph.setInitialValue(v["offset"], double(p->begin - p->firstRow * inner));
        }
        graph.setInitialValue(v["constantScale"], spec.scale);
        if (spec.scaleTensor) {
            graph.connect(v["scale"], spec.scaleTensor->reshape({}));
        }
    };
    if (oneStage) {
        const ComputeSet cs = graph.addComputeSet(name + "/Reduce");
        const std::string codelet = detail::runsCodelet(
            graph, {spec.op, spec.op == ReduceOp::SquareAdd, in.elementType(), out.elementType(),
                    true, spec.update, spec.scaleTensor.has_value()});
        for (const Piece& p : pieces) {
            VertexRef v =
                graph.addVertex(cs, codelet,
                                {{"in", flat.slice(p.begin, p.end)},
                                 {"out", outFlat.slice(p.firstRow, p.firstRow + p.rows)}});
            setStates(v, &p);
            graph.setTileMapping(v, p.tile);
        }
        css.push_back(cs);
        return;
    }
    // Stage 1: partials in the accumulator type, on the tiles of their inputs.
    std::size_t total = 0;
    for (Piece& p : pieces) {
        p.partial = total;
        total += p.rows;
    }
    const Tensor partials = graph.addVariable(acc, {total}, name + "/partials");
    const ComputeSet first = graph.addComputeSet(name + "/Reduce/partials");
    const std::string runs =
        detail::runsCodelet(graph, {spec.op, spec.op == ReduceOp::SquareAdd, in.elementType(), acc,
                                    false, false, false});
    for (const Piece& p : pieces) {
        const Tensor mine = partials.slice(p.partial, p.partial + p.rows);
        graph.setTileMapping(mine, p.tile);
        VertexRef v =
            graph.addVertex(first, runs, {{"in", flat.slice(p.begin, p.end)}, {"out", mine}});
        graph.setInitialValue(v["inner"], double(inner));
        graph.setInitialValue(v["offset"], double(p.begin - p.firstRow * inner));
        graph.setTileMapping(v, p.tile);
    }
    css.push_back(first);
    // Stage 2: each output's partials, on the output's tile.
    const ReduceOp second = spec.op == ReduceOp::SquareAdd ? ReduceOp::Add : spec.op;
    const std::string finals =
        detail::partialsCodelet(graph, {second, false, acc, out.elementType(), true, spec.update,
                                        spec.scaleTensor.has_value()});
    const ComputeSet last = graph.addComputeSet(name + "/Reduce/final");
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    for (const TileRange& r : tileRanges(graph, outFlat)) {
        const std::size_t chunk = std::max<std::size_t>(
            1, std::min(kOutputsPerVertex, (r.end - r.begin + workers - 1) / workers));
        for (std::size_t b = r.begin; b < r.end; b += chunk) {
            const std::size_t e = std::min(r.end, b + chunk);
            std::vector<Tensor> list;
            for (std::size_t row = b; row < e; ++row) {
                std::vector<Tensor> parts;
                for (const std::size_t i : ofRow[row]) {
                    const std::size_t at = pieces[i].partial + (row - pieces[i].firstRow);
                    parts.push_back(partials.slice(at, at + 1));
                }
                list.push_back(concat(parts));
            }
            VertexRef v = graph.addVertex(last, finals, {{"out", outFlat.slice(b, e)}});
            graph.connect(v["in"], list);
            setStates(v, nullptr);
            graph.setTileMapping(v, r.tile);
        }
    }
    css.push_back(last);
}

Tensor reduce(Graph& graph, const Tensor& in, Type outType, const std::vector<std::size_t>& dims,
              const ReduceSpec& spec, std::vector<ComputeSet>& css, const std::string& name) {
    const Tensor out =
        graph.addVariable(outType, reducedShape(in.shape(), dims, name), name + "/out");
    reduceWithOutput(graph, in, out, dims, spec, css, name);
    return out;
}

void addStages(program::Sequence& seq, const std::vector<ComputeSet>& css, const std::string& name,
               const char* function) {
    program::Sequence body;
    for (const ComputeSet& cs : css) {
        body.add(program::Execute(cs));
    }
    seq.add(program::Block(body, name, program::LibraryCall{function}));
}

} // namespace tessera::ops
