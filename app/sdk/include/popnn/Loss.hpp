// popnn::calcLoss: per-sample loss, deltas (gradient wrt the model's
// outputs) and the number of correct predictions.
#ifndef TESSERA_POPNN_LOSS_HPP
#define TESSERA_POPNN_LOSS_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popnn {

enum LossType { SUM_SQUARED_LOSS, CROSS_ENTROPY_LOSS };

// modelOutputs {batch, classes}: probabilities (after SOFTMAX for
// CROSS_ENTROPY_LOSS); expected {batch}: class labels (UNSIGNED_INT or INT).
// loss {batch}: -log(p[label]) (cross entropy) or 0.5 * sum (p - onehot)^2;
// deltas {batch, classes}: p - onehot(label); numCorrect (scalar,
// UNSIGNED_INT): how many rows have their largest output at the label.
poplar::program::Program
calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs, const poplar::Tensor& expected,
         const poplar::Tensor& loss, const poplar::Tensor& deltas, const poplar::Tensor& numCorrect,
         LossType lossType, const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::program::Program
calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs, const poplar::Tensor& expected,
         const poplar::Tensor& loss, const poplar::Tensor& deltas, LossType lossType,
         const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popnn

#endif
