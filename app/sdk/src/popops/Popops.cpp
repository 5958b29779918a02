// popops on the engine's library operations (engine/ops).
#include "Impl.h"
#include "IntegerCodelets.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Reduce.h"

#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>

#include <algorithm>
#include <numeric>

namespace popops {

using poplar::detail::Access;
using poplar::detail::intoSequence;
using poplar::detail::translate;

namespace {

tessera::Graph& eg(poplar::Graph& g) {
    return Access::graph(g).graph;
}

const char* binaryName(expr::BinaryOpType op) {
    switch (op) {
    case expr::BinaryOpType::ADD:
        return "Add";
    case expr::BinaryOpType::SUBTRACT:
        return "Sub";
    case expr::BinaryOpType::MULTIPLY:
        return "Mul";
    case expr::BinaryOpType::DIVIDE:
        return "Div";
    case expr::BinaryOpType::MAXIMUM:
        return "Max";
    case expr::BinaryOpType::MINIMUM:
        return "Min";
    }
    throw poplar::poplar_error("popops::map: unsupported binary operation");
}

const char* unaryName(expr::UnaryOpType op) {
    switch (op) {
    case expr::UnaryOpType::ABSOLUTE:
        return "Abs";
    case expr::UnaryOpType::EXPONENT:
        return "Exp";
    case expr::UnaryOpType::INVERSE:
        return "Inv";
    case expr::UnaryOpType::LOGARITHM:
        return "Log";
    case expr::UnaryOpType::NEGATE:
        return "Neg";
    case expr::UnaryOpType::RELU:
        return "Relu";
    case expr::UnaryOpType::SIGMOID:
        return "Sigmoid";
    case expr::UnaryOpType::SQRT:
        return "Sqrt";
    case expr::UnaryOpType::SQUARE:
        return "Square";
    case expr::UnaryOpType::TANH:
        return "Tanh";
    }
    throw poplar::poplar_error("popops::map: unsupported unary operation");
}

// A view of `t` broadcast to `shape` by numpy's rules (no data is copied).
tessera::Tensor broadcastTo(tessera::Tensor t, const std::vector<std::size_t>& shape,
                            const char* what) {
    if (t.shape() == shape) {
        return t;
    }
    if (t.rank() > shape.size()) {
        throw poplar::poplar_error(std::string(what) + ": cannot broadcast " +
                                   tessera::shapeString(t.shape()) + " to " +
                                   tessera::shapeString(shape));
    }
    if (t.rank() < shape.size()) {
        std::vector<std::size_t> at(shape.size() - t.rank(), 0);
        t = t.expand(at);
    }
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (t.dim(d) == shape[d]) {
            continue;
        }
        if (t.dim(d) != 1) {
            throw poplar::poplar_error(std::string(what) + ": cannot broadcast " +
                                       tessera::shapeString(t.shape()) + " to " +
                                       tessera::shapeString(shape));
        }
        t = t.broadcast(shape[d], d);
    }
    return t;
}

// Integer tensors need popops' own codelets (added once; adding again is a no-op).
void addIntegerCodeletsFor(tessera::Graph& g, tessera::Type type) {
    if (type == tessera::Type::Int || type == tessera::Type::UnsignedInt) {
        detail::addIntegerCodelets(g);
    }
}

std::string nameOr(const poplar::DebugContext& dc, const std::string& fallback) {
    return dc.getPathName().empty() ? fallback : dc.getPathName();
}

// A deserialised executable gets these codelets too.
[[maybe_unused]] const bool kProviderRegistered =
    (poplar::detail::registerCodeletProvider(&detail::addIntegerCodelets), true);

} // namespace

void addCodelets(poplar::Graph& graph) {
    translate([&] {
        detail::addIntegerCodelets(eg(graph));
        return 0;
    });
}

poplar::Tensor map(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                   const poplar::Tensor& b, poplar::program::Sequence& prog,
                   const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return translate([&] {
        const tessera::Tensor& ea = Access::tensor(a);
        const tessera::Tensor eb = broadcastTo(Access::tensor(b), ea.shape(), "popops::map");
        addIntegerCodeletsFor(eg(graph), ea.elementType());
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::binary(eg(graph), seq, binaryName(op), ea, eb,
                                        nameOr(dc, binaryName(op)));
        }));
    });
}

poplar::Tensor map(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& a,
                   poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                   const poplar::OptionFlags&) {
    return translate([&] {
        addIntegerCodeletsFor(eg(graph), Access::tensor(a).elementType());
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::unary(eg(graph), seq, unaryName(op), Access::tensor(a),
                                       nameOr(dc, unaryName(op)));
        }));
    });
}

void mapInPlace(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                const poplar::Tensor& b, poplar::program::Sequence& prog,
                const poplar::DebugContext& dc, const poplar::OptionFlags& options) {
    const poplar::Tensor result = map(graph, op, a, b, prog, dc, options);
    prog.add(poplar::program::Copy(result, a));
}

