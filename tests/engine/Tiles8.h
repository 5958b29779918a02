#pragma once
// The layout the runtime suites build on: tiles:8, every float variable in
// blocks of four elements, block t on tile t (indices wrap), inputs 1..7
// repeating, and ramps.
#include "engine/graph/Graph.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::test::tiles8 {

inline constexpr std::size_t kTiles = 8;
inline constexpr std::size_t kBlock = 4; // elements of each variable on each tile

inline TileId tile(std::size_t t) {
    return record::idAt<TileId>(static_cast<std::uint32_t>(t % kTiles));
}

inline Tensor blockOf(const Tensor& v, std::size_t t) {
    t %= kTiles;
    return v.slice(t * kBlock, (t + 1) * kBlock);
}

using Connections = std::vector<std::pair<std::string, Tensor>>;

// One `codelet` vertex on each tile t, connected as fields(t) says.
template <typename Fields>
void onEveryTile(Graph& g, ComputeSet cs, const std::string& codelet, const Fields& fields) {
    for (std::size_t t = 0; t < kTiles; ++t) {
        g.setTileMapping(g.addVertex(cs, codelet, Connections(fields(t))), tile(t));
    }
}

inline Tensor tiled(Graph& g, const std::string& name) {
    Tensor v = g.addVariable(Type::Float, {kTiles * kBlock}, name);
    for (std::size_t t = 0; t < kTiles; ++t) {
        g.setTileMapping(blockOf(v, t), tile(t));
    }
    return v;
}

inline std::vector<float> inputs() {
    std::vector<float> x(kTiles * kBlock);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = float(i % 7) + 1.0f;
    }
    return x;
}

// scale · i for every element i of a variable.
inline std::vector<float> ramp(float scale) {
    std::vector<float> x(kTiles * kBlock);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = scale * float(i);
    }
    return x;
}

} // namespace tessera::test::tiles8
