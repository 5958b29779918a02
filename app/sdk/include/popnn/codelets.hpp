// popnn::addCodelets: adds the loss codelets (the others are the engine's).
#ifndef TESSERA_POPNN_CODELETS_HPP
#define TESSERA_POPNN_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popnn {
void addCodelets(poplar::Graph& graph);
} // namespace popnn

#endif
