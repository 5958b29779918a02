// poplin matrix products: C = A . B for 2-D operands and for groups of them
// ([G][M][K] x [G][K][N]), with accumulation (C += k . A . B), planned across
// tiles (a grid of tiles computes partial products, then the partial sums are
// reduced on the tiles that own the output rows). Transposed operands are
// plain views (A.transpose()). Half operands accumulate in float partials; a
// float output of half operands is exact (the products are formed in float).
// Planning options (partialsType, availableMemoryProportion,
// fullyConnectedPass, ...) and planning caches are accepted; Tessera's planner
// chooses the tile grid by its own cost model.
#ifndef TESSERA_POPLIN_MATMUL_HPP
#define TESSERA_POPLIN_MATMUL_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#ifndef TESSERA_POPLIN_PLANNING_CACHE
#define TESSERA_POPLIN_PLANNING_CACHE
namespace poplin {
// Plans are cheap in Tessera; the cache is accepted and counts its uses.
class PlanningCache {
public:
    PlanningCache()
        : uses_(0) {}
    std::size_t size() const { return uses_; }
    void recordUse() { ++uses_; }

private:
    std::size_t uses_;
};
} // namespace poplin
#endif

namespace poplin {

namespace matmul {
typedef poplin::PlanningCache PlanningCache;
} // namespace matmul

// C = A . B; A {m, k} and B {k, n} of the same type (float or half). The
// result has outputType (float or half) and is mapped over the tiles.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
// The same with the operands' type as the output type.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

// C[g] = A[g] . B[g] for A {G, m, k} and B {G, k, n}.
poplar::Tensor matMulGrouped(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                             poplar::program::Sequence& prog, const poplar::Type& outputType,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

// C += k . A . B (C {m, n} already mapped); k a constant or a one-element
// tensor.
void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, float k, const poplar::Tensor& A,
               const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
               const poplar::Tensor& A, const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
// C[g] += k . A[g] . B[g].
void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, float k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

// Operands laid out for matMul: new variables of shape aShape (LHS) or bShape
// (RHS), mapped over the tiles in rows.
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type& outputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& dataType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type& outputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& dataType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulGroupedInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                           const poplar::Type& outputType,
                                           const std::vector<std::size_t>& aShape,
                                           const std::vector<std::size_t>& bShape,
                                           const poplar::DebugContext& debugContext = {},
                                           const poplar::OptionFlags& options = {},
                                           PlanningCache* cache = nullptr);
poplar::Tensor createMatMulGroupedInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                           const poplar::Type& outputType,
                                           const std::vector<std::size_t>& aShape,
                                           const std::vector<std::size_t>& bShape,
                                           const poplar::DebugContext& debugContext = {},
                                           const poplar::OptionFlags& options = {},
                                           PlanningCache* cache = nullptr);

// A {G, r, c} as {G, c, r} (a view).
poplar::Tensor transposeGroupedMatrix(const poplar::Tensor& A);

// Writes the tile grid Tessera would plan for the product.
void matMulReportPlan(std::ostream& out, const poplar::Graph& graph, const poplar::Type& inputType,
                      const poplar::Type& outputType, const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape,
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

} // namespace poplin

#endif
