// popops' Cast, Fill, Zero, ScaledAdd, AllTrue and ElementWiseUtil on the
// engine: casts and scaled additions are map expressions (one rounding to
// the destination type), fills the built-in Fill codelets.
#include "CastCodelet.h"
#include "Common.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Map.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Reduction.h"

#include <popops/AllTrue.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUtil.hpp>
#include <popops/Fill.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>

#include <cmath>

namespace popops {

using detail::eg;
using detail::et;
using detail::nameOf;
using detail::pt;
namespace eo = tessera::ops::expr;

namespace {

constexpr std::size_t kDataGrain = 8;

void requireSameShape(const poplar::Tensor& a, const poplar::Tensor& b, const std::string& what) {
    if (a.shape() != b.shape()) {
        throw poputil::poplibs_error(what + ": the tensors' shapes differ (" + a.shapeToString() +
                                     " and " + b.shapeToString() + ")");
    }
}

// Vertices casting src into dst (same shape), added to `cs` on dst's tiles.
void castInto(tessera::Graph& g, tessera::ComputeSet cs, const tessera::Tensor& src,
              const tessera::Tensor& dst) {
    if (!tessera::ops::fullyMapped(g, dst)) {
        throw tessera::Error("popops::cast: " + dst.describe() +
                             " has elements not mapped to a tile");
    }
    const std::string codelet = detail::castCodelet(g, src.elementType(), dst.elementType());
    const tessera::Tensor fs = src.flatten();
    const tessera::Tensor fd = dst.flatten();
    const std::size_t workers = g.getTarget().numWorkerContexts;
    for (const tessera::ops::TileRange& r : tessera::ops::tileRanges(g, dst)) {
        for (const auto& [b, e] : tessera::ops::splitRange(r.begin, r.end, workers, kDataGrain)) {
            g.setTileMapping(
                g.addVertex(cs, codelet, {{"in", fs.slice(b, e)}, {"out", fd.slice(b, e)}}),
                r.tile);
        }
    }
}

bool isInteger(const poplar::Type& t) {
    return t == poplar::INT || t == poplar::UNSIGNED_INT;
}

} // namespace

// --- Cast ---------------------------------------------------------------------

poplar::program::Program cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext& dc) {
    requireSameShape(src, dst, "popops::cast");
    if (src.elementType() == dst.elementType()) {
        return poplar::program::Copy(src, dst);
    }
    poplar::program::Sequence prog;
    detail::run(graph, [&] {
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::mapWithOutput(eg(graph), seq,
                                        detail::castExpression(et(dst).elementType()), {et(src)},
                                        et(dst), nameOf(dc, "cast"));
        });
    });
    return prog;
}

poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    poplar::Tensor dst = graph.clone(dstType, src, poplar::DebugContext(dc, "cast"));
    prog.add(cast(graph, src, dst, dc));
    return dst;
}

void castWithOutput(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Tensor& dst,
                    poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    prog.add(cast(graph, src, dst, dc));
}

void cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst, poplar::ComputeSet cs) {
    requireSameShape(src, dst, "popops::cast");
    detail::run(graph, [&] {
        castInto(eg(graph), tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}}, et(src),
                 et(dst));
    });
}

poplar::Tensor cast(poplar::Graph& graph, poplar::Tensor src, const poplar::Type& dstType,
                    poplar::ComputeSet cs, const poplar::DebugContext& dc) {
    poplar::Tensor dst = graph.clone(dstType, src, poplar::DebugContext(dc, "cast"));
    cast(graph, src, dst, cs);
    return dst;
}

poplar::Tensor checkAccuracyWhenCast(poplar::Graph& graph, const poplar::Tensor& input,
                                     poplar::Type outputType, double tolerance,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& dc) {
    if (input.elementType() != poplar::FLOAT || outputType != poplar::HALF ||
        input.numElements() != 1) {
        throw poputil::poplibs_error("checkAccuracyWhenCast: the input must be one FLOAT element "
                                     "and the output type HALF");
    }
    namespace pe = popops::expr;
    const pe::Cast roundTrip(pe::Cast(pe::_1, poplar::HALF), poplar::FLOAT);
    const pe::Lte ok(pe::Abs(pe::Sub(roundTrip, pe::_1)),
                     pe::Mul(pe::Const(static_cast<float>(tolerance)), pe::Abs(pe::_1)));
    return map(graph, ok, {input.flatten().reshape({})}, prog,
               poplar::DebugContext(dc, "checkAccuracyWhenCast"));
}

