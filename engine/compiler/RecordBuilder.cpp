// Turns the compiled graph into the records a report stores.
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tessera::compiler {

VariableId exchangeBufferId(const CompiledGraph& compiled, StepId step) {
    return record::idAt<VariableId>(compiled.graph->variables().size() + step.value());
}

namespace {

record::TargetRecord targetRecord(const Target& t) {
    record::TargetRecord r;
    r.name = t.name;
    r.numIPUs = t.numIPUs;
    r.tilesPerIPU = t.tilesPerIPU;
    r.bytesPerTile = t.bytesPerTile;
    r.memoryBaseAddress = t.memoryBaseAddress;
    r.clockHz = t.clockHz;
    r.numWorkerContexts = t.numWorkerContexts;
    r.exchangeBytesPerCycle = t.exchangeBytesPerCycle;
    for (const MemoryRegion& region : t.memoryRegions()) {
        r.regions.emplace_back(region.name, region.bytes);
    }
    for (const std::string& key : Target::parameterNames()) {
        r.parameters.emplace_back(key, t.get(key));
    }
    return r;
}

// A variable's (or an exchange buffer's step's) bytes on one tile. Sorted
// lists of these replace a map per owner, which cost a node per tile.
struct OwnedBytes {
    std::uint32_t owner;
    TileId tile;
    std::uint32_t bytes; // a block's: one a tile per owner
};

void sortByOwnerAndTile(std::vector<OwnedBytes>& list) {
    std::sort(list.begin(), list.end(), [](const OwnedBytes& a, const OwnedBytes& b) {
        return a.owner != b.owner ? a.owner < b.owner : a.tile < b.tile;
    });
}

// Appends the entries of `owner` from `at` on (sorted lists), one per tile.
void takeBytesOf(std::uint32_t owner, const std::vector<OwnedBytes>& list, std::size_t& at,
                 std::vector<std::pair<TileId, std::uint32_t>>& bytesByTile) {
    for (; at < list.size() && list[at].owner == owner; ++at) {
        if (!bytesByTile.empty() && bytesByTile.back().first == list[at].tile) {
            throw Error("internal: two blocks of one owner on tile " +
                        std::to_string(list[at].tile.value()));
        }
        bytesByTile.emplace_back(list[at].tile, list[at].bytes);
    }
}

void addVariables(CompiledGraph& out) {
    const Graph& g = *out.graph;
    auto& vars = out.record.variables;
    std::vector<OwnedBytes> bytes, buffers; // of variables; of steps' exchange buffers
    for (const DataBlock& b : out.blocks) {
        if (!b.var.isNone()) {
            bytes.push_back({b.var.value(), b.tile, b.bytes});
        } else {
            buffers.push_back({b.step.value(), b.tile, b.bytes});
        }
    }
    sortByOwnerAndTile(bytes);
    sortByOwnerAndTile(buffers);
    std::size_t at = 0;
    for (const VariableId id : record::idRange<VariableId>(g.variables().size())) {
        const VariableData& v = g.variable(id);
        record::VariableRecord r;
        r.id = id;
        r.name = v.name;
        r.type = std::string(typeName(v.type));
        r.shape.assign(v.shape.begin(), v.shape.end());
        r.numElements = v.numElements;
        r.isConstant = v.isConstant;
        r.hostAccess = v.hostAccess;
        takeBytesOf(id.value(), bytes, at, r.bytesByTile);
        vars.push_back(std::move(r));
    }
    for (const DataBlock& b : out.blocks) { // liveness is per variable, the same on all tiles
        if (!b.var.isNone()) {
            record::VariableRecord& r = vars[b.var.value()];
            r.alwaysLive = b.alwaysLive;
            r.firstStep = b.alwaysLive ? StepId::none() : b.firstStep;
            r.lastStep = b.alwaysLive ? StepId::none() : b.lastStep;
        }
    }
    for (std::size_t v = 0; v < g.variables().size(); ++v) {
        if (vars[v].bytesByTile.empty()) {
            vars[v].alwaysLive = true; // zero-element variables take no memory
        }
    }
    for (at = 0; at < buffers.size();) {
        const StepId step = record::idAt<StepId>(buffers[at].owner);
        record::VariableRecord r;
        r.id = exchangeBufferId(out, step);
        r.name = "exchange buffer: " + out.steps[step.value()].name;
        r.type = "byte";
        r.isExchangeBuffer = true;
        r.firstStep = r.lastStep = step;
        takeBytesOf(step.value(), buffers, at, r.bytesByTile);
        for (const auto& [tile, n] : r.bytesByTile) {
            r.numElements += n;
        }
        r.shape = {r.numElements};
        vars.push_back(std::move(r));
    }
}

bool keyLess(const record::VertexCountRecord& a, const record::VertexCountRecord& b) {
    return std::tie(a.computeSet, a.tile, a.codelet) < std::tie(b.computeSet, b.tile, b.codelet);
}

// Sorts counts[first..] by key and merges records of one key. A compute set
// made tile by tile has them in strictly increasing order already.
void mergeEqualKeys(std::vector<record::VertexCountRecord>& counts, std::size_t first) {
    const auto begin = counts.begin() + static_cast<std::ptrdiff_t>(first);
    const auto notIncreasing = [](const record::VertexCountRecord& a,
                                  const record::VertexCountRecord& b) { return !keyLess(a, b); };
    if (std::adjacent_find(begin, counts.end(), notIncreasing) == counts.end()) {
        return;
    }
    std::sort(begin, counts.end(), keyLess);
    std::size_t kept = first;
    for (std::size_t i = first; i < counts.size(); ++i) {
        if (kept > first && !keyLess(counts[kept - 1], counts[i])) {
            counts[kept - 1].count += counts[i].count;
        } else {
            counts[kept++] = counts[i];
        }
    }
    counts.resize(kept);
}

record::VertexCountRecord& countOf(std::vector<record::VertexCountRecord>& counts, ComputeSetId cs,
                                   TileId tile, CodeletId codelet) {
    record::VertexCountRecord key;
    key.computeSet = cs;
    key.tile = tile;
    key.codelet = codelet;
    const auto it = std::lower_bound(counts.begin(), counts.end(), key, keyLess);
    if (it == counts.end() || keyLess(key, *it)) {
        throw Error("internal: vertex state of a vertex no compute set counts");
    }
    return *it;
}

void addLiveness(CompiledGraph& out) {
    const std::size_t steps = out.steps.size();
    const std::uint32_t tiles = out.graph->getTarget().numTiles();
    // Per step, the variables whose live range starts there and those whose
    // range ended just before: a sweep keeps the live bytes per tile.
    std::vector<std::vector<record::VariableId>> starts(steps + 1), ends(steps + 1);
    for (const record::VariableRecord& v : out.record.variables) {
        if (v.alwaysLive || v.firstStep.isNone()) {
            continue;
        }
        starts[v.firstStep.value()].push_back(v.id);
        ends[v.lastStep.value() + 1].push_back(v.id);
    }
    std::vector<std::int64_t> live(tiles, 0);
    std::map<record::VariableId, const record::VariableRecord*> byId;
    for (const auto& v : out.record.variables) {
        byId[v.id] = &v;
    }
    std::map<record::VariableId, bool> liveSet;
    for (std::size_t s = 0; s < steps; ++s) {
        for (const record::VariableId id : ends[s]) {
            for (const auto& [tile, n] : byId[id]->bytesByTile) {
                live[tile.value()] -= static_cast<std::int64_t>(n);
            }
            liveSet.erase(id);
        }
        for (const record::VariableId id : starts[s]) {
            for (const auto& [tile, n] : byId[id]->bytesByTile) {
                live[tile.value()] += static_cast<std::int64_t>(n);
            }
            liveSet[id] = true;
        }
        auto& rec = out.record.programSteps[s];
        rec.notAlwaysLiveBytes.resize(tiles);
        for (std::uint32_t t = 0; t < tiles; ++t) {
            rec.notAlwaysLiveBytes[t] = static_cast<std::uint32_t>(live[t]);
        }
        for (const auto& [id, unused] : liveSet) {
            rec.liveVariables.push_back(id);
        }
    }
}

} // namespace

void buildRecord(CompiledGraph& out) {
    const Graph& g = *out.graph;
    record::CompiledRecord& r = out.record;
    r.target = targetRecord(g.getTarget());
    std::map<const CodeletInfo*, CodeletId> codeletId;
    for (const CodeletId id : record::idRange<CodeletId>(out.codelets.size())) {
        const CodeletInfo* c = out.codelets[id.value()];
        r.codelets.push_back({id, c->name, c->codeBytes, c->formula});
        codeletId[c] = id;
    }
    for (const ComputeSetId id : record::idRange<ComputeSetId>(g.computeSets().size())) {
        const ComputeSetData& cs = g.computeSet(id);
        r.computeSets.push_back({id, cs.name, cs.vertices.size()});
        // Neighbouring vertices mostly share tile and codelet: a record per
        // run of them, then sorted by tile and codelet and merged.
        const std::size_t first = r.vertexCounts.size();
        for (VertexId v : cs.vertices) {
            const VertexData& vd = g.vertex(v);
            if (r.vertexCounts.size() == first || r.vertexCounts.back().tile != vd.tile ||
                out.codelets[r.vertexCounts.back().codelet.value()] != vd.codelet) {
                record::VertexCountRecord c;
                c.computeSet = id;
                c.tile = vd.tile;
                c.codelet = codeletId.at(vd.codelet);
                r.vertexCounts.push_back(c);
            }
            ++r.vertexCounts.back().count;
        }
        mergeEqualKeys(r.vertexCounts, first);
    }
    // Vertex state bytes per (compute set, tile, codelet), from the layout,
    // found in the counts (sorted by that key) once per run of a key.
    record::VertexCountRecord* last = nullptr;
    for (const auto& b : r.memoryBlocks) {
        if (b.category == record::MemoryCategory::VertexInstanceState ||
            b.category == record::MemoryCategory::VectorListDescriptor) {
            const VertexData& vd = g.vertex(b.owner().vertex());
            if (!last || last->computeSet != vd.computeSet || last->tile != vd.tile ||
                out.codelets[last->codelet.value()] != vd.codelet) {
                last = &countOf(r.vertexCounts, vd.computeSet, vd.tile, codeletId.at(vd.codelet));
            }
            last->stateBytes += b.bytes;
        }
    }
    r.programNodes = out.nodes;
    for (const StepId s : record::idRange<StepId>(out.steps.size())) {
        StepPlan& p = out.steps[s.value()];
        record::ProgramStepRecord rec;
        rec.id = s;
        rec.node = record::ProgramNodeId{p.node};
        rec.programIndex = p.programIndex;
        rec.kind = p.kind;
        rec.name = p.name;
        rec.computeSet = p.computeSet;
        // The plan's kNoIndex is the record's none().
        rec.operation = record::ProgramNodeId{p.operation};
        rec.syncCycles = p.syncCycles;
        rec.exchangePhaseCycles = p.exchangePhaseCycles;
        rec.computePhaseCycles = p.computePhaseCycles;
        rec.totalCycles = p.totalCycles();
        rec.flops = p.flops;
        rec.vertices = p.vertices.size();
        rec.crossesIpus = p.crossesIpus;
        // The per-tile figures move: the record is their one home after
        // compile (the runtime reads the step totals only).
        rec.computeCycles = std::move(p.computeCycles);
        rec.exchangeCycles = std::move(p.exchangeCycles);
        rec.bytesIn = std::move(p.bytesIn);
        rec.bytesOut = std::move(p.bytesOut);
        rec.reads = p.reads;
        rec.writes = p.writes;
        std::sort(rec.reads.begin(), rec.reads.end());
        std::sort(rec.writes.begin(), rec.writes.end());
        r.programSteps.push_back(std::move(rec));
    }
    addVariables(out);
    addLiveness(out);
    r.outOfMemory = out.outOfMemory;
    r.totalMemoryBytes = 0;
    for (const auto& t : r.tileMemory) {
        r.totalMemoryBytes += t.totalIncludingGaps;
    }
}

} // namespace tessera::compiler
