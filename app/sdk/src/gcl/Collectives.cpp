// gcl collectives within a replica on the engine: each is one engine
// reduction or copy over views that put every IPU's slice in front of every
// other IPU, so the slices cross the modelled IPU links as exchange and the
// reduction runs on the receiving IPU's tiles.
#include "Impl.h"
#include "PoplibsErrors.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Reduction.h"

#include <gcl/Collectives.hpp>

#include <algorithm>
#include <array>
#include <istream>
#include <ostream>

namespace gcl {

using poplar::detail::Access;
using poplar::detail::intoSequence;
using poplar::detail::translatePoplibs;

namespace {

const std::array<const char*, 9> kNames = {"ADD",         "MEAN",       "MUL",        "MIN",  "MAX",
                                           "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD", "LOCAL"};

std::string opName(const poplar::DebugContext& dc, const std::string& fallback) {
    return dc.getPathName().empty() ? fallback : dc.getPathName();
}

[[noreturn]] void fail(const std::string& what, const std::string& message) {
    throw poputil::poplibs_error("gcl::" + what + ": " + message);
}

tessera::ops::ReduceSpec reduceSpec(CollectiveOperator op, std::size_t ipus,
                                    const std::string& what) {
    using tessera::ops::ReduceOp;
    switch (op) {
    case CollectiveOperator::ADD:
        return tessera::ops::ReduceSpec(ReduceOp::Add);
    case CollectiveOperator::MEAN:
        return tessera::ops::ReduceSpec(ReduceOp::Add, false, 1.0 / static_cast<double>(ipus));
    case CollectiveOperator::MUL:
        return tessera::ops::ReduceSpec(ReduceOp::Mul);
    case CollectiveOperator::MIN:
        return tessera::ops::ReduceSpec(ReduceOp::Min);
    case CollectiveOperator::MAX:
        return tessera::ops::ReduceSpec(ReduceOp::Max);
    case CollectiveOperator::LOGICAL_AND:
        return tessera::ops::ReduceSpec(ReduceOp::LogicalAnd);
    case CollectiveOperator::LOGICAL_OR:
        return tessera::ops::ReduceSpec(ReduceOp::LogicalOr);
    case CollectiveOperator::SQUARE_ADD:
        return tessera::ops::ReduceSpec(ReduceOp::SquareAdd);
    case CollectiveOperator::LOCAL:
        break;
    }
    throw poplar::poplar_error("not supported by Tessera: gcl::" + what +
                               " with CollectiveOperator::LOCAL");
}

// Checks data is [numIPUs][...] with slice i mapped to IPU i only.
void checkSlices(const tessera::Graph& g, const tessera::Tensor& data, const std::string& what) {
    const tessera::Target& target = g.getTarget();
    if (data.rank() < 1 || data.dim(0) != target.numIPUs) {
        fail(what, "the data " + tessera::shapeString(data.shape()) +
                       " must have an outer dimension of one slice per IPU (" +
                       std::to_string(target.numIPUs) + ")");
    }
    for (std::size_t i = 0; i < data.dim(0); ++i) {
        const auto mapping = g.getTileMapping(data[i]);
        for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
            if (!mapping[tile].empty() &&
                target.ipuOfTile(tessera::record::idAt<tessera::TileId>(tile)) != i) {
                fail(what, "slice " + std::to_string(i) + " of " + data.describe() +
                               " has elements on tile " + std::to_string(tile) + " of IPU " +
                               std::to_string(
                                   target.ipuOfTile(tessera::record::idAt<tessera::TileId>(tile))) +
                               "; slice i must be on IPU i");
            }
        }
    }
}

// out[i][...] = reduce over j of data[j][...], out[i] mapped like data[i].
tessera::Tensor allReduce(tessera::Graph& g, tessera::program::Sequence& seq,
                          const tessera::Tensor& data, CollectiveOperator op,
                          const std::string& name, const std::string& what) {
    checkSlices(g, data, what);
    const std::size_t n = data.dim(0);
    const tessera::ops::ReduceSpec spec = reduceSpec(op, n, what);
    std::vector<tessera::Tensor> outs;
    for (std::size_t i = 0; i < n; ++i) {
        outs.push_back(tessera::ops::cloneLike(g, data[i], data.elementType(),
                                               name + "/ipu" + std::to_string(i))
                           .expand({0}));
    }
    const tessera::Tensor out = tessera::concat(outs, 0);
    // in[i][j][...] = data[j][...]: every IPU's slice in front of IPU i.
    const tessera::Tensor in = data.expand({0}).broadcast(n, 0);
    std::vector<tessera::ComputeSet> css;
    tessera::ops::reduceWithOutput(g, in, out, {1}, spec, css, name);
    tessera::ops::addStages(seq, css, name);
    return out;
}

} // namespace

std::istream& operator>>(std::istream& is, CollectiveOperator& op) {
    std::string token;
    is >> token;
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (token == kNames[i]) {
            op = static_cast<CollectiveOperator>(i);
            return is;
        }
    }
    throw poputil::poplibs_error("gcl: unknown collective operator '" + token + "'");
}

std::ostream& operator<<(std::ostream& os, const CollectiveOperator& op) {
    const auto i = static_cast<std::size_t>(op);
    return os << (i < kNames.size() ? kNames[i] : "UNKNOWN");
}

