#include "engine/runtime/TensorPrinter.h"

#include <iomanip>
#include <ostream>

namespace tessera {

namespace {

void printValue(std::ostream& os, Type type, double v) {
    if (type == Type::Float || type == Type::Half) {
        os << std::fixed << std::setprecision(7) << v;
    } else if (type == Type::Bool) {
        os << (v != 0 ? 1 : 0);
    } else {
        os << static_cast<long long>(v);
    }
}

void printRow(std::ostream& os, Type type, const std::vector<double>& values, std::size_t begin,
              std::size_t count) {
    os << '[';
    for (std::size_t i = 0; i < count; ++i) {
        if (i) {
            os << ' ';
        }
        printValue(os, type, values[begin + i]);
    }
    os << ']';
}

// Nested blocks for rank >= 2: each level opens "[", rows one per line.
void printBlock(std::ostream& os, Type type, const std::vector<std::size_t>& shape, std::size_t dim,
                const std::vector<double>& values, std::size_t begin, int indent) {
    std::size_t inner = 1;
    for (std::size_t d = dim + 1; d < shape.size(); ++d) {
        inner *= shape[d];
    }
    if (dim + 1 == shape.size()) {
        os << std::string(static_cast<std::size_t>(indent), ' ');
        printRow(os, type, values, begin, shape[dim]);
        os << '\n';
        return;
    }
    if (dim > 0) {
        os << std::string(static_cast<std::size_t>(indent), ' ') << "[\n";
    }
    for (std::size_t i = 0; i < shape[dim]; ++i) {
        printBlock(os, type, shape, dim + 1, values, begin + i * inner, indent + 1);
    }
    if (dim > 0) {
        os << std::string(static_cast<std::size_t>(indent), ' ') << "]\n";
    }
}

} // namespace

void printTensorValues(std::ostream& os, const std::string& title, Type type,
                       const std::vector<std::size_t>& shape, const std::vector<double>& values) {
    const auto flags = os.flags();
    const auto precision = os.precision();
    os << title << ": ";
    if (shape.size() <= 1) {
        printRow(os, type, values, 0, values.size());
        os << '\n';
    } else {
        os << "[\n";
        printBlock(os, type, shape, 0, values, 0, 0);
        os << "]\n";
    }
    os.flags(flags);
    os.precision(precision);
}

} // namespace tessera
