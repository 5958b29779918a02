#include "engine/ops/Softmax.h"

#include "engine/ops/Elementwise.h"
#include "engine/ops/Reduce.h"

namespace tessera::ops {

Tensor softmaxRows(Graph& graph, program::Sequence& seq, const Tensor& in,
                   const std::string& name) {
    program::Sequence body;
    const Tensor max = reduceRows(graph, body, in, "Max", name + "/max");
    const Tensor shifted = binaryRowScalar(graph, body, "Sub", in, max, name + "/shift");
    const Tensor e = unary(graph, body, "Exp", shifted, name + "/exp");
    const Tensor sum = reduceRows(graph, body, e, "Add", name + "/sum");
    const Tensor out = binaryRowScalar(graph, body, "Div", e, sum, name + "/normalise");
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
    return out;
}

} // namespace tessera::ops
