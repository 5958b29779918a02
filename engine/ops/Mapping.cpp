#include "engine/ops/Mapping.h"

#include "engine/core/Error.h"

#include <algorithm>

namespace tessera::ops {

void mapLinearly(Graph& graph, const Tensor& t, std::size_t grain, TileId firstTile,
                 std::size_t tiles) {
    const std::size_t total = graph.getTarget().numTiles();
    const std::size_t first = firstTile.value();
    if (tiles == 0) {
        tiles = total - first;
    }
    if (first + tiles > total || grain == 0) {
        throw Error("mapLinearly: tiles [" + std::to_string(first) + ", " +
                    std::to_string(first + tiles) + ") or grain " + std::to_string(grain) +
                    " invalid for tensor " + t.describe());
    }
    const Tensor flat = t.flatten();
    const std::size_t n = flat.numElements();
    const std::size_t grains = (n + grain - 1) / grain;
    const std::size_t used = std::min(tiles, std::max<std::size_t>(grains, 1));
    for (std::size_t i = 0; i < used; ++i) {
        const std::size_t b = std::min(n, grains * i / used * grain);
        const std::size_t e = std::min(n, grains * (i + 1) / used * grain);
        if (b < e) {
            graph.setTileMapping(flat.slice(b, e), record::idAt<TileId>(first + i));
        }
    }
}

void mapRows(Graph& graph, const Tensor& t) {
    if (t.rank() != 2) {
        throw Error("mapRows: tensor " + t.describe() + " is not rank 2");
    }
    mapLinearly(graph, t, t.dim(1));
}

std::vector<TileRange> tileRanges(const Graph& graph, const Tensor& t) {
    std::vector<TileRange> out;
    const auto mapping = graph.getTileMapping(t);
    for (const TileId tile : record::idRange<TileId>(mapping.size())) {
        for (const auto& [b, e] : mapping[tile.value()]) {
            out.push_back({tile, b, e});
        }
    }
    return out;
}

std::vector<std::pair<std::size_t, std::size_t>> splitRange(std::size_t begin, std::size_t end,
                                                            std::size_t pieces, std::size_t grain) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    const std::size_t n = end - begin;
    if (n == 0) {
        return out;
    }
    pieces = std::max<std::size_t>(
        1, std::min(pieces, (n + grain - 1) / std::max<std::size_t>(grain, 1)));
    for (std::size_t i = 0; i < pieces; ++i) {
        const std::size_t b = begin + n * i / pieces;
        const std::size_t e = begin + n * (i + 1) / pieces;
        if (b < e) {
            out.emplace_back(b, e);
        }
    }
    return out;
}

bool fullyMapped(const Graph& graph, const Tensor& t) {
    std::size_t held = 0;
    for (const TileRange& r : tileRanges(graph, t)) {
        held += r.end - r.begin;
    }
    return held == t.numElements();
}

} // namespace tessera::ops
