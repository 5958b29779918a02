// Reduction operations.
#ifndef TESSERA_POPOPS_OPERATION_HPP
#define TESSERA_POPOPS_OPERATION_HPP

namespace popops {
enum class Operation { ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOG_ADD };
} // namespace popops

#endif
