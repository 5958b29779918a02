#pragma once
// Formats tensor values the way PrintTensor shows them: floats with 7
// decimals, integers plain, one innermost row a line for rank 2 and up.
#include "engine/core/Type.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace tessera {

void printTensorValues(std::ostream& os, const std::string& title, Type type,
                       const std::vector<std::size_t>& shape, const std::vector<double>& values);

} // namespace tessera
