#pragma once
// popops' cast codelets for casts added to a caller's compute set
// ("popops::Cast<float,int>"): they evaluate the engine's Cast expression, so
// they convert exactly as popops::map's Cast does.
#include "engine/graph/Graph.h"

#include <string>

namespace popops::detail {

// Adds the codelet casting `from` to `to` (once) and returns its name.
std::string castCodelet(tessera::Graph& graph, tessera::Type from, tessera::Type to);

} // namespace popops::detail
