// poplin matrix products on the engine's planned matMul (engine/ops/MatMul).
#include "engine/ops/MatMul.h"

#include "Common.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Map.h"

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>

#include <ostream>

namespace poplin {

using poplar::detail::Access;
using poplar::detail::engineType;
using poplar::detail::intoSequence;
using poplar::detail::translatePoplibs;
using namespace poplin::detail;

void addCodelets(poplar::Graph&) {}

namespace {

void requireFloating(const poplar::Type& t, const std::string& what, const std::string& role) {
    if (t != poplar::FLOAT && t != poplar::HALF) {
        throw poputil::poplibs_error(what + ": the " + role + " must be float or half, not " +
                                     t.toString());
    }
}

// The product of two 2-D engine tensors of one type, in `outputType`. Half
// operands with a float output are cast to float first, so their products
// and sums are formed in float (PopLibs' float partials) and the result is
// not rounded to half; a half output of float operands is the float product
// rounded once.
tessera::Tensor product(tessera::Graph& g, tessera::program::Sequence& seq, tessera::Tensor a,
                        tessera::Tensor b, tessera::Type outputType, const std::string& name) {
    // 2-D operands multiply on all tiles; 3-D ones as groups side by side.
    const auto multiply = [&g](tessera::program::Sequence& s, const tessera::Tensor& x,
                               const tessera::Tensor& y, const std::string& what) {
        return x.rank() == 3 ? tessera::ops::matMulGrouped(g, s, x, y, what)
                             : tessera::ops::matMul(g, s, x, y, what);
    };
    if (a.elementType() == outputType) {
        return multiply(seq, a, b, name);
    }
    return asOperation(seq, name, [&](tessera::program::Sequence& body) {
        if (a.elementType() == tessera::Type::Half) { // half . half -> float
            a = tessera::ops::cast(g, body, a, tessera::Type::Float, name + "/castA");
            b = tessera::ops::cast(g, body, b, tessera::Type::Float, name + "/castB");
            return multiply(body, a, b, name + "/product");
        }
        const tessera::Tensor c = multiply(body, a, b, name + "/product");
        return tessera::ops::cast(g, body, c, outputType, name + "/castOut");
    });
}

void checkOperands(const poplar::Tensor& A, const poplar::Tensor& B, std::size_t rank,
                   const poplar::Type& outputType, const std::string& what) {
    requireFloating(A.elementType(), what, "left operand");
    requireFloating(outputType, what, "output type");
    if (A.elementType() != B.elementType()) {
        throw poputil::poplibs_error(what + ": the operands' types differ (" +
                                     A.elementType().toString() + " and " +
                                     B.elementType().toString() + ")");
    }
    const std::vector<std::size_t> a = A.shape();
    const std::vector<std::size_t> b = B.shape();
    const bool grouped = rank == 3;
    if (a.size() != rank || b.size() != rank || a[rank - 1] != b[rank - 2] ||
        (grouped && a[0] != b[0])) {
        throw poputil::poplibs_error(what + ": needs " +
                                     (grouped ? std::string("3-D operands {G,m,k} and {G,k,n}")
                                              : std::string("2-D operands {m,k} and {k,n}")) +
                                     "; got " + tessera::shapeString(a) + " and " +
                                     tessera::shapeString(b));
    }
}

poplar::Tensor grouped(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                       poplar::program::Sequence& prog, const poplar::Type& outputType,
                       const std::string& name) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& a = Access::tensor(A);
        const tessera::Tensor& b = Access::tensor(B);
        const tessera::Type out = engineType(outputType);
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& outer) {
            return product(g, outer, a, b, out, name);
        }));
    });
}

// Runs `f` on a fresh Poplar sequence and appends it to `prog` as one Block.
template <typename F>
void asOperation(poplar::Graph&, poplar::program::Sequence& prog, const std::string& name, F&& f,
                 const tessera::SourceLocation& where = tessera::SourceLocation::current()) {
    poplar::program::Sequence body;
    f(body);
    intoSequence(prog, [&](tessera::program::Sequence& seq) {
        seq.add(tessera::program::Block(Access::program(body), name,
                                        tessera::program::LibraryCall::at(where)));
    });
}

