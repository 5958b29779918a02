// popnn::logSoftmax: log of the softmax over the innermost dimension
// (x - max - log(sum(exp(x - max))), the sum in float).
#ifndef TESSERA_POPNN_LOGSOFTMAX_HPP
#define TESSERA_POPNN_LOGSOFTMAX_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

void logSoftmaxInPlace(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor logSoftmax(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popnn

#endif
