// poplin::matMul: C = A . B for 2-D operands, planned across tiles (a grid
// of tiles computes partial products, then partial sums are reduced).
#ifndef TESSERA_POPLIN_MATMUL_HPP
#define TESSERA_POPLIN_MATMUL_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace poplin {

class PlanningCache {};

poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags(),
                      PlanningCache* cache = 0);
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags(),
                      PlanningCache* cache = 0);

// Operands laid out for matMul: new variables of shape {m, k} and {k, n},
// mapped linearly over the tiles.
poplar::Tensor
createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& type,
                     const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                     const poplar::DebugContext& debugContext = poplar::DebugContext(),
                     const poplar::OptionFlags& options = poplar::OptionFlags(),
                     PlanningCache* cache = 0);
poplar::Tensor
createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& type,
                     const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                     const poplar::DebugContext& debugContext = poplar::DebugContext(),
                     const poplar::OptionFlags& options = poplar::OptionFlags(),
                     PlanningCache* cache = 0);

} // namespace poplin

#endif
