#pragma once
// What popnn's operations share: names, expression building, reductions and
// element-wise vertices planned over the tiles holding a tensor.
#include "Impl.h"
#include "PoplibsErrors.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Map.h"
#include "engine/ops/MapExpr.h"
#include "engine/ops/Reduction.h"
#include "engine/program/Program.h"

#include <poplar/DebugContext.hpp>
#include <poplar/exceptions.hpp>

#include <string>
#include <vector>

namespace popnn::detail {

using poplar::detail::Access;
using poplar::detail::intoSequence;
using poplar::detail::translatePoplibs;
using Ex = tessera::ops::expr::Expression;
using tessera::ops::expr::BinaryOp;
using tessera::ops::expr::TernaryOp;
using tessera::ops::expr::UnaryOp;

// The debug context's name, else `fallback`.
std::string nameOr(const poplar::DebugContext& dc, const std::string& fallback);

// Throws poputil::poplibs_error (PopLibs' argument error) with `message`.
[[noreturn]] void fail(const std::string& message);

// The PopLibs spelling of an element type ("float", "half", ...).
std::string typeString(tessera::Type t);

// A tensor's first tile (0 when unmapped).
tessera::TileId firstTile(const tessera::Graph& g, const tessera::Tensor& t);

// Reduces `in` over `dims` into a new tensor of `outType`, appended to `seq`.
tessera::Tensor reduce(tessera::Graph& g, tessera::program::Sequence& seq,
                       const tessera::Tensor& in, tessera::Type outType,
                       const std::vector<std::size_t>& dims, tessera::ops::ReduceOp op,
                       const std::string& name);
// The same into `out`, optionally adding to it (update).
void reduceInto(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& in,
                const tessera::Tensor& out, const std::vector<std::size_t>& dims,
                tessera::ops::ReduceOp op, bool update, const std::string& name);

// A [rows, cols] view of `t` (rank >= 1) whose cols are its innermost dimension.
tessera::Tensor asRows(const tessera::Tensor& t);

// popnn's element-wise non-linearity codelets (NonLinearity.cpp).
void addNonLinearityCodelets(tessera::Graph& g);
// popnn's loss codelets (Loss.cpp).
void addLossCodelets(tessera::Graph& g);
// popnn's pooling codelets (Pooling.cpp).
void addPoolingCodelets(tessera::Graph& g);

// An [n] column broadcast along a [n, cols] shape.
tessera::Tensor alongRows(const tessera::Tensor& column, std::size_t cols);

} // namespace popnn::detail
