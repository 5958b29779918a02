// One data block per variable per tile that holds part of it; the variable's
// elements on a tile are stored in element order, one after another.
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"

#include <algorithm>
#include <map>

namespace tessera::compiler {

void placeVariables(CompiledGraph& out) {
    const auto& vars = out.graph->variables();
    out.placements.resize(vars.size());
    for (const VariableId id : record::idRange<VariableId>(vars.size())) {
        const VariableData& v = vars[id.value()];
        std::map<TileId, BlockId> blockOfTile;
        std::map<TileId, std::size_t> countOnTile;
        for (const TileInterval& iv : v.mapping.intervals()) {
            auto [it, added] =
                blockOfTile.try_emplace(iv.tile, static_cast<BlockId>(out.blocks.size()));
            if (added) {
                DataBlock b;
                b.tile = iv.tile;
                b.var = id;
                b.constant = v.isConstant;
                out.blocks.push_back(b);
            }
            std::size_t& local = countOnTile[iv.tile];
            out.placements[id.value()].push_back({iv.begin, iv.end, iv.tile, it->second, local});
            local += iv.end - iv.begin;
        }
        for (const auto& [tile, block] : blockOfTile) {
            out.blocks[block].bytes = countOnTile[tile] * sizeOf(v.type);
        }
    }
}

Location CompiledGraph::locate(VariableId var, std::size_t element) const {
    const auto& list = placements.at(var.value());
    auto it = std::upper_bound(list.begin(), list.end(), element,
                               [](std::size_t e, const PlacedInterval& p) { return e < p.begin; });
    if (it == list.begin() || element >= std::prev(it)->end) {
        throw Error("internal: element " + std::to_string(element) + " of '" +
                    graph->variable(var).name + "' has no placement");
    }
    --it;
    const std::size_t size = sizeOf(graph->variable(var).type);
    return {it->block, (it->localStart + element - it->begin) * size};
}

LargeVector<Run> CompiledGraph::runsOf(const Tensor& t) const {
    LargeVector<Run> runs;
    appendRuns(t.regions(), runs);
    return runs;
}

void CompiledGraph::appendRuns(std::span<const VariableRegion> regions,
                               LargeVector<Run>& runs) const {
    // Consecutive regions are mostly of one variable and near each other (a
    // block's rows): the search starts from the last region's interval.
    const std::vector<PlacedInterval>* list = nullptr;
    VariableId listVar = VariableId::none();
    std::size_t size = 0;
    std::size_t at = 0;
    for (const VariableRegion& r : regions) {
        if (r.var != listVar) {
            listVar = r.var;
            list = &placements.at(r.var.value());
            size = sizeOf(graph->variable(r.var).type);
            at = 0;
        }
        const PlacedInterval* const first = list->data();
        const std::size_t count = list->size();
        const auto holds = [&](std::size_t i) {
            return i < count && first[i].begin <= r.begin && r.begin < first[i].end;
        };
        if (!holds(at)) {
            if (holds(at + 1)) {
                ++at;
            } else {
                const auto* it = std::upper_bound(
                    first, first + count, r.begin,
                    [](std::size_t e, const PlacedInterval& p) { return e < p.begin; });
                at = static_cast<std::size_t>(it - first) - 1;
            }
        }
        for (std::size_t e = r.begin; e < r.end;) {
            const PlacedInterval& p = first[at];
            const std::size_t take = std::min(r.end, p.end) - e;
            const Location loc{p.block, (p.localStart + e - p.begin) * size};
            if (!runs.empty() && runs.back().location.block == loc.block &&
                runs.back().location.offset + runs.back().elements * size == loc.offset) {
                runs.back().elements += take;
            } else {
                runs.push_back({loc, p.tile, take});
            }
            e += take;
            if (e < r.end) {
                ++at;
            }
        }
    }
}

} // namespace tessera::compiler
