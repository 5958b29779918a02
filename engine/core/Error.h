#pragma once
// Engine errors. Every misuse of the API throws one of these with a message
// that names the object involved (tensor, vertex, tile, codelet, field).
#include <stdexcept>
#include <string>

namespace tessera {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A graph fails validation at compile time (unmapped tensor, conflict, ...).
class ValidationError : public Error {
public:
    using Error::Error;
};

// User code the engine runs (a codelet's constructor or compute(), a cycle
// estimator, an edge-size check) threw. The message names the vertex, its
// codelet, tile and, at run time, the program step, then what was thrown.
class CodeletError : public Error {
public:
    using Error::Error;
};

// Tile memory is over capacity and the program was not compiled with
// allowOutOfMemory.
class OutOfMemoryError : public Error {
public:
    using Error::Error;
};

// A program stopped the run on purpose (Abort: AbortOnCondition, ErrorProgram).
class AbortError : public Error {
public:
    using Error::Error;
};

} // namespace tessera
