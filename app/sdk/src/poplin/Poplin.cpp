// poplin on the engine's planned matMul (engine/ops/MatMul).
#include "Impl.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>

namespace poplin {

using poplar::detail::Access;
using poplar::detail::intoSequence;
using poplar::detail::translate;

void addCodelets(poplar::Graph&) {}

poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& dc, const poplar::OptionFlags&, PlanningCache*) {
    if (outputType != A.elementType()) {
        throw poplar::poplar_error("matMul: Tessera's output type is the operands' type");
    }
    return translate([&] {
        const tessera::Tensor& a = Access::tensor(A);
        const tessera::Tensor& b = Access::tensor(B);
        if (a.rank() != 2 || b.rank() != 2 || a.dim(1) != b.dim(0)) {
            throw poplar::poplar_error("matMul: needs 2-D operands {m,k} and {k,n}; got " +
                                       tessera::shapeString(a.shape()) + " and " +
                                       tessera::shapeString(b.shape()));
        }
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::matMul(Access::graph(graph).graph, seq, a, b,
                                        dc.getPathName().empty() ? "matMul" : dc.getPathName());
        }));
    });
}

poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options, PlanningCache* cache) {
    return matMul(graph, A, B, prog, A.elementType(), dc, options, cache);
}

namespace {
poplar::Tensor linear(poplar::Graph& graph, const poplar::Type& type,
                      const std::vector<std::size_t>& shape, const poplar::DebugContext& dc) {
    poplar::Tensor t = graph.addVariable(type, shape, dc);
    translate([&] {
        tessera::ops::mapLinearly(Access::graph(graph).graph, Access::tensor(t));
        return 0;
    });
    return t;
}
} // namespace

poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& type,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>&, const poplar::DebugContext& dc,
                                    const poplar::OptionFlags&, PlanningCache*) {
    return linear(graph, type, aShape, dc);
}

poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& type,
                                    const std::vector<std::size_t>&,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& dc, const poplar::OptionFlags&,
                                    PlanningCache*) {
    return linear(graph, type, bShape, dc);
}

} // namespace poplin
