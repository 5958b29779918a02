// Sorting along a dimension (popops/Sort.hpp): ascending; sortKeyValue is
// stable for equal keys.
#ifndef TESSERA_POPOPS_SORT_HPP
#define TESSERA_POPOPS_SORT_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

poplar::Tensor sort(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                    poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = poplar::DebugContext());
void sortInPlace(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                 poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = poplar::DebugContext());
// The values reordered as their keys sort.
poplar::Tensor sortKeyValue(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                            unsigned dim, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = poplar::DebugContext());
void sortKeyValueInPlace(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                         unsigned dim, poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