void accumulate(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor* kTensor,
                float k, const poplar::Tensor& product, poplar::program::Sequence& prog,
                const std::string& name) {
    if (C.shape() != product.shape()) {
        throw poputil::poplibs_error(name + ": C " + tessera::shapeString(C.shape()) +
                                     " is not the product's shape " +
                                     tessera::shapeString(product.shape()));
    }
    translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            if (kTensor == nullptr) {
                tessera::ops::scaledAddTo(g, seq, Access::tensor(C), Access::tensor(product), k,
                                          name + "/acc");
                return;
            }
            if (kTensor->numElements() != 1) {
                throw poputil::poplibs_error(name + ": the scale k must have one element, not " +
                                             std::to_string(kTensor->numElements()));
            }
            // C = C + cast(k) * P, k broadcast.
            namespace ex = tessera::ops::expr;
            ex::Expression e;
            const tessera::Type ct = Access::tensor(C).elementType();
            const auto c = e.placeholder(0);
            const auto p = e.placeholder(1);
            const auto kk = e.cast(e.placeholder(2), ct);
            e.binary(ex::BinaryOp::Add, c, e.binary(ex::BinaryOp::Multiply, kk, p));
            tessera::ops::mapInPlace(
                g, seq, e,
                {Access::tensor(C), Access::tensor(product), Access::tensor(*kTensor).flatten()},
                name + "/acc");
        });
        return 0;
    });
}

} // namespace

poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                      PlanningCache* cache) {
    const std::string name = opName(dc, "matMul");
    checkOptions(options, "poplin::matMul");
    checkOperands(A, B, 2, outputType, "poplin::matMul");
    if (cache) {
        cache->recordUse();
    }
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return product(g, seq, Access::tensor(A), Access::tensor(B), engineType(outputType),
                           name);
        }));
    });
}

poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options, PlanningCache* cache) {
    return matMul(graph, A, B, prog, A.elementType(), dc, options, cache);
}

poplar::Tensor matMulGrouped(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                             poplar::program::Sequence& prog, const poplar::Type& outputType,
                             const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                             PlanningCache* cache) {
    checkOptions(options, "poplin::matMulGrouped");
    checkOperands(A, B, 3, outputType, "poplin::matMulGrouped");
    if (cache) {
        cache->recordUse();
    }
    return grouped(graph, A, B, prog, outputType, opName(dc, "matMulGrouped"));
}

void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, float k, const poplar::Tensor& A,
               const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& dc, const poplar::OptionFlags& options,
               PlanningCache* cache) {
    const std::string name = opName(dc, "matMulAcc");
    asOperation(graph, prog, name, [&](poplar::program::Sequence& body) {
        const poplar::Tensor p =
            matMul(graph, A, B, body, C.elementType(), name + "/product", options, cache);
        accumulate(graph, C, nullptr, k, p, body, name);
    });
}

void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
               const poplar::Tensor& A, const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& dc, const poplar::OptionFlags& options,
               PlanningCache* cache) {
    const std::string name = opName(dc, "matMulAcc");
    asOperation(graph, prog, name, [&](poplar::program::Sequence& body) {
        const poplar::Tensor p =
            matMul(graph, A, B, body, C.elementType(), name + "/product", options, cache);
        accumulate(graph, C, &k, 0, p, body, name);
    });
}

void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, float k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options, PlanningCache* cache) {
    const std::string name = opName(dc, "matMulGroupedAcc");
    asOperation(graph, prog, name, [&](poplar::program::Sequence& body) {
        const poplar::Tensor p =
            matMulGrouped(graph, A, B, body, C.elementType(), name + "/product", options, cache);
        accumulate(graph, C, nullptr, k, p, body, name);
    });
}

void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                      const poplar::OptionFlags& options, PlanningCache* cache) {
    const std::string name = opName(dc, "matMulGroupedAcc");
    asOperation(graph, prog, name, [&](poplar::program::Sequence& body) {
        const poplar::Tensor p =
            matMulGrouped(graph, A, B, body, C.elementType(), name + "/product", options, cache);
        accumulate(graph, C, &k, 0, p, body, name);
    });
}