void mapInPlace(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& a,
                poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                const poplar::OptionFlags& options) {
    const poplar::Tensor result = map(graph, op, a, prog, dc, options);
    prog.add(poplar::program::Copy(result, a));
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                 const poplar::OptionFlags&) {
    translate([&] {
        const tessera::Tensor& ea = Access::tensor(A);
        const tessera::Tensor eb = broadcastTo(Access::tensor(B), ea.shape(), "scaledAddTo");
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::scaledAddTo(eg(graph), seq, ea, eb, scaleB, nameOr(dc, "scaledAddTo"));
        });
        return 0;
    });
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                        const poplar::OptionFlags& options) {
    scaledAddTo(graph, A, B, -scaleB, prog, dc, options);
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& dc) {
    fillValue(graph, t, 0.0, prog, dc.getPathName().empty() ? poplar::DebugContext("zero") : dc);
}

void fillValue(poplar::Graph& graph, const poplar::Tensor& t, double value,
               poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    translate([&] {
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::fill(eg(graph), seq, Access::tensor(t), value, nameOr(dc, "fill"));
        });
        return 0;
    });
}

namespace {

// `in` reduced over `dims` into a new tensor of the remaining shape.
tessera::Tensor reduceDims(tessera::Graph& g, tessera::program::Sequence& seq,
                           const tessera::Tensor& in, std::vector<std::size_t> dims, Operation op,
                           const std::string& name) {
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    for (std::size_t d : dims) {
        if (d >= in.rank()) {
            throw poplar::poplar_error("reduce: dimension " + std::to_string(d) +
                                       " out of range for " + tessera::shapeString(in.shape()));
        }
    }
    std::vector<std::size_t> kept, order, outShape;
    for (std::size_t d = 0; d < in.rank(); ++d) {
        if (!std::binary_search(dims.begin(), dims.end(), d)) {
            kept.push_back(d);
            outShape.push_back(in.dim(d));
        }
    }
    order = kept;
    order.insert(order.end(), dims.begin(), dims.end());
    std::size_t outer = 1, inner = 1;
    for (std::size_t d : kept) {
        outer *= in.dim(d);
    }
    for (std::size_t d : dims) {
        inner *= in.dim(d);
    }
    // Rows to reduce: [outer, inner], a view of `in`.
    tessera::Tensor rows = in.dimShuffle(order).reshape({outer, inner});
    std::string engineOp;
    bool negate = false;
    switch (op) {
    case Operation::ADD:
        engineOp = "Add";
        break;
    case Operation::MAX:
        engineOp = "Max";
        break;
    case Operation::MIN: // min(x) = -max(-x)
        engineOp = "Max";
        negate = true;
        break;
    case Operation::SQUARE_ADD:
        engineOp = "Add";
        rows = tessera::ops::unary(g, seq, "Square", rows, name + "/square");
        break;
    default:
        throw poplar::poplar_error("reduce: operation not supported by Tessera yet (ADD, "
                                   "SQUARE_ADD, MAX, MIN are)");
    }
    if (negate) {
        rows = tessera::ops::unary(g, seq, "Neg", rows, name + "/negate");
    }
    tessera::Tensor result = tessera::ops::reduceRows(g, seq, rows, engineOp, name);
    if (negate) {
        result = tessera::ops::unary(g, seq, "Neg", result, name + "/negate-result");
    }
    return outShape.empty() ? result.reshape({}) : result.reshape(outShape);
}

} // namespace

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options) {
    if (outType != in.elementType()) {
        throw poplar::poplar_error("reduce: the output type must be the input's in Tessera");
    }
    if (params.update) {
        throw poplar::poplar_error("reduce: update needs an output (use reduceWithOutput)");
    }
    (void)options;
    return translate([&] {
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::Tensor r = reduceDims(eg(graph), seq, Access::tensor(in), dims, params.op,
                                           nameOr(dc, "reduce"));
            if (params.useScale) {
                tessera::Tensor scaled = tessera::ops::cloneLike(eg(graph), r, r.elementType(),
                                                                 nameOr(dc, "reduce") + "/scaled");
                tessera::ops::fill(eg(graph), seq, scaled, 0.0, nameOr(dc, "reduce") + "/zero");
                tessera::ops::scaledAddTo(eg(graph), seq, scaled, r, params.scale,
                                          nameOr(dc, "reduce") + "/scale");
                r = scaled;
            }
            return r;
        }));
    });
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options) {
    return reduce(graph, in, in.elementType(), dims, params, prog, dc, options);
}

void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options) {
    ReduceParams p = params;
    p.update = false;
    const poplar::Tensor r = reduce(graph, in, in.elementType(), dims, p, prog, dc, options);
    if (r.numElements() != out.numElements()) {
        throw poplar::poplar_error("reduceWithOutput: the output has " +
                                   std::to_string(out.numElements()) + " elements, the result " +
                                   std::to_string(r.numElements()));
    }
    if (params.update) {
        translate([&] {
            intoSequence(prog, [&](tessera::program::Sequence& seq) {
                tessera::ops::scaledAddTo(eg(graph), seq, Access::tensor(out).flatten(),
                                          Access::tensor(r).flatten(), 1.0,
                                          nameOr(dc, "reduce") + "/update");
            });
            return 0;
        });
    } else {
        prog.add(poplar::program::Copy(r, out));
    }
}

} // namespace popops
