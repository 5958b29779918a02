// Slicing at offsets known only at run time (popops/DynamicSlice.hpp).
// Offsets: dynamicSlice / dynamicUpdate start at the offset (0 when it is
// out of range) and wrap; multiSlice writes zeros for an out-of-range
// offset; the multiUpdate family ignores out-of-range offsets. multiSlice
// and multiUpdate over several dimensions (offsets [n, dims.size()]) do one
// dynamic slice / update per row of offsets, as PopLibs does; multiUpdateAdd
// and multiUpdateMax take one dimension (more throws poplibs_error, as in
// PopLibs). A SlicePlan is accepted and carries no plan:
// Tessera lays sliceable tensors out for slicing without one.
#ifndef TESSERA_POPOPS_DYNAMICSLICE_HPP
#define TESSERA_POPOPS_DYNAMICSLICE_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <ostream>
#include <vector>

namespace popops {

class SlicePlan {
public:
    SlicePlan() {}
    bool operator==(const SlicePlan&) const { return true; }
    bool operator!=(const SlicePlan&) const { return false; }
    bool operator<(const SlicePlan&) const { return false; }
};

inline std::ostream& operator<<(std::ostream& os, const SlicePlan&) {
    return os << "SlicePlan(Tessera: no plan)";
}

namespace embedding {
SlicePlan plan(const poplar::Graph& graph, const poplar::Type& dataType, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t>& numLookups,
               const poplar::OptionFlags& options);
} // namespace embedding

poplar::Tensor
createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                      const std::vector<std::size_t>& shape, const std::vector<std::size_t>& dims,
                      const std::vector<std::size_t>& sizes, std::size_t minGrainSize = 0,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor
createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                      const std::vector<std::size_t>& shape, const std::vector<std::size_t>& dims,
                      const std::vector<std::size_t>& sizes, const SlicePlan& plan,
                      const poplar::OptionFlags& options,
                      const poplar::DebugContext& debugContext = poplar::DebugContext());
// A tensor for numIndices slices of t: [numIndices, t's shape with dims of sizes].
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Tensor& t,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& shape,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const SlicePlan& plan, const poplar::OptionFlags& options,
                                 const poplar::DebugContext& debugContext = poplar::DebugContext());
// An UNSIGNED_INT tensor [numIndices, dims.size()].
poplar::Tensor
createIndicesTensor(poplar::Graph& graph, const std::vector<std::size_t>& dims,
                    std::size_t numIndices, const SlicePlan& plan,
                    const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());
// A tensor numSlices[i] times s's size along each of dims.
poplar::Tensor
createSliceableTensorFromSlice(poplar::Graph& graph, const poplar::Tensor& s,
                               const std::vector<std::size_t>& dims,
                               const std::vector<std::size_t>& numSlices,
                               const poplar::DebugContext& debugContext = poplar::DebugContext());

poplar::Tensor dynamicSlice(poplar::Graph& graph, const poplar::Tensor& t,
                            const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = poplar::DebugContext(),
                            const poplar::OptionFlags& options = poplar::OptionFlags());
void dynamicSliceWithOutput(poplar::Graph& graph, const poplar::Tensor& output,
                            const poplar::Tensor& t, const poplar::Tensor& offset,
                            const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = poplar::DebugContext(),
                            const poplar::OptionFlags& options = poplar::OptionFlags());
void dynamicUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                   const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = poplar::DebugContext(),
                   const poplar::OptionFlags& options = poplar::OptionFlags());

// offsets: UNSIGNED_INT (or INT) [n, 1] or [n]; the result [n, t's shape with dims of sizes].
poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                          const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                          const SlicePlan& plan, const poplar::OptionFlags& options,
                          const poplar::DebugContext& debugContext = poplar::DebugContext());
// Offsets known when the graph is built: slices of size 1 along dim.
poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags& options = poplar::OptionFlags());
void multiUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                 const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                 const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                 const SlicePlan& plan, const poplar::OptionFlags& options,
                 const poplar::DebugContext& debugContext = poplar::DebugContext());
// t[offsets[i]] += scale * s[i] (scale: a one-element tensor).
void multiUpdateAdd(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const poplar::Tensor& scale,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    poplar::program::Sequence& prog, const SlicePlan& plan,
                    const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());
void multiUpdateMax(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                    const SlicePlan& plan, const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
