#pragma once
// What poplin's sources share: operation names, option checks, a linear
// mapping for new operands.
#include "Impl.h"
#include "PoplibsErrors.h"
#include "engine/program/SourceLocation.h"

#include <poplar/OptionFlags.hpp>

#include <string>
#include <vector>

namespace poplin::detail {

// The debug context's path, or `fallback` when it is empty.
std::string opName(const poplar::DebugContext& dc, const std::string& fallback);

// Throws poplar::invalid_option for an option PopLibs' `what` does not have
// or a partialsType that is neither "float" nor "half".
void checkOptions(const poplar::OptionFlags& options, const std::string& what);

// A new variable of `shape`, spread over the tiles in whole rows of its last
// dimension.
poplar::Tensor newOperand(poplar::Graph& graph, const poplar::Type& type,
                          const std::vector<std::size_t>& shape, const poplar::DebugContext& dc);

// Runs `f` on a fresh engine sequence and appends it to `seq` as one Block
// named `name`, so a PopLibs call made of several engine operations shows as
// one operation in the profile, of the PopLibs layer (the caller's function).
template <typename F>
auto asOperation(tessera::program::Sequence& seq, const std::string& name, F&& f,
                 const tessera::SourceLocation& where = tessera::SourceLocation::current())
    -> decltype(f(seq)) {
    tessera::program::Sequence body;
    if constexpr (std::is_void_v<decltype(f(body))>) {
        f(body);
        seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at(where)));
    } else {
        auto result = f(body);
        seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at(where)));
        return result;
    }
}

} // namespace poplin::detail
