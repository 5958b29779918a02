#pragma once
// popops' integer element-wise codelets, added to a graph on demand.
#include "engine/graph/Graph.h"

namespace popops::detail {
void addIntegerCodelets(tessera::Graph& graph);
}
