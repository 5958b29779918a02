// One data block per variable per tile that holds part of it; the variable's
// elements on a tile are stored in element order, one after another.
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"

#include <algorithm>
#include <vector>

namespace tessera::compiler {

void placeVariables(CompiledGraph& out) {
    const auto& vars = out.graph->variables();
    const std::size_t tiles = out.graph->getTarget().numTiles();
    out.placements.resize(vars.size());
    // Per tile, the current variable's block and its elements so far, reset
    // through the variable's blocks (maps made a node per tile per variable).
    std::vector<BlockId> blockOf(tiles, kNoBlock);
    std::vector<std::size_t> countOf(tiles, 0);
    for (const VariableId id : record::idRange<VariableId>(vars.size())) {
        const VariableData& v = vars[id.value()];
        const std::vector<TileInterval> intervals = v.mapping.intervals();
        std::vector<PlacedInterval>& list = out.placements[id.value()];
        list.reserve(intervals.size());
        const std::size_t firstBlock = out.blocks.size();
        for (const TileInterval& iv : intervals) {
            BlockId& block = blockOf.at(iv.tile.value());
            if (block == kNoBlock) {
                block = static_cast<BlockId>(out.blocks.size());
                DataBlock b;
                b.tile = iv.tile;
                b.var = id;
                b.constant = v.isConstant;
                out.blocks.push_back(b);
            }
            std::size_t& local = countOf[iv.tile.value()];
            // 32-bit once the block's bytes are checked below.
            list.push_back({iv.begin, iv.end, block, static_cast<std::uint32_t>(local)});
            local += iv.end - iv.begin;
        }
        for (std::size_t b = firstBlock; b < out.blocks.size(); ++b) {
            const TileId tile = out.blocks[b].tile;
            out.blocks[b].bytes = withinTileAddresses(out.graph->getTarget(), tile,
                                                      countOf[tile.value()] * sizeOf(v.type));
            blockOf[tile.value()] = kNoBlock;
            countOf[tile.value()] = 0;
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
    return {it->block, inBlock((it->localStart + element - it->begin) * size)};
}

LargeVector<Run> CompiledGraph::runsOf(const Tensor& t) const {
    LargeVector<Run> runs;
    appendRuns(t.regions(), runs);
    return runs;
}

namespace {

// Both appendRuns: over a tensor's regions and over a vertex field's stored ones.
template <typename Regions>
void appendRunsOf(const CompiledGraph& compiled, const Regions& regions, LargeVector<Run>& runs,
                  std::vector<std::uint32_t>* hints) {
    const auto& placements = compiled.placements;
    const Graph* graph = compiled.graph;
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
            at = hints ? (*hints)[r.var.value()] : 0;
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
            const Location loc{p.block, inBlock((p.localStart + e - p.begin) * size)};
            if (!runs.empty() && runs.back().location.block == loc.block &&
                runs.back().location.offset + runs.back().elements * size == loc.offset) {
                runs.back().elements += inBlock(take);
            } else {
                runs.push_back({loc, compiled.blocks[p.block].tile, inBlock(take)});
            }
            e += take;
            if (e < r.end) {
                ++at;
            }
        }
        if (hints) {
            (*hints)[r.var.value()] = static_cast<std::uint32_t>(at);
        }
    }
}

} // namespace

void CompiledGraph::appendRuns(std::span<const VariableRegion> regions, LargeVector<Run>& runs,
                               std::vector<std::uint32_t>* hints) const {
    appendRunsOf(*this, regions, runs, hints);
}

void CompiledGraph::appendRuns(RegionsView regions, LargeVector<Run>& runs,
                               std::vector<std::uint32_t>* hints) const {
    appendRunsOf(*this, regions, runs, hints);
}

} // namespace tessera::compiler
