// popops::addCodelets: Tessera's PopLibs codelets are built into the engine,
// so this only records that the program asked for them.
#ifndef TESSERA_POPOPS_CODELETS_HPP
#define TESSERA_POPOPS_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popops {
void addCodelets(poplar::Graph& graph);
} // namespace popops

#endif
