// popops::gather on popops::multiSlice: the axis moved to the front, one
// slice per index, the index dimensions put where the axis was.
#include "Common.h"

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Gather.hpp>

namespace popops {

using detail::nameOf;

poplar::Tensor createGatherInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& operandShape, unsigned axis,
                                 GatherParams, const poplar::DebugContext& dc) {
    if (axis >= operandShape.size()) {
        throw poputil::poplibs_error("createGatherInput: axis " + std::to_string(axis) +
                                     " is out of range");
    }
    return createSliceableTensor(graph, type, operandShape, {axis}, {1}, 0,
                                 nameOf(dc, "gatherInput"));
}

poplar::Tensor gather(poplar::Graph& graph, const poplar::Tensor& input,
                      const poplar::Tensor& indices, unsigned axis, poplar::program::Sequence& prog,
                      GatherParams, const poplar::DebugContext& dc) {
    if (axis >= input.rank()) {
        throw poputil::poplibs_error("gather: axis " + std::to_string(axis) +
                                     " is out of range for " + input.shapeToString());
    }
    const std::string name = nameOf(dc, "gather");
    poplar::Tensor offsets = indices.flatten();
    if (offsets.elementType() == poplar::INT) {
        offsets = cast(graph, offsets, poplar::UNSIGNED_INT, prog, name + "/indices");
    }
    const std::size_t n = offsets.numElements();
    const poplar::Tensor front = input.dimRoll(axis, 0);
    const poplar::Tensor slices = multiSlice(graph, front, offsets.reshape({n, 1}), {0}, {1}, prog,
                                             SlicePlan(), poplar::OptionFlags(), name);
    // [n, 1, rest...] -> [indices..., rest...] -> the index dims where the axis was.
    std::vector<std::size_t> shape = indices.shape();
    const std::vector<std::size_t> frontShape = front.shape();
    const std::vector<std::size_t> rest(frontShape.begin() + 1, frontShape.end());
    shape.insert(shape.end(), rest.begin(), rest.end());
    const poplar::Tensor gathered = slices.reshape(shape);
    const unsigned y = indices.rank();
    std::vector<unsigned> order;
    for (unsigned d = 0; d < axis; ++d) {
        order.push_back(y + d);
    }
    for (unsigned d = 0; d < y; ++d) {
        order.push_back(d);
    }
    for (unsigned d = y + axis; d < gathered.rank(); ++d) {
        order.push_back(d);
    }
    return gathered.dimShuffle(order);
}

poplar::Tensor createGatherInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& inputShape,
                                 const std::vector<std::size_t>& sliceSizes,
                                 std::vector<unsigned> startIndexMap,
                                 const poplar::DebugContext& dc) {
    std::vector<std::size_t> dims, sizes;
    for (const unsigned d : startIndexMap) {
        if (d >= inputShape.size() || d >= sliceSizes.size()) {
            throw poputil::poplibs_error("createGatherInput: start index dimension " +
                                         std::to_string(d) + " is out of range");
        }
        dims.push_back(d);
        sizes.push_back(sliceSizes[d]);
    }
    return createSliceableTensor(graph, type, inputShape, dims, sizes, 0,
                                 nameOf(dc, "gatherInput"));
}

poplar::Tensor gather(poplar::Graph& graph, const poplar::Tensor& input,
                      const poplar::Tensor& indices, std::size_t indexVectorDim,
                      const std::vector<std::size_t>& offsetDims,
                      const std::vector<std::size_t>& sliceSizes,
                      const std::vector<std::size_t>& collapsedSliceDims,
                      const std::vector<unsigned>& startIndexMap, poplar::program::Sequence& prog,
                      const poplar::DebugContext& dc) {
    // The supported form: one start index selecting along one axis, that
    // axis collapsed, whole slices of every other dimension, batch first.
    bool simple = startIndexMap.size() == 1 && collapsedSliceDims.size() == 1 &&
                  collapsedSliceDims[0] == startIndexMap[0] && sliceSizes.size() == input.rank() &&
                  startIndexMap[0] < input.rank() &&
                  (indexVectorDim == indices.rank() ||
                   (indexVectorDim < indices.rank() && indices.dim(unsigned(indexVectorDim)) == 1));
    const unsigned axis = simple ? startIndexMap[0] : 0;
    const std::size_t batchRank =
        indexVectorDim == indices.rank() ? indices.rank() : indices.rank() - 1;
    for (std::size_t d = 0; simple && d < input.rank(); ++d) {
        simple = sliceSizes[d] == (d == axis ? 1 : input.dim(unsigned(d)));
    }
    simple = simple && offsetDims.size() + 1 == input.rank();
    for (std::size_t i = 0; simple && i < offsetDims.size(); ++i) {
        simple = offsetDims[i] == batchRank + i;
    }
    if (!simple) {
        detail::unsupported("popops::gather in this XLA form (supported: one start index, its "
                            "dimension collapsed, whole slices of the others, batch dimensions "
                            "first)");
    }
    std::vector<std::size_t> batchShape = indices.shape();
    if (indexVectorDim < indices.rank()) {
        batchShape.erase(batchShape.begin() + std::ptrdiff_t(indexVectorDim));
    }
    const poplar::Tensor idx = indices.reshape(batchShape);
    // gather() puts the index dims where the axis was; here they come first.
    const poplar::Tensor g = gather(graph, input, idx, axis, prog, GatherParams(), dc);
    std::vector<unsigned> order;
    for (unsigned d = 0; d < batchRank; ++d) {
        order.push_back(axis + d);
    }
    for (unsigned d = 0; d < g.rank(); ++d) {
        if (d < axis || d >= axis + batchRank) {
            order.push_back(d);
        }
    }
    return g.dimShuffle(order);
}

} // namespace popops