// --- Fill and Zero ------------------------------------------------------------

namespace detail {

void fillValue(poplar::Graph& graph, const poplar::Tensor& t, double value,
               poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    run(graph, [&] {
        const std::string name = nameOf(dc, "fill");
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            // The Fill codelets hold the value in the tensor's type: exact.
            tessera::ops::fill(eg(graph), seq, et(t), value, name);
        });
    });
}

void fillValue(poplar::Graph& graph, const poplar::Tensor& t,
               const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet cs,
               double value) {
    run(graph, [&] {
        tessera::Graph& g = eg(graph);
        const tessera::Tensor flat = et(t).flatten();
        const std::string codelet =
            tessera::ops::codeletName("Fill", poplar::detail::engineType(t.elementType()));
        for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
            for (const poplar::Interval& i : mapping[tile]) {
                if (i.size() == 0) {
                    continue;
                }
                tessera::VertexRef v =
                    g.addVertex(tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}}, codelet,
                                {{"out", flat.slice(i.begin(), i.end())}});
                g.setInitialValue(v["value"], value);
                g.setTileMapping(v, tessera::record::idAt<tessera::TileId>(tile));
            }
        }
    });
}

} // namespace detail

void zero(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet zeroCS) {
    fill(graph, t, tileRegions, tile, zeroCS, 0);
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet zeroCS) {
    fill(graph, t, tile, zeroCS, 0);
}

void zero(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet zeroCS) {
    fill(graph, t, mapping, zeroCS, 0);
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& dc) {
    detail::fillValue(graph, t, 0.0, prog, dc.getPathName().empty() ? "zero" : dc);
}

// --- ScaledAdd ----------------------------------------------------------------

namespace {

namespace pe = popops::expr;

// A scale: a constant or a tensor placeholder.
struct Scale {
    bool isTensor;
    float value;
    unsigned placeholder;
};

pe::Any castTo(const pe::Expr& e, const poplar::Type& from, const poplar::Type& to) {
    return from == to ? pe::Any(e) : pe::Any(pe::Cast(e, to));
}

pe::Any scaleExpr(const Scale& s, const std::vector<poplar::Tensor>& ts, const poplar::Type& c) {
    if (s.isTensor) {
        return castTo(pe::PlaceHolder(s.placeholder), ts[s.placeholder - 1].elementType(), c);
    }
    if (isInteger(c)) {
        return pe::Const(c, static_cast<double>(static_cast<long long>(s.value)));
    }
    return pe::Const(c, s.value);
}

// A = a' * A + sign * scaleB * B, where a' is scaleA (or 1, or 1 - scaleA),
// computed in float for half A and rounded once to A's type.
void scaledAdd(poplar::Graph& graph, const poplar::Tensor& A, const Scale* scaleA, bool xMinusAx,
               const poplar::Tensor& B, const Scale& scaleB, bool subtract,
               const std::vector<poplar::Tensor>& scales, poplar::program::Sequence& prog,
               const poplar::DebugContext& dc, const char* what) {
    requireSameShape(A, B, what);
    for (const poplar::Tensor& s : scales) {
        if (s.numElements() != 1) {
            throw poputil::poplibs_error(std::string(what) +
                                         ": a scale tensor must have one "
                                         "element, not " +
                                         s.shapeToString());
        }
    }
    const poplar::Type a = A.elementType();
    if (a == poplar::BOOL) {
        throw poputil::poplibs_error(std::string(what) + ": not defined for bool tensors");
    }
    const poplar::Type c = a == poplar::HALF ? poplar::FLOAT : a;
    std::vector<poplar::Tensor> ts = {A, B};
    for (const poplar::Tensor& s : scales) {
        ts.push_back(s.flatten().reshape({}));
    }
    const pe::Any x = castTo(pe::_1, a, c);
    const pe::Any y = castTo(pe::_2, B.elementType(), c);
    pe::Any left = x;
    if (scaleA != nullptr) {
        const pe::Any sa = scaleExpr(*scaleA, ts, c);
        left = xMinusAx ? pe::Any(pe::Sub(x, pe::Mul(sa, x))) : pe::Any(pe::Mul(sa, x));
    }
    const pe::Any right = pe::Mul(scaleExpr(scaleB, ts, c), y);
    const pe::Any sum = subtract ? pe::Any(pe::Sub(left, right)) : pe::Any(pe::Add(left, right));
    mapInPlace(graph, castTo(sum, c, a), ts, prog, dc.getPathName().empty() ? what : dc);
}

} // namespace

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, nullptr, false, B, {false, scaleB, 0}, false, {}, prog, dc, "scaledAddTo");
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, nullptr, false, B, {true, 0, 3}, false, {scaleB}, prog, dc, "scaledAddTo");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                        const poplar::OptionFlags&) {
    scaledAdd(graph, A, nullptr, false, B, {false, scaleB, 0}, true, {}, prog, dc,
              "scaledSubtractFrom");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    scaledAdd(graph, A, nullptr, false, B, {true, 0, 3}, true, {scaleB}, prog, dc,
              "scaledSubtractFrom");
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& dc, const poplar::OptionFlags& options) {
    scaledAddTo(graph, A, scaleA, B, scaleB, prog, ScaledAddSpecialisation::DEFAULT, dc, options);
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality, const poplar::DebugContext& dc,
                 const poplar::OptionFlags&) {
    const Scale sa{true, 0, 3};
    scaledAdd(graph, A, &sa, speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY, B,
              {true, 0, 4}, false, {scaleA, scaleB}, prog, dc, "scaledAddTo");
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                 const poplar::OptionFlags& options) {
    scaledAddTo(graph, A, scaleA, B, scaleB, prog, ScaledAddSpecialisation::DEFAULT, dc, options);
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality, const poplar::DebugContext& dc,
                 const poplar::OptionFlags&) {
    const Scale sa{false, scaleA, 0};
    scaledAdd(graph, A, &sa, speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY, B,
              {false, scaleB, 0}, false, {}, prog, dc, "scaledAddTo");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA,
                        poplar::Tensor B, poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    const Scale sa{true, 0, 3};
    scaledAdd(graph, A, &sa, false, B, {true, 0, 4}, true, {scaleA, scaleB}, prog, dc,
              "scaledSubtractFrom");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                        float scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    const Scale sa{false, scaleA, 0};
    scaledAdd(graph, A, &sa, false, B, {false, scaleB, 0}, true, {}, prog, dc,
              "scaledSubtractFrom");
}

