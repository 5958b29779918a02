#pragma once
// Row-wise softmax: exp(x - max) / sum, each stage a named operation.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <string>

namespace tessera::ops {

Tensor softmaxRows(Graph& graph, program::Sequence& seq, const Tensor& in, const std::string& name);

} // namespace tessera::ops
