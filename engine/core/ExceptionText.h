#pragma once
// Describing an exception of any type, for errors that report what user code
// (a codelet, a cycle estimator) threw: call inside a catch (...) block.
#include <string>

namespace tessera {

// The exception being handled, in one line: "std::runtime_error: boom" for a
// std::exception (its type and what()), the message alone for an engine
// Error, "an exception of type 'int'" for anything else.
std::string currentExceptionText();

} // namespace tessera
