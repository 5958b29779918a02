#pragma once
// Recipes of generated codelets: a map expression's codelet and a reduction
// stage's codelet are made at graph-building time from a few values (the
// expression and its input types; the operation, types and stage). Those
// values, as text, travel with a saved executable so that another process can
// make the same codelet again (Executable::deserialize).
#include "engine/graph/Graph.h"
#include "engine/ops/MapExpr.h"
#include "engine/ops/ReduceCodelets.h"

#include <string>
#include <vector>

namespace tessera::ops {

std::string mapRecipe(const expr::Expression& e, const std::vector<Type>& inputTypes, bool inPlace);
std::string reduceRecipe(const detail::ReduceCodelet& c, bool partials);

// Adds the codelet a recipe describes to `graph`; returns its name. Throws
// Error saying what is wrong with a damaged or unknown recipe.
std::string regenerateCodelet(Graph& graph, const std::string& recipe);

} // namespace tessera::ops
