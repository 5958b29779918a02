// poplin::addCodelets: the matrix codelets are built into Tessera's engine.
#ifndef TESSERA_POPLIN_CODELETS_HPP
#define TESSERA_POPLIN_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace poplin {
void addCodelets(poplar::Graph& graph);
} // namespace poplin

#endif
