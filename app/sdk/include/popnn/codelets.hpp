// popnn::addCodelets: adds popnn's own codelets (non-linearities, top-k); the
// others popnn uses are the engine's built-ins.
#ifndef TESSERA_POPNN_CODELETS_HPP
#define TESSERA_POPNN_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popnn {
void addCodelets(poplar::Graph& graph);
} // namespace popnn

#endif
