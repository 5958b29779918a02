// popops::scatter (popops/Scatter.hpp): XLA's scatter, as PopLibs ports it.
// For each scatter index G of `updates` (its dimensions not in
// updateWindowDims), the start vector indices[G] (along indexVectorDim; a
// scalar when indexVectorDim == indices.rank()) gives, through
// scatterDimsToOperandDims, where the update window (updates' window
// dimensions, with size-1 insertWindowDims inserted) lands in `operand`; the
// window replaces those elements, or with updateComputation becomes
// updateComputation(current, update). Windows are applied in order of G (a
// later one wins where they overlap). Start indices are clamped so the
// window fits, as XLA clamps them.
#ifndef TESSERA_POPOPS_SCATTER_HPP
#define TESSERA_POPOPS_SCATTER_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace popops {

void scatter(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
             const poplar::Tensor& updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});

// The current operand window and the update give the new window.
using UpdateComputationFunc = std::function<poplar::Tensor(
    poplar::Graph&, poplar::Tensor&, poplar::Tensor&, poplar::program::Sequence&)>;

void scatter(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
             const poplar::Tensor& updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc& updateComputation, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});

} // namespace popops

#endif
