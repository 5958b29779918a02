// popfloat::experimental::addCodelets: adds the gfloat cast codelets (the
// cast functions also add them when they are missing).
#ifndef TESSERA_POPFLOAT_CODELETS_HPP
#define TESSERA_POPFLOAT_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popfloat {
namespace experimental {
void addCodelets(poplar::Graph& graph);
} // namespace experimental
} // namespace popfloat

#endif
