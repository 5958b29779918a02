#pragma once
// popops::reduce in the engine: any operation of PopLibs (ADD, SQUARE_ADD,
// MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR) over any set of dimensions, with
// PopLibs' type rules, scale and update, planned as PopLibs plans it: each
// tile reduces what it holds into partials (in float for half sums), then
// the partials of each output are exchanged to the output's tile and reduced
// there, scaled, converted and written (or added, for an update). When every
// output's inputs sit on one tile the first stage writes the outputs itself.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::ops {

enum class ReduceOp : std::uint8_t { Add, SquareAdd, Mul, Min, Max, LogicalAnd, LogicalOr };
constexpr std::size_t kReduceOpCount = static_cast<std::size_t>(ReduceOp::LogicalOr) + 1;
const char* name(ReduceOp op); // PopLibs' spelling: "ADD", "SQUARE_ADD", ...

struct ReduceSpec {
    ReduceSpec(ReduceOp op_ = ReduceOp::Add, bool update_ = false, double scale_ = 1.0,
               std::optional<Tensor> scaleTensor_ = std::nullopt)
        : op(op_)
        , update(update_)
        , scale(scale_)
        , scaleTensor(std::move(scaleTensor_)) {}
    ReduceOp op;
    bool update;                       // out += reduce(in) (ADD, SQUARE_ADD only)
    double scale;                      // a constant scale (ADD, SQUARE_ADD only)
    std::optional<Tensor> scaleTensor; // or a one-element float tensor
};

// The shape `in` has once `dims` are reduced (throws Error for a bad dim).
std::vector<std::size_t> reducedShape(const std::vector<std::size_t>& shape,
                                      const std::vector<std::size_t>& dims,
                                      const std::string& what);

// Adds the vertices reducing `in` over `dims` into `out` to compute sets
// appended to `css` (one per stage, in order). `out` must have the reduced
// shape; if it is not fully mapped, it is mapped here (each element on the
// tile holding most of its inputs). Throws Error naming `name` for a type
// combination PopLibs does not support, a bad dimension or shape.
void reduceWithOutput(Graph& graph, const Tensor& in, const Tensor& out,
                      const std::vector<std::size_t>& dims, const ReduceSpec& spec,
                      std::vector<ComputeSet>& css, const std::string& name);

// The same with a new output of `outType`.
Tensor reduce(Graph& graph, const Tensor& in, Type outType, const std::vector<std::size_t>& dims,
              const ReduceSpec& spec, std::vector<ComputeSet>& css, const std::string& name);

// The compute sets as a named Block of Executes, as one operation in the profile.
// `function`: the library function the profile names (see program::LibraryCall).
void addStages(program::Sequence& seq, const std::vector<ComputeSet>& css, const std::string& name,
               const char* function = "reduce");

} // namespace tessera::ops
