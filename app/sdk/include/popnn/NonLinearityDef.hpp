// Non-linearity types.
#ifndef TESSERA_POPNN_NONLINEARITYDEF_HPP
#define TESSERA_POPNN_NONLINEARITYDEF_HPP

namespace popnn {
enum class NonLinearityType {
    SIGMOID,
    HARD_SIGMOID,
    RELU,
    TANH,
    GELU,
    SWISH,
    SOFTMAX,
    SOFTMAX_STABLE,
    SOFTMAX_SCALED
};
} // namespace popnn

#endif
