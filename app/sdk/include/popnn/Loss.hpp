// popnn's loss functions, as PopLibs defines them:
// * calcLoss: per-sample loss and deltas (the gradient at the model's
//   outputs) for modelOutputs {batch, classes} (float or half; probabilities,
//   e.g. after SOFTMAX, for CROSS_ENTROPY_LOSS) and expected {batch} labels
//   (UNSIGNED_INT or INT).
//   CROSS_ENTROPY_LOSS: loss = -(log(p[label] + eps) - log(modelOutputScaling)),
//   deltas = deltasScale / modelOutputScaling * (p - onehot * modelOutputScaling);
//   a label equal to MASKED_LABEL_CODE (~0u, or -1 as INT) gives loss 0 and
//   deltas 0 (when the batch has more than one sample).
//   SUM_SQUARED_LOSS: loss = 0.5 * sum((p - onehot)^2), deltas = p - onehot.
//   deltasScale and modelOutputScaling are one-element tensors of
//   modelOutputs' type (1 when not given).
// * with numCorrect (an UNSIGNED_INT scalar or one-element tensor) the
//   programs also ADD the number of samples whose largest output is at the
//   label (calcAccuracy) to it.
// * argMax / argMin (UNSIGNED_INT indices, the first on ties), maxAndArgMax /
//   minAndArgMin over each row of a 2-D tensor; topK: the K largest of each
//   row as {batch, 1, K}, with their indices in `indices`.
#ifndef TESSERA_POPNN_LOSS_HPP
#define TESSERA_POPNN_LOSS_HPP

namespace popnn {
enum LossType { SUM_SQUARED_LOSS, CROSS_ENTROPY_LOSS };
} // namespace popnn

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/EncodingConstants.hpp>

#include <utility>

namespace popnn {

poplar::program::Program
calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs, const poplar::Tensor& expected,
         const poplar::Tensor& loss, const poplar::Tensor& deltas,
         const poplar::Tensor& deltasScale, const poplar::Tensor& modelOutputScaling,
         LossType lossType, const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::program::Program
calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs, const poplar::Tensor& expected,
         const poplar::Tensor& loss, const poplar::Tensor& deltas, LossType lossType,
         const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::program::Program
calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs, const poplar::Tensor& expected,
         const poplar::Tensor& loss, const poplar::Tensor& deltas,
         const poplar::Tensor& deltasScale, const poplar::Tensor& modelOutputScaling,
         const poplar::Tensor& numCorrect, LossType lossType,
         const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::program::Program
calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs, const poplar::Tensor& expected,
         const poplar::Tensor& loss, const poplar::Tensor& deltas, const poplar::Tensor& numCorrect,
         LossType lossType, const poplar::DebugContext& debugContext = poplar::DebugContext());

poplar::program::Program
calcAccuracy(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
             const poplar::Tensor& expected, const poplar::Tensor& numCorrect,
             const poplar::DebugContext& debugContext = poplar::DebugContext());

poplar::Tensor argMax(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());
std::pair<poplar::Tensor, poplar::Tensor>
maxAndArgMax(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor argMin(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());
std::pair<poplar::Tensor, poplar::Tensor>
minAndArgMin(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = poplar::DebugContext());

poplar::Tensor topK(poplar::Graph& graph, const poplar::Tensor& input, poplar::Tensor& indices,
                    unsigned K, bool sort, poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popnn

#endif