// --- AllTrue and ElementWiseUtil ----------------------------------------------

poplar::Tensor allTrue(poplar::Graph& graph, poplar::Tensor A, poplar::program::Sequence& prog,
                       const poplar::DebugContext& dc) {
    if (A.elementType() != poplar::BOOL) {
        throw poputil::poplibs_error("Operation allTrue only takes boolean tensors");
    }
    return detail::run(graph, [&] {
        const std::string name = nameOf(dc, "allTrue");
        std::vector<std::size_t> dims(A.rank());
        for (std::size_t d = 0; d < dims.size(); ++d) {
            dims[d] = d;
        }
        std::vector<tessera::ComputeSet> css;
        const tessera::Tensor out = tessera::ops::reduce(
            eg(graph), et(A), tessera::Type::Bool, dims,
            tessera::ops::ReduceSpec(tessera::ops::ReduceOp::LogicalAnd), css, name);
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::addStages(seq, css, name);
        });
        return pt(out);
    });
}

poplar::Tensor createOutputForElementWiseOp(poplar::Graph& graph,
                                            const std::vector<poplar::Tensor>& inputs,
                                            const poplar::Type& outputType,
                                            const poplar::DebugContext& dc) {
    if (inputs.empty()) {
        throw poputil::poplibs_error("createOutputForElementWiseOp: no inputs given");
    }
    for (const poplar::Tensor& t : inputs) {
        if (t.shape() != inputs[0].shape()) {
            throw poputil::poplibs_error(
                "createOutputForElementWiseOp: the inputs' shapes differ (" +
                inputs[0].shapeToString() + " and " + t.shapeToString() + ")");
        }
    }
    for (const poplar::Tensor& t : inputs) {
        if (tessera::ops::fullyMapped(eg(graph), et(t))) {
            return graph.clone(outputType, t, nameOf(dc, "out"));
        }
    }
    poplar::Tensor out = graph.addVariable(outputType, inputs[0].shape(), nameOf(dc, "out"));
    detail::run(graph, [&] { tessera::ops::mapLinearly(eg(graph), et(out)); });
    return out;
}

} // namespace popops
