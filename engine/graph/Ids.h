#pragma once
// The engine's ids are the records' strong ids (engine/record/Ids.h): one
// type per kind of id from graph to report. "No such id" is X::none().
#include "engine/record/Ids.h"

#include <cstdint>
#include <limits>

namespace tessera {

using VariableId = record::VariableId;
using ComputeSetId = record::ComputeSetId;
using VertexId = record::VertexId;
using CodeletId = record::CodeletId;
using TileId = record::TileId;

// "None" for the plain indices that are not ids (an operation's program
// node index, an IPU number).
inline constexpr std::uint32_t kNoIndex = std::numeric_limits<std::uint32_t>::max();

} // namespace tessera
