// Reductions over any set of dimensions, in two stages across tiles.
#ifndef TESSERA_POPOPS_REDUCE_HPP
#define TESSERA_POPOPS_REDUCE_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/Operation.hpp>

#include <vector>

namespace popops {

struct ReduceParams {
    ReduceParams()
        : op(Operation::ADD)
        , update(false)
        , useScale(false)
        , scale(1.0f) {}
    ReduceParams(Operation o, bool u = false)
        : op(o)
        , update(u)
        , useScale(false)
        , scale(1.0f) {}
    ReduceParams(Operation o, bool u, float s)
        : op(o)
        , update(u)
        , useScale(true)
        , scale(s) {}
    Operation op;
    bool update; // out += reduction, instead of out = reduction
    bool useScale;
    float scale;
};

// A new tensor: `in` reduced over `dims` (the remaining dimensions, in order).
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace popops

#endif
