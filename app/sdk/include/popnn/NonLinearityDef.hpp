// popnn::NonLinearityType: the non-linearities of NonLinearity.hpp.
#ifndef TESSERA_POPNN_NONLINEARITYDEF_HPP
#define TESSERA_POPNN_NONLINEARITYDEF_HPP

namespace popnn {

enum class NonLinearityType {
    SIGMOID,
    HARD_SIGMOID, // clamp(0.2 x + 0.5, 0, 1)
    RELU,
    TANH,
    GELU,     // the tanh approximation
    GELU_ERF, // 0.5 x (1 + erf(x / sqrt(2)))
    SWISH,    // x * sigmoid(x)
    SOFTMAX,
    SOFTMAX_STABLE, // subtracts each row's maximum first
    SOFTMAX_SCALED  // stable, and scaled by 62000 (the scaling is returned)
};

} // namespace popnn

#endif
