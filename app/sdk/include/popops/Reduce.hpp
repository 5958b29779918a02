// Reductions over any set of dimensions (popops/Reduce.hpp): ADD,
// SQUARE_ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR with PopLibs' type
// pairs, a constant or tensor scale and update (ADD and SQUARE_ADD only),
// appended to a Sequence or as compute sets to a std::vector<ComputeSet>.
#ifndef TESSERA_POPOPS_REDUCE_HPP
#define TESSERA_POPOPS_REDUCE_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/Operation.hpp>

#include <string>
#include <vector>

namespace popops {

struct ReduceParams {
    ReduceParams()
        : op(Operation::ADD)
        , update(false)
        , useScale(false)
        , constantScale(1.0f) {}
    ReduceParams(Operation o, bool u = false)
        : op(o)
        , update(u)
        , useScale(false)
        , constantScale(1.0f) {}
    // A one-element FLOAT tensor scales the result.
    ReduceParams(Operation o, bool u, poplar::Tensor s)
        : op(o)
        , update(u)
        , useScale(true)
        , scale(s)
        , constantScale(1.0f) {}
    // The older form: a constant scale.
    ReduceParams(Operation o, bool u, float s)
        : op(o)
        , update(u)
        , useScale(true)
        , constantScale(s) {}
    Operation op;
    bool update; // out += reduction, instead of out = reduction
    bool useScale;
    poplar::Tensor scale; // when valid, the scale; else constantScale
    float constantScale;
};

// One reduction of reduceMany.
struct SingleReduceOp {
    poplar::Tensor in;
    std::vector<std::size_t> dims;
    ReduceParams params;
    bool useOutType;
    poplar::Type outType;
    std::string debugName;
    SingleReduceOp(poplar::Tensor in_, std::vector<std::size_t> dims_, ReduceParams params_,
                   poplar::Type outType_, std::string debugName_ = "")
        : in(in_)
        , dims(dims_)
        , params(params_)
        , useOutType(true)
        , outType(outType_)
        , debugName(debugName_) {}
    SingleReduceOp(poplar::Tensor in_, std::vector<std::size_t> dims_, ReduceParams params_,
                   std::string debugName_ = "")
        : in(in_)
        , dims(dims_)
        , params(params_)
        , useOutType(false)
        , outType(poplar::FLOAT)
        , debugName(debugName_) {}
};

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
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = poplar::DebugContext(),
                      const poplar::OptionFlags& options = poplar::OptionFlags());
// Several reductions; `outputs` empty: new tensors are appended; else one
// per reduction, written (or updated).
void reduceMany(poplar::Graph& graph, const std::vector<SingleReduceOp>& reductions,
                std::vector<poplar::Tensor>& outputs, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = poplar::DebugContext(),
                const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace popops

#endif
