// popops::gather (popops/Gather.hpp): slices of depth 1 at run-time offsets
// along one axis, as the engine's multiSlice does them (an out-of-range index
// gives zeros). The XLA-style form is supported when it is that gather (one
// start index, that dimension collapsed, whole slices of the others, the
// batch dimensions first); any other form throws poplar_error "not supported
// by Tessera".
#ifndef TESSERA_POPOPS_GATHER_HPP
#define TESSERA_POPOPS_GATHER_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace popops {

struct GatherParams {
    std::size_t maxElementsPerTile;
    GatherParams()
        : maxElementsPerTile(65535) {}
    GatherParams(std::size_t maxElementsPerTile_)
        : maxElementsPerTile(maxElementsPerTile_) {}
};

// An input laid out for gathering along `axis`.
poplar::Tensor createGatherInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& operandShape, unsigned axis,
                                 GatherParams params = GatherParams(),
                                 const poplar::DebugContext& debugContext = poplar::DebugContext());
// input of rank x, indices (UNSIGNED_INT or INT) of rank y: the result has
// input's shape with `axis` replaced by indices' shape (rank y + x - 1).
poplar::Tensor gather(poplar::Graph& graph, const poplar::Tensor& input,
                      const poplar::Tensor& indices, unsigned axis, poplar::program::Sequence& prog,
                      GatherParams params,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());

poplar::Tensor createGatherInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& inputShape,
                                 const std::vector<std::size_t>& sliceSizes,
                                 std::vector<unsigned> startIndexMap,
                                 const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor gather(poplar::Graph& graph, const poplar::Tensor& input,
                      const poplar::Tensor& indices, std::size_t indexVectorDim,
                      const std::vector<std::size_t>& offsetDims,
                      const std::vector<std::size_t>& sliceSizes,
                      const std::vector<std::size_t>& collapsedSliceDims,
                      const std::vector<unsigned>& startIndexMap, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
