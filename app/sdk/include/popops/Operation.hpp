// Reduction operations (popops/Operation.hpp).
#ifndef TESSERA_POPOPS_OPERATION_HPP
#define TESSERA_POPOPS_OPERATION_HPP

#include <ostream>
#include <string>

namespace popops {

enum class Operation { ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOG_ADD };

inline std::string asString(const Operation& op) {
    switch (op) {
    case Operation::ADD:
        return "ADD";
    case Operation::MUL:
        return "MUL";
    case Operation::MIN:
        return "MIN";
    case Operation::MAX:
        return "MAX";
    case Operation::LOGICAL_AND:
        return "LOGICAL_AND";
    case Operation::LOGICAL_OR:
        return "LOGICAL_OR";
    case Operation::SQUARE_ADD:
        return "SQUARE_ADD";
    case Operation::LOG_ADD:
        return "LOG_ADD";
    }
    return "?";
}

inline std::ostream& operator<<(std::ostream& os, const Operation& op) {
    return os << asString(op);
}

} // namespace popops

#endif
