// Turns the compiled graph into the records a report stores.
#include "engine/compiler/Passes.h"

#include <map>

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

void addVariables(CompiledGraph& out) {
    const Graph& g = *out.graph;
    auto& vars = out.record.variables;
    std::vector<std::map<TileId, std::uint64_t>> bytes(g.variables().size()); // per variable
    std::map<StepId, std::map<TileId, std::uint64_t>> buffers;
    for (const DataBlock& b : out.blocks) {
        if (!b.var.isNone()) {
            bytes[b.var.value()][b.tile] += b.bytes;
        } else {
            buffers[b.step][b.tile] += b.bytes;
        }
    }
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
        for (const auto& [tile, n] : bytes[id.value()]) {
            r.bytesByTile.emplace_back(tile, n);
        }
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
        if (bytes[v].empty()) {
            vars[v].alwaysLive = true; // zero-element variables take no memory
        }
    }
    for (const auto& [step, perTile] : buffers) {
        record::VariableRecord r;
        r.id = exchangeBufferId(out, step);
        r.name = "exchange buffer: " + out.steps[step.value()].name;
        r.type = "byte";
        r.isExchangeBuffer = true;
        r.firstStep = r.lastStep = step;
        for (const auto& [tile, n] : perTile) {
            r.bytesByTile.emplace_back(tile, n);
            r.numElements += n;
        }
        r.shape = {r.numElements};
        vars.push_back(std::move(r));
    }
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
        std::map<std::pair<TileId, CodeletId>, record::VertexCountRecord> counts;
        // Neighbouring vertices mostly share tile and codelet: one map
        // lookup for each run of them.
        record::VertexCountRecord* current = nullptr;
        for (VertexId v : cs.vertices) {
            const VertexData& vd = g.vertex(v);
            if (!current || current->tile != vd.tile ||
                out.codelets[current->codelet.value()] != vd.codelet) {
                const CodeletId codelet = codeletId.at(vd.codelet);
                current = &counts[{vd.tile, codelet}];
                current->computeSet = id;
                current->tile = vd.tile;
                current->codelet = codelet;
            }
            ++current->count;
        }
        for (auto& [key, c] : counts) {
            r.vertexCounts.push_back(c);
        }
    }
    // Vertex state bytes per (compute set, tile, codelet), from the layout.
    using StateKey = std::tuple<std::uint32_t, std::uint32_t, const CodeletInfo*>;
    std::map<StateKey, std::uint64_t> stateBytesOf;
    StateKey lastKey{};
    std::uint64_t* last = nullptr; // as above: one lookup per run of a key
    for (const auto& b : r.memoryBlocks) {
        if (b.category == record::MemoryCategory::VertexInstanceState ||
            b.category == record::MemoryCategory::VectorListDescriptor) {
            const VertexData& vd = g.vertex(b.owner.vertex());
            const StateKey key{vd.computeSet.value(), vd.tile.value(), vd.codelet};
            if (!last || key != lastKey) {
                last = &stateBytesOf[key];
                lastKey = key;
            }
            *last += b.bytes;
        }
    }
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint64_t> stateBytes;
    for (const auto& [key, bytes] : stateBytesOf) {
        stateBytes[{std::get<0>(key), std::get<1>(key), codeletId.at(std::get<2>(key)).value()}] +=
            bytes;
    }
    for (auto& c : r.vertexCounts) {
        c.stateBytes = stateBytes[{c.computeSet.value(), c.tile.value(), c.codelet.value()}];
    }
    r.programNodes = out.nodes;
    for (const StepId s : record::idRange<StepId>(out.steps.size())) {
        const StepPlan& p = out.steps[s.value()];
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
        rec.computeCycles = p.computeCycles;
        rec.exchangeCycles = p.exchangeCycles;
        rec.bytesIn = p.bytesIn;
        rec.bytesOut = p.bytesOut;
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