poplar::Tensor allReduceWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                      CollectiveOperator op, poplar::program::Sequence& prog,
                                      const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    const std::string name = opName(dc, "allReduceWithinReplica");
    return translatePoplibs([&] {
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return allReduce(Access::graph(graph).graph, seq, Access::tensor(data), op, name,
                             "allReduceWithinReplica");
        }));
    });
}

void allReduceToDestinationWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         const poplar::Tensor& destination, CollectiveOperator op,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& dc,
                                         const poplar::OptionFlags&) {
    const std::string name = opName(dc, "allReduceToDestinationWithinReplica");
    if (destination.shape() != data.shape() || destination.elementType() != data.elementType()) {
        fail("allReduceToDestinationWithinReplica",
             "the destination " + tessera::shapeString(destination.shape()) + " " +
                 destination.elementType().toString() + " is not the data's shape and type " +
                 tessera::shapeString(data.shape()) + " " + data.elementType().toString());
    }
    translatePoplibs([&] {
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::program::Sequence body; // reduce, then copy: one operation
            const tessera::Tensor out =
                allReduce(Access::graph(graph).graph, body, Access::tensor(data), op,
                          name + "/reduce", "allReduceToDestinationWithinReplica");
            body.add(tessera::program::Copy(out, Access::tensor(destination), name + "/copy"));
            seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
        });
        return 0;
    });
}

void allReduceInPlaceWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                   CollectiveOperator op, poplar::program::Sequence& prog,
                                   const poplar::DebugContext& dc,
                                   const poplar::OptionFlags& options) {
    allReduceToDestinationWithinReplica(graph, data, data, op, prog,
                                        opName(dc, "allReduceInPlaceWithinReplica"), options);
}

Chunks reduceScatterWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    const std::string name = opName(dc, "reduceScatterWithinReplica");
    const std::string what = "reduceScatterWithinReplica";
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& d = Access::tensor(data);
        checkSlices(g, d, what);
        const std::size_t n = d.dim(0);
        const tessera::ops::ReduceSpec spec = reduceSpec(op, n, what);
        const tessera::Tensor rows = d.reshape({n, d.numElements() / n});
        const std::size_t row = rows.dim(1);
        Chunks result(static_cast<unsigned>(n));
        result.originalInput = Access::makeTensor(d[0]);
        std::vector<tessera::Tensor> pieces;
        std::size_t begin = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t size = row / n + (i < row % n ? 1 : 0);
            // Piece i lives where slice i holds those elements (IPU i).
            const tessera::Tensor piece =
                tessera::ops::cloneLike(g, rows[i].slice(begin, begin + size), d.elementType(),
                                        name + "/chunk" + std::to_string(i));
            pieces.push_back(piece);
            result.chunks[i] = Chunk(Access::makeTensor(piece), static_cast<unsigned>(i),
                                     static_cast<unsigned>(begin));
            begin += size;
        }
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            std::vector<tessera::ComputeSet> css;
            tessera::ops::reduceWithOutput(g, rows, tessera::concat(pieces, 0), {0}, spec, css,
                                           name);
            tessera::ops::addStages(seq, css, name);
        });
        return result;
    });
}

poplar::Tensor allGatherWithinReplica(poplar::Graph& graph, const Chunks& toGather,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    const std::string name = opName(dc, "allGatherWithinReplica");
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Target& target = g.getTarget();
        if (toGather.chunks.size() != target.numIPUs) {
            fail("allGatherWithinReplica", std::to_string(toGather.chunks.size()) +
                                               " chunks to gather, not one per IPU (" +
                                               std::to_string(target.numIPUs) + ")");
        }
        std::vector<Chunk> ordered = toGather.chunks;
        std::stable_sort(ordered.begin(), ordered.end(),
                         [](const Chunk& a, const Chunk& b) { return a.offset < b.offset; });
        std::vector<tessera::Tensor> parts;
        for (const Chunk& c : ordered) {
            parts.push_back(Access::tensor(c.tensor).flatten());
        }
        const tessera::Tensor row = tessera::concat(parts, 0);
        const std::size_t n = target.numIPUs;
        const tessera::Tensor out =
            g.addVariable(row.elementType(), {n, row.numElements()}, name + "/out");
        for (std::size_t i = 0; i < n; ++i) {
            tessera::ops::mapLinearly(
                g, out[i], 1, tessera::record::idAt<tessera::TileId>(i * target.tilesPerIPU),
                target.tilesPerIPU);
        }
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            seq.add(tessera::program::Copy(row.expand({0}).broadcast(n, 0), out, name));
        });
        return Access::makeTensor(out);
    });
}

poplar::Tensor allGatherWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    const std::string name = opName(dc, "allGatherWithinReplica");
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& d = Access::tensor(data);
        checkSlices(g, d, "allGatherWithinReplica");
        const std::size_t n = d.dim(0);
        std::vector<tessera::Tensor> outs;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                outs.push_back(tessera::ops::cloneLike(g, d[i], d.elementType(),
                                                       name + "/ipu" + std::to_string(i) + "/" +
                                                           std::to_string(j))
                                   .expand({0}));
            }
        }
        std::vector<std::size_t> shape(d.rank() + 1, n); // [n][n][...]
        for (std::size_t i = 1; i < d.rank(); ++i) {
            shape[i + 1] = d.dim(i);
        }
        const tessera::Tensor out = tessera::concat(outs, 0).reshape(shape);
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            seq.add(tessera::program::Copy(d.expand({0}).broadcast(n, 0), out, name));
        });
        return Access::makeTensor(out);
    });
}

} // namespace gcl
