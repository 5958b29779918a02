// popops::reduce / reduceWithOutput / reduceMany on the engine's
// ops::reduceWithOutput (PopLibs' operations, type pairs, scale, update).
#include "Common.h"
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
    case Operation::LOG_ADD:
        detail::unsupported("popops::reduce with Operation::LOG_ADD");
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
        detail::unsupported("popops::reduce with Operation::LOG_ADD");
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

void addToSequence(poplar::program::Sequence& prog, const std::vector<tessera::ComputeSet>& css,
                   const std::string& name) {
    detail::intoSequence(
        prog, [&](tessera::program::Sequence& seq) { tessera::ops::addStages(seq, css, name); });
}

void appendAsPoplar(std::vector<poplar::ComputeSet>& out,
                    const std::vector<tessera::ComputeSet>& css) {
    for (const tessera::ComputeSet& cs : css) {
        out.push_back(poplar::ComputeSet(cs.id));
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
        const tessera::Tensor out =
            tessera::ops::reduce(eg(graph), et(in), poplar::detail::engineType(outType), dims,
                                 specOf(params), stages, nameOf(dc, "reduce"));
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
            stages.push_back(tessera::ComputeSet{cs.getId()});
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
        tessera::ops::reduceWithOutput(eg(graph), et(in), et(out), dims, specOf(params), stages,
                                       nameOf(dc, "reduce"));
        appendAsPoplar(css, stages);
    });
}

void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        std::vector<tessera::ComputeSet> stages;
        tessera::ops::reduceWithOutput(eg(graph), et(in), et(out), dims, specOf(params), stages,
                                       nameOf(dc, "reduce"));
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
                all.push_back(tessera::ComputeSet{cs.getId()});
            }
        }
        addToSequence(prog, all, nameOf(dc, "reduceMany"));
    });
}

} // namespace popops
