// popnn::nonLinearity: SIGMOID, RELU, TANH and SOFTMAX (over the innermost
// dimension) as new tensors.
#ifndef TESSERA_POPNN_NONLINEARITY_HPP
#define TESSERA_POPNN_NONLINEARITY_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popnn/NonLinearityDef.hpp>

namespace popnn {

poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType type, poplar::Tensor t,
                            poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = poplar::DebugContext());
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType type, poplar::Tensor t,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popnn

#endif
