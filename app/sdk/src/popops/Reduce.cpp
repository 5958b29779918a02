// popops::reduce / reduceWithOutput / reduceMany on the engine's
// ops::reduceWithOutput (PopLibs' operations, type pairs, scale, update).
#include "Common.h"
#include "engine/ops/Map.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Reduction.h"

#include <popops/Reduce.hpp>

namespace popops {

using detail::eg;
using detail::et;
using detail::nameOf;
using detail::pt;

namespace {

tessera::ops::ReduceSpec specOf(const ReduceParams& p) {
    tessera::ops::ReduceOp op = tessera::ops::ReduceOp::Add;
    switch (p.op) {
    case Operation::ADD:
        op = tessera::ops::ReduceOp::Add;
        break;
    case Operation::SQUARE_ADD:
        op = tessera::ops::ReduceOp::SquareAdd;
        break;
    case Operation::MUL:
        op = tessera::ops::ReduceOp::Mul;
        break;
    case Operation::MIN:
        op = tessera::ops::ReduceOp::Min;
        break;
    case Operation::MAX:
        op = tessera::ops::ReduceOp::Max;
        break;
    case Operation::LOGICAL_AND:
        op = tessera::ops::ReduceOp::LogicalAnd;
        break;
    case Operation::LOGICAL_OR:
        op = tessera::ops::ReduceOp::LogicalOr;
        break;
    case Operation::LOG_ADD: // logAddStages
        break;
    }
    tessera::ops::ReduceSpec spec(op, p.update);
    if (p.useScale) {
        if (p.scale.valid()) {
            spec.scaleTensor = et(p.scale);
        } else {
            spec.scale = p.constantScale;
        }
    }
    return spec;
}

bool isFloating(const poplar::Type& t) {
    return t == poplar::FLOAT || t == poplar::HALF;
}

// The checks PopLibs makes before it creates an output (the engine makes them
// again): dimensions, the type pair, scale and update only with ADD and
// SQUARE_ADD.
void validate(const poplar::Tensor& in, const poplar::Type& out,
              const std::vector<std::size_t>& dims, const ReduceParams& p,
              const std::string& name) {
    for (const std::size_t d : dims) {
        if (d >= in.rank()) {
            throw poputil::poplibs_error(name + ": cannot reduce dimension " + std::to_string(d) +
                                         " of a tensor " + in.shapeToString());
        }
    }
    const poplar::Type t = in.elementType();
    bool ok = true;
    switch (p.op) {
    case Operation::ADD:
    case Operation::SQUARE_ADD:
    case Operation::MUL:
        ok = t != poplar::BOOL && out != poplar::BOOL &&
             (t == out || (isFloating(t) && isFloating(out)));
        break;
    case Operation::MIN:
    case Operation::MAX:
        ok = t == out && t != poplar::BOOL;
        break;
    case Operation::LOGICAL_AND:
    case Operation::LOGICAL_OR:
        ok = t == poplar::BOOL && out == poplar::BOOL;
        break;
    case Operation::LOG_ADD:
        ok = isFloating(t) && isFloating(out);
        break;
    }
    if (!ok) {
        throw poputil::poplibs_error(name + ": reduce " + asString(p.op) + " from " + t.toString() +
                                     " to " + out.toString() + " is not supported");
    }
    const bool sum = p.op == Operation::ADD || p.op == Operation::SQUARE_ADD;
    if ((p.update || p.useScale) && !sum) {
        throw poputil::poplibs_error(name +
                                     ": scale and update are only valid with the ADD or "
                                     "SQUARE_ADD operations, not " +
                                     asString(p.op));
    }
}

// The compute sets of the Executes in `seq`, in order (the engine's map adds
// one Execute in a Block per call).
void appendExecutes(const tessera::program::Node& node, std::vector<tessera::ComputeSet>& css) {
    if (node.kind == tessera::program::Kind::Execute) {
        css.push_back(tessera::ComputeSet{node.computeSet});
    }
    for (const auto& child : node.children) {
        appendExecutes(*child, css);
    }
}

// LOG_ADD: out = log(sum(exp(in))) over `dims`, computed as PopLibs' log-add
// does, without overflow: m + log(sum(exp(in - m))) with m the maximum (0
// in place of an infinite m, so that all -inf gives -inf). Sums in float.
void logAddStages(tessera::Graph& g, const tessera::Tensor& in, const tessera::Tensor& out,
                  const std::vector<std::size_t>& dims, std::vector<tessera::ComputeSet>& css,
                  const std::string& name) {
    namespace pe = popops::expr;
    const tessera::Tensor m = tessera::ops::reduce(
        g, in, in.elementType(), dims, tessera::ops::ReduceSpec(tessera::ops::ReduceOp::Max), css,
        name + "/max");
    // m with the reduced dimensions back as 1s, broadcast to in's shape.
    std::vector<std::size_t> kept = in.shape();
    for (const std::size_t d : dims) {
        kept[d] = 1;
    }
    const tessera::Tensor mB =
        tessera::ops::broadcastTo(m.reshape(kept), in.shape(), name + "/shift");
    const auto shift = [](const pe::Expr& x) {
        return pe::Select(pe::Const(0.0f), pe::Cast(x, poplar::FLOAT), pe::IsInf(x));
    };
    tessera::program::Sequence maps;
    const tessera::Tensor e = tessera::ops::map(
        g, maps, detail::toEngine(pe::Exp(pe::Sub(pe::Cast(pe::_1, poplar::FLOAT), shift(pe::_2)))),
        {in, mB}, name + "/exp");
    appendExecutes(*maps.node(), css);
    const tessera::Tensor sum = tessera::ops::reduce(
        g, e, tessera::Type::Float, dims, tessera::ops::ReduceSpec(tessera::ops::ReduceOp::Add),
        css, name + "/sum");
    if (!tessera::ops::fullyMapped(g, out)) { // reduceWithOutput maps an unmapped output: like m
        const tessera::Tensor flat = out.flatten();
        for (const tessera::ops::TileRange& r : tessera::ops::tileRanges(g, m)) {
            g.setTileMapping(flat.slice(r.begin, r.end), r.tile);
        }
    }
    tessera::program::Sequence last;
    tessera::ops::mapWithOutput(
        g, last,
        detail::toEngine(pe::Cast(pe::Add(shift(pe::_2), pe::Log(pe::_1)),
                                  poplar::detail::poplarType(out.elementType()))),
        {sum, m}, out, name + "/log");
    appendExecutes(*last.node(), css);
}

// reduceWithOutput's stages for any operation.
void reduceStages(tessera::Graph& g, const tessera::Tensor& in, const tessera::Tensor& out,
                  const std::vector<std::size_t>& dims, const ReduceParams& params,
                  std::vector<tessera::ComputeSet>& css, const std::string& name) {
    if (params.op == Operation::LOG_ADD) {
        if (params.update || params.useScale) {
            throw poputil::poplibs_error(name + ": scale and update are only valid with the ADD or "
                                                "SQUARE_ADD operations, not LOG_ADD");
        }
        if (!isFloating(poplar::detail::poplarType(in.elementType())) ||
            !isFloating(poplar::detail::poplarType(out.elementType()))) {
            throw poputil::poplibs_error(name + ": reduce LOG_ADD needs float or half tensors");
        }
        const auto shape = tessera::ops::reducedShape(in.shape(), dims, name);
        if (out.shape() != shape) {
            throw poputil::poplibs_error(
                name + ": the output " + tessera::shapeString(out.shape()) +
                " is not the reduced shape " + tessera::shapeString(shape));
        }
        logAddStages(g, in, out, dims, css, name);
    } else {
        tessera::ops::reduceWithOutput(g, in, out, dims, specOf(params), css, name);
    }
}

void addToSequence(poplar::program::Sequence& prog, const std::vector<tessera::ComputeSet>& css,
                   const std::string& name) {
    detail::intoSequence(
        prog, [&](tessera::program::Sequence& seq) { tessera::ops::addStages(seq, css, name); });
}

void appendAsPoplar(std::vector<poplar::ComputeSet>& out,
                    const std::vector<tessera::ComputeSet>& css) {
    for (const tessera::ComputeSet& cs : css) {
        out.push_back(poplar::ComputeSet(cs.id.value()));
    }
}

} // namespace

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css, const poplar::DebugContext& dc,
                      const poplar::OptionFlags&) {
    if (params.update) {
        throw poputil::poplibs_error("popops::reduce: cannot do an update using reduce(); "
                                     "call reduceWithOutput() instead");
    }
    validate(in, outType, dims, params, nameOf(dc, "reduce"));
    return detail::run(graph, [&] {
        std::vector<tessera::ComputeSet> stages;
        const std::string name = nameOf(dc, "reduce");
        tessera::Tensor out;
        if (params.op == Operation::LOG_ADD) {
            out = eg(graph).addVariable(poplar::detail::engineType(outType),
                                        tessera::ops::reducedShape(et(in).shape(), dims, name),
                                        name + "/out");
            tessera::ops::mapLinearly(eg(graph), out);
            reduceStages(eg(graph), et(in), out, dims, params, stages, name);
        } else {
            out = tessera::ops::reduce(eg(graph), et(in), poplar::detail::engineType(outType), dims,
                                       specOf(params), stages, name);
        }
        appendAsPoplar(css, stages);
        return pt(out);
    });
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options) {
    return reduce(graph, in, in.elementType(), dims, params, css, dc, options);
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options) {
    std::vector<poplar::ComputeSet> css;
    const poplar::Tensor out = reduce(graph, in, outType, dims, params, css, dc, options);
    detail::run(graph, [&] {
        std::vector<tessera::ComputeSet> stages;
        for (const poplar::ComputeSet& cs : css) {
            stages.push_back(tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}});
        }
        addToSequence(prog, stages, nameOf(dc, "reduce"));
    });
    return out;
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options) {
    return reduce(graph, in, in.elementType(), dims, params, prog, dc, options);
}

