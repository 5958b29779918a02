// popops::allTrue: the logical AND of every element of a BOOL tensor.
#ifndef TESSERA_POPOPS_ALLTRUE_HPP
#define TESSERA_POPOPS_ALLTRUE_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

// A new scalar BOOL tensor; throws poputil::poplibs_error unless A is BOOL.
poplar::Tensor allTrue(poplar::Graph& graph, poplar::Tensor A, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
