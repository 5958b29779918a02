// Operation types of popops::map.
#ifndef TESSERA_POPOPS_EXPROP_HPP
#define TESSERA_POPOPS_EXPROP_HPP

namespace popops {
namespace expr {

enum class UnaryOpType {
    ABSOLUTE,
    EXPONENT,
    INVERSE,
    LOGARITHM,
    NEGATE,
    RELU,
    SIGMOID,
    SQRT,
    SQUARE,
    TANH
};

enum class BinaryOpType { ADD, DIVIDE, MAXIMUM, MINIMUM, MULTIPLY, SUBTRACT };

} // namespace expr
} // namespace popops

#endif
