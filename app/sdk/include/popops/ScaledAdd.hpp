// Scaled additions (popops/ScaledAdd.hpp), in place into A, which B must
// match in shape: A += scaleB * B, A = scaleA * A + scaleB * B, and the
// subtracting forms. B and the scales are cast to A's type.
#ifndef TESSERA_POPOPS_SCALEDADD_HPP
#define TESSERA_POPOPS_SCALEDADD_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

enum class ScaledAddSpecialisation { DEFAULT, X_MINUS_AX_PLUS_BY };

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
// X_MINUS_AX_PLUS_BY: A = A - scaleA * A + scaleB * B
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                 const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA,
                        poplar::Tensor B, poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                        float scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace popops

#endif
