#pragma once
// Evaluates a typed map expression over arrays of elements, as the vertex of
// a map does on its tile. Each operator rounds its result to its type (float,
// half) or wraps it (int, unsigned: two's complement), so a chain of
// operations gives what the device gives, not what one double computation
// would. Division or remainder of integers by zero gives 0; shift amounts are
// taken modulo 32; casts of floating values to integers truncate and saturate
// (NaN gives 0). docs/poplar-compat.md lists these choices.
#include "engine/ops/MapExpr.h"

#include <cstddef>
#include <span>

namespace tessera::ops::expr {

// inputs[k] points at `count` elements of placeholder k's type (it may be the
// same memory as `out`, for a map in place); `out` receives `count` elements of
// the expression's type.
void evaluate(const TypedExpression& e, std::span<const std::byte* const> inputs, std::byte* out,
              std::size_t count);

// Thread cycles of one vertex evaluating `e` over `count` elements, and its
// floating-point operations; docs/engine.md gives the formula.
std::uint64_t mapCycles(const TypedExpression& e, std::size_t count);
std::uint64_t mapFlops(const TypedExpression& e, std::size_t count);

} // namespace tessera::ops::expr