void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css, const poplar::DebugContext& dc,
                      const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        std::vector<tessera::ComputeSet> stages;
        reduceStages(eg(graph), et(in), et(out), dims, params, stages, nameOf(dc, "reduce"));
        appendAsPoplar(css, stages);
    });
}

void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        std::vector<tessera::ComputeSet> stages;
        reduceStages(eg(graph), et(in), et(out), dims, params, stages, nameOf(dc, "reduce"));
        addToSequence(prog, stages, nameOf(dc, "reduce"));
    });
}

void reduceMany(poplar::Graph& graph, const std::vector<SingleReduceOp>& reductions,
                std::vector<poplar::Tensor>& outputs, poplar::program::Sequence& prog,
                const poplar::DebugContext& dc, const poplar::OptionFlags& options) {
    const bool create = outputs.empty();
    if (!create && outputs.size() != reductions.size()) {
        throw poputil::poplibs_error("reduceMany: " + std::to_string(outputs.size()) +
                                     " outputs for " + std::to_string(reductions.size()) +
                                     " reductions");
    }
    // Each reduction's stages in turn, all in one Block.
    std::vector<std::vector<poplar::ComputeSet>> stages(reductions.size());
    for (std::size_t i = 0; i < reductions.size(); ++i) {
        const SingleReduceOp& r = reductions[i];
        const poplar::DebugContext name(dc, r.debugName.empty() ? std::to_string(i) : r.debugName);
        if (create) {
            outputs.push_back(reduce(graph, r.in, r.useOutType ? r.outType : r.in.elementType(),
                                     r.dims, r.params, stages[i], name, options));
        } else {
            reduceWithOutput(graph, r.in, outputs[i], r.dims, r.params, stages[i], name, options);
        }
    }
    detail::run(graph, [&] {
        std::vector<tessera::ComputeSet> all;
        for (const auto& list : stages) {
            for (const poplar::ComputeSet& cs : list) {
                all.push_back(tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}});
            }
        }
        addToSequence(prog, all, nameOf(dc, "reduceMany"));
    });
}

} // namespace popops