namespace {

poplar::Tensor createInput(poplar::Graph& graph, const poplar::Type& type,
                           const std::vector<std::size_t>& aShape,
                           const std::vector<std::size_t>& bShape, bool lhs, std::size_t rank,
                           const poplar::DebugContext& dc, const poplar::OptionFlags& options,
                           const std::string& what) {
    checkOptions(options, what);
    requireFloating(type, what, "type");
    const bool grouped = rank == 3;
    if (aShape.size() != rank || bShape.size() != rank || aShape[rank - 1] != bShape[rank - 2] ||
        (grouped && aShape[0] != bShape[0])) {
        throw poputil::poplibs_error(what + ": the shapes " + tessera::shapeString(aShape) +
                                     " and " + tessera::shapeString(bShape) +
                                     " are not those of a matrix product");
    }
    return newOperand(graph, type, lhs ? aShape : bShape, dc);
}

} // namespace

poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type&, const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& dc,
                                    const poplar::OptionFlags& options, PlanningCache*) {
    return createInput(graph, inputType, aShape, bShape, true, 2, dc, options,
                       "poplin::createMatMulInputLHS");
}

poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& dataType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& dc,
                                    const poplar::OptionFlags& options, PlanningCache* cache) {
    return createMatMulInputLHS(graph, dataType, dataType, aShape, bShape, dc, options, cache);
}

poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type&, const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& dc,
                                    const poplar::OptionFlags& options, PlanningCache*) {
    return createInput(graph, inputType, aShape, bShape, false, 2, dc, options,
                       "poplin::createMatMulInputRHS");
}

poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& dataType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& dc,
                                    const poplar::OptionFlags& options, PlanningCache* cache) {
    return createMatMulInputRHS(graph, dataType, dataType, aShape, bShape, dc, options, cache);
}

poplar::Tensor createMatMulGroupedInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                           const poplar::Type&,
                                           const std::vector<std::size_t>& aShape,
                                           const std::vector<std::size_t>& bShape,
                                           const poplar::DebugContext& dc,
                                           const poplar::OptionFlags& options, PlanningCache*) {
    return createInput(graph, inputType, aShape, bShape, true, 3, dc, options,
                       "poplin::createMatMulGroupedInputLHS");
}

poplar::Tensor createMatMulGroupedInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                           const poplar::Type&,
                                           const std::vector<std::size_t>& aShape,
                                           const std::vector<std::size_t>& bShape,
                                           const poplar::DebugContext& dc,
                                           const poplar::OptionFlags& options, PlanningCache*) {
    return createInput(graph, inputType, aShape, bShape, false, 3, dc, options,
                       "poplin::createMatMulGroupedInputRHS");
}

poplar::Tensor transposeGroupedMatrix(const poplar::Tensor& A) {
    if (A.rank() != 3) {
        throw poputil::poplibs_error("poplin::transposeGroupedMatrix: needs a 3-D tensor, got " +
                                     tessera::shapeString(A.shape()));
    }
    return A.dimShuffle({0, 2, 1});
}

void matMulReportPlan(std::ostream& out, const poplar::Graph& graph, const poplar::Type& inputType,
                      const poplar::Type&, const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape, const poplar::OptionFlags& options,
                      PlanningCache*) {
    checkOptions(options, "poplin::matMulReportPlan");
    if (aShape.size() != 2 || bShape.size() != 2 || aShape[1] != bShape[0]) {
        throw poputil::poplibs_error(
            "poplin::matMulReportPlan: the shapes " + tessera::shapeString(aShape) + " and " +
            tessera::shapeString(bShape) + " are not those of a matrix product");
    }
    translatePoplibs([&] {
        const tessera::ops::MatMulPlan plan =
            tessera::ops::planMatMul(Access::graph(graph).graph.getTarget(), aShape[0], aShape[1],
                                     bShape[1], engineType(inputType));
        out << "matMul " << aShape[0] << "x" << aShape[1] << " . " << bShape[0] << "x" << bShape[1]
            << ": " << plan.pm << " x " << plan.pn << " x " << plan.pk
            << " tiles (rows x columns x k), about " << static_cast<long long>(plan.estimatedCycles)
            << " cycles\n";
        return 0;
    });
}

} // namespace poplin
