// popnn::nonLinearity: element-wise non-linearities and softmax (over the
// innermost dimension), in place or into a new tensor, and their gradients.
// The ComputeSet overloads add vertices to the caller's compute set; softmax
// has none (they throw, as in PopLibs).
#ifndef TESSERA_POPNN_NONLINEARITY_HPP
#define TESSERA_POPNN_NONLINEARITY_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/NonLinearityDef.hpp>

namespace popnn {

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = poplar::DebugContext());
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::ComputeSet& cs,
                         const poplar::DebugContext& debugContext = poplar::DebugContext());
// nonLinearityScaling: what the outputs are multiplied by (62000 for
// SOFTMAX_SCALED, else 1).
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float& nonLinearityScaling, poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = poplar::DebugContext());
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float& nonLinearityScaling, poplar::ComputeSet& cs,
                         const poplar::DebugContext& debugContext = poplar::DebugContext());

poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, float& nonLinearityScaling,
                            poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = poplar::DebugContext());

#define TESSERA_POPNN_NONLINEARITY(fn, type)                                                       \
    inline void fn##InPlace(poplar::Graph& graph, poplar::Tensor t,                                \
                            poplar::program::Sequence& prog,                                       \
                            const poplar::DebugContext& debugContext = poplar::DebugContext()) {   \
        nonLinearityInPlace(graph, type, t, prog, debugContext);                                   \
    }                                                                                              \
    inline void fn##InPlace(poplar::Graph& graph, poplar::Tensor t, float& nonLinearityScaling,    \
                            poplar::program::Sequence& prog,                                       \
                            const poplar::DebugContext& debugContext = poplar::DebugContext()) {   \
        nonLinearityInPlace(graph, type, t, nonLinearityScaling, prog, debugContext);              \
    }                                                                                              \
    inline poplar::Tensor fn(poplar::Graph& graph, poplar::Tensor t,                               \
                             poplar::program::Sequence& prog,                                      \
                             const poplar::DebugContext& debugContext = poplar::DebugContext()) {  \
        return nonLinearity(graph, type, t, prog, debugContext);                                   \
    }                                                                                              \
    inline poplar::Tensor fn(poplar::Graph& graph, poplar::Tensor t, float& nonLinearityScaling,   \
                             poplar::program::Sequence& prog,                                      \
                             const poplar::DebugContext& debugContext = poplar::DebugContext()) {  \
        return nonLinearity(graph, type, t, nonLinearityScaling, prog, debugContext);              \
    }

TESSERA_POPNN_NONLINEARITY(sigmoid, NonLinearityType::SIGMOID)
TESSERA_POPNN_NONLINEARITY(relu, NonLinearityType::RELU)
TESSERA_POPNN_NONLINEARITY(tanh, NonLinearityType::TANH)
TESSERA_POPNN_NONLINEARITY(gelu, NonLinearityType::GELU)
TESSERA_POPNN_NONLINEARITY(softmax, NonLinearityType::SOFTMAX)
TESSERA_POPNN_NONLINEARITY(softmaxStable, NonLinearityType::SOFTMAX_STABLE)
TESSERA_POPNN_NONLINEARITY(scaledSoftmaxStable, NonLinearityType::SOFTMAX_SCALED)
#undef TESSERA_POPNN_NONLINEARITY

// The gradient at the non-linearity's input from `act` (its output; its
// input for GELU, GELU_ERF and SWISH) and the gradient at its output.
poplar::Tensor
nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nonLinearityType,
                          poplar::Tensor act, poplar::Tensor outGradient, poplar::ComputeSet& cs,
                          const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor
nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nonLinearityType,
                          poplar::Tensor act, poplar::Tensor outGradient,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popnn

#endif
