// popops::createOutputForElementWiseOp: an output laid out like the inputs.
#ifndef TESSERA_POPOPS_ELEMENTWISEUTIL_HPP
#define TESSERA_POPOPS_ELEMENTWISEUTIL_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

// A tensor of the inputs' (equal) shape and outputType, mapped like the
// first fully mapped input, else spread linearly over the tiles. Throws
// poputil::poplibs_error when the shapes differ.
poplar::Tensor
createOutputForElementWiseOp(poplar::Graph& graph, const std::vector<poplar::Tensor>& inputs,
                             const poplar::Type& outputType,
                             const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
