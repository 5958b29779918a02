#pragma once
// popops::map in the engine: an element-wise expression (MapExpr.h) over
// tensors broadcast to one shape (numpy's rules, as PopLibs broadcasts), run
// as one compute set whose vertices each evaluate the whole expression for a
// chunk of the output on the tile holding it (PopLibs fuses an expression
// into one generated codelet the same way). Each call is a named Block, so it
// shows as one operation in the profile.
#include "engine/graph/Graph.h"
#include "engine/ops/MapExpr.h"
#include "engine/program/Program.h"

#include <string>
#include <vector>

namespace tessera::ops {

// The shape all `shapes` broadcast to; throws Error naming `what`.
std::vector<std::size_t> broadcastShape(const std::vector<std::vector<std::size_t>>& shapes,
                                        const std::string& what);
// A view of `t` broadcast to `shape` (no data copied); throws Error naming `what`.
Tensor broadcastTo(Tensor t, const std::vector<std::size_t>& shape, const std::string& what);

// A new tensor: the expression over `inputs` (placeholder _k is inputs[k-1]),
// of the broadcast shape, mapped like the first input of that shape (else
// linearly over the tiles).
Tensor map(Graph& graph, program::Sequence& seq, const expr::Expression& e,
           const std::vector<Tensor>& inputs, const std::string& name);
// The result written into inputs[0], which the others broadcast to.
void mapInPlace(Graph& graph, program::Sequence& seq, const expr::Expression& e,
                const std::vector<Tensor>& inputs, const std::string& name);
// The result written into `out`, whose shape and type must be the result's.
void mapWithOutput(Graph& graph, program::Sequence& seq, const expr::Expression& e,
                   const std::vector<Tensor>& inputs, const Tensor& out, const std::string& name);

// Adds (once) the generated codelet evaluating `e` over inputs of `inputTypes`
// (into the first input when in place) and returns its name.
std::string addMapCodelet(Graph& graph, const expr::Expression& e,
                          const std::vector<Type>& inputTypes, bool inPlace);

} // namespace tessera::ops
