// popops::topK (popops/TopK.hpp): the k largest or smallest elements of the
// innermost dimension, with their indices (topKWithPermutation) or another
// tensor permuted alike (topKKeyValue). Equal values keep their index order
// (lower index first), so the result is the same whether or not stableSort
// is asked; SortOrder::NONE gives the natural order (descending for the
// largest, ascending for the smallest).
#ifndef TESSERA_POPOPS_TOPK_HPP
#define TESSERA_POPOPS_TOPK_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/SortOrder.hpp>

#include <iosfwd>
#include <utility>
#include <vector>

namespace popops {

struct TopKParams {
    unsigned k;          // at most the size of the innermost dimension
    bool largest;        // the largest k, else the smallest
    SortOrder sortOrder; // of the k elements returned
    bool stableSort;     // equal values keep their order (always so in Tessera)
    TopKParams(unsigned k, bool largest, SortOrder sortOrder, bool stableSort = false) noexcept;
};

std::ostream& operator<<(std::ostream& os, const TopKParams& p);

// A new tensor laid out for topK: whole innermost rows per tile.
poplar::Tensor createTopKInput(poplar::Graph& graph, const poplar::Type& type,
                               const std::vector<std::size_t>& shape, const TopKParams& params,
                               const poplar::DebugContext& debugContext = {});

poplar::Tensor topK(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& debugContext = {});

// The top k keys and `values` permuted as the keys are.
std::pair<poplar::Tensor, poplar::Tensor>
topKKeyValue(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& keys,
             const poplar::Tensor& values, const TopKParams& params,
             const poplar::DebugContext& debugContext = {});

// The top k values and their UNSIGNED_INT indices in the innermost dimension.
std::pair<poplar::Tensor, poplar::Tensor>
topKWithPermutation(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& debugContext = {});

} // namespace popops

#endif
