#pragma once
#include <cstdint>
#include <limits>

namespace tessera {

using VariableId = std::uint32_t;
using ComputeSetId = std::uint32_t;
using VertexId = std::uint32_t;
using CodeletId = std::uint32_t;
using TileId = std::uint32_t;

inline constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

} // namespace tessera
