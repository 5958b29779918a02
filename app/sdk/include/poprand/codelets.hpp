// poprand::addCodelets: the random-number codelets are built into Tessera's
// engine, so this adds nothing.
#ifndef TESSERA_POPRAND_CODELETS_HPP
#define TESSERA_POPRAND_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace poprand {
void addCodelets(poplar::Graph& graph);
} // namespace poprand

#endif
