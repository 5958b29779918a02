// Graph, memory and program queries of ReportReader.
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"

#include <unordered_map>

namespace tessera::reports {

std::vector<MemoryCategoryEntry> ReportReader::memoryCategories() const {
    std::vector<MemoryCategoryEntry> out;
    auto q = d_->db->prepare("SELECT id, key_id, name_id FROM memory_categories ORDER BY id");
    while (q.step()) {
        // Tile memory is indexed by category id: they count from 0.
        if (q.index(0) != out.size()) {
            q.damaged(0, "skips from " + std::to_string(out.size()) + " to " +
                             std::to_string(q.index(0)));
        }
        out.push_back({q.index(0), d_->str(q, 1), d_->str(q, 2)});
    }
    return out;
}

std::vector<CodeletEntry> ReportReader::codelets() const {
    std::vector<CodeletEntry> out;
    auto q = d_->db->prepare(
        "SELECT id, name_id, code_bytes, cycle_formula_id FROM codelets ORDER BY id");
    while (q.step()) {
        out.push_back({q.index(0), d_->str(q, 1), q.count(2), d_->str(q, 3)});
    }
    return out;
}

std::vector<VariableEntry> ReportReader::variables() const {
    std::vector<VariableEntry> out;
    auto q = d_->db->prepare(
        "SELECT id, name_id, type_id, shape, num_elements, is_constant, always_live,"
        " host_access, is_exchange_buffer, first_step, last_step, total_bytes, num_tiles"
        " FROM variables ORDER BY id");
    while (q.step()) {
        VariableEntry v;
        v.id = q.index(0);
        v.name = d_->str(q, 1);
        v.type = d_->str(q, 2);
        const std::span<const std::byte> shape = q.bytes(3);
        if (shape.size() % 8 != 0) {
            q.damaged(3, "has " + std::to_string(shape.size()) + " bytes, not 8 per dimension");
        }
        v.shape = sql::unpackU64(shape, q.columnName(3));
        v.numElements = q.count(4);
        v.isConstant = q.flag(5);
        v.alwaysLive = q.flag(6);
        v.hostAccess = q.flag(7);
        v.isExchangeBuffer = q.flag(8);
        v.firstStep = q.optionalIndex(9);
        v.lastStep = q.optionalIndex(10);
        v.totalBytes = q.count(11);
        v.numTiles = q.index(12);
        if (v.numTiles > d_->target.numTiles) {
            q.damaged(12, "is " + std::to_string(v.numTiles) + ", the target has " +
                              std::to_string(d_->target.numTiles) + " tiles");
        }
        out.push_back(std::move(v));
    }
    return out;
}

std::vector<std::pair<std::uint32_t, std::uint64_t>>
ReportReader::variableTiles(std::uint32_t variable) const {
    std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
    auto q = d_->db->prepare(
        "SELECT tile, bytes FROM variable_tiles WHERE variable_id = ?1 ORDER BY tile");
    q.bind(1, std::int64_t{variable});
    while (q.step()) {
        out.emplace_back(d_->tile(q, 0), q.count(1));
    }
    return out;
}

std::vector<ComputeSetEntry> ReportReader::computeSets() const {
    std::vector<ComputeSetEntry> out;
    auto q = d_->db->prepare("SELECT id, name_id, vertex_count FROM compute_sets ORDER BY id");
    while (q.step()) {
        out.push_back({q.index(0), d_->str(q, 1), q.count(2)});
    }
    return out;
}

std::vector<VertexCountEntry> ReportReader::vertexCounts(std::uint32_t computeSet) const {
    std::vector<VertexCountEntry> out;
    auto q = d_->db->prepare(
        "SELECT compute_set_id, tile, codelet_id, count, state_bytes FROM vertex_counts"
        " WHERE ?1 IS NULL OR compute_set_id = ?1 ORDER BY compute_set_id, tile, codelet_id");
    q.bindId(1, computeSet);
    while (q.step()) {
        out.push_back({q.index(0), d_->tile(q, 1), q.index(2), q.count(3), q.count(4)});
    }
    return out;
}

std::vector<TileMemoryEntry> ReportReader::tileMemory() const {
    const std::size_t categories = memoryCategories().size();
    const std::size_t regions = d_->target.regions.size();
    std::vector<TileMemoryEntry> out;
    auto q = d_->db->prepare(
        "SELECT tile, total_including_gaps, total_excluding_gaps, gap_bytes, always_live_bytes,"
        " not_always_live_peak_bytes, not_always_live_sum_bytes, overflow_bytes"
        " FROM tile_memory ORDER BY tile");
    while (q.step()) {
        TileMemoryEntry m;
        m.tile = d_->tile(q, 0);
        // The panes index tile memory by tile number: tiles count from 0.
        if (m.tile != out.size()) {
            q.damaged(0, "skips from tile " + std::to_string(out.size()) + " to " +
                             std::to_string(m.tile));
        }
        m.totalIncludingGaps = q.count(1);
        m.totalExcludingGaps = q.count(2);
        m.gapBytes = q.count(3);
        m.alwaysLiveBytes = q.count(4);
        m.notAlwaysLivePeakBytes = q.count(5);
        m.notAlwaysLiveSumBytes = q.count(6);
        m.overflowBytes = q.count(7);
        m.bytesByCategory.assign(categories, 0);
        m.bytesByRegion.assign(regions, 0);
        out.push_back(std::move(m));
    }
    // Zero rows are not stored: what is absent stays 0.
    auto byCategory =
        d_->db->prepare("SELECT tile, category_id, bytes FROM tile_memory_categories");
    while (byCategory.step()) {
        const std::uint32_t tile = byCategory.index(0);
        const std::uint32_t k = byCategory.index(1);
        if (tile >= out.size()) {
            byCategory.damaged(0, "is tile " + std::to_string(tile) + ", not in tile_memory");
        }
        if (k >= categories) {
            byCategory.damaged(1, std::to_string(k) + " names no memory category");
        }
        out[tile].bytesByCategory[k] = byCategory.count(2);
    }
    auto byRegion = d_->db->prepare("SELECT tile, region_id, bytes FROM tile_memory_regions");
    while (byRegion.step()) {
        const std::uint32_t tile = byRegion.index(0);
        const std::uint32_t r = byRegion.index(1);
        if (tile >= out.size()) {
            byRegion.damaged(0, "is tile " + std::to_string(tile) + ", not in tile_memory");
        }
        if (r >= regions) {
            byRegion.damaged(1, std::to_string(r) + " names no region");
        }
        out[tile].bytesByRegion[r] = byRegion.count(2);
    }
    return out;
}

std::vector<MemoryBlockEntry> ReportReader::memoryBlocks(std::uint32_t tile) const {
    std::vector<MemoryBlockEntry> out;
    if (d_->memoryCategoryCount == 0) {
        auto categories = d_->db->prepare("SELECT count(*) FROM memory_categories");
        d_->memoryCategoryCount = categories.step() ? categories.index(0) : 0;
    }
    const std::uint64_t base = d_->target.memoryBaseAddress;
    auto q = d_->db->prepare("SELECT tile, category_id, address, bytes, owner FROM memory_blocks"
                             " WHERE tile = ?1 ORDER BY address, id");
    q.bind(1, std::int64_t{tile});
    while (q.step()) {
        MemoryBlockEntry b{d_->tile(q, 0), q.index(1), q.count(2), q.count(3), q.optionalIndex(4)};
        if (b.category >= d_->memoryCategoryCount) {
            q.damaged(1, std::to_string(b.category) + " names no memory category");
        }
        // Below the memory's base, or ending past 2^48: no tile has such addresses.
        if (b.address < base) {
            q.damaged(2, "is " + std::to_string(b.address) +
                             ", below the tile memory's base address " + std::to_string(base));
        }
        if (b.bytes > sql::kMaxCount - b.address) {
            q.damaged(3, "is " + std::to_string(b.bytes) + ": the block ends past 2^48");
        }
        out.push_back(b);
    }
    return out;
}

std::vector<ProgramNodeEntry> ReportReader::programNodes() const {
    if (!d_->problems.programTree.empty()) {
        throw ReportError(d_->problems.programTree);
    }
    std::vector<ProgramNodeEntry> out;
    auto q =
        d_->db->prepare("SELECT id, parent_id, program_index, kind_id, name_id, compute_set_id,"
                        " repeat_count, step_id FROM program_nodes ORDER BY id");
    while (q.step()) {
        out.push_back({q.index(0), q.optionalIndex(1), q.index(2), d_->programKind(q, 3),
                       d_->str(q, 4), q.optionalIndex(5), q.count(6), q.optionalIndex(7)});
    }
    readOperationLayers(out);
    return out;
}

void ReportReader::readOperationLayers(std::vector<ProgramNodeEntry>& nodes) const {
    {
        auto has = d_->db->prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
                                   "name = 'operation_layers'");
        if (!has.step() || has.integer(0) == 0) {
            return; // before schema 1.2: every layer stays unknown
        }
    }
    std::unordered_map<std::uint32_t, std::size_t> position;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        position.emplace(nodes[i].id, i);
    }
    auto q = d_->db->prepare("SELECT node_id, layer_id, function_id FROM operation_layers");
    while (q.step()) {
        const std::uint32_t id = q.index(0);
        const std::string layer = d_->str(q, 1);
        const auto l = layer == record::operationLayerName(record::OperationLayer::Application)
                           ? record::OperationLayer::Application
                       : layer == record::operationLayerName(record::OperationLayer::Library)
                           ? record::OperationLayer::Library
                           : record::OperationLayer::Unknown;
        const auto it = position.find(id);
        if (it == position.end() || nodes[it->second].kind != record::ProgramKind::Block ||
            l == record::OperationLayer::Unknown) {
            throw ReportError(d_->info.path + ": operation_layers row for node " +
                              std::to_string(id) + " (layer '" + layer +
                              "') names no Block node or no layer");
        }
        nodes[it->second].layer = l;
        if (!q.isNull(2)) {
            nodes[it->second].libraryFunction = d_->str(q, 2);
        }
    }
}

std::vector<ProgramStepEntry> ReportReader::programSteps() const {
    if (!d_->problems.programSteps.empty()) {
        throw ReportError(d_->problems.programSteps);
    }
    std::vector<ProgramStepEntry> out;
    auto q = d_->db->prepare(
        "SELECT id, node_id, program_index, kind_id, name_id, compute_set_id, operation_node_id, "
        "sync_cycles,"
        " exchange_phase_cycles, compute_phase_cycles, total_cycles, flops, vertices, crosses_ipus,"
        " compute_cycles_max, compute_cycles_sum, exchange_cycles_max, exchange_cycles_sum, "
        "bytes_in_sum,"
        " bytes_out_sum, not_always_live_bytes_max, live_variable_count FROM program_steps ORDER "
        "BY id");
    while (q.step()) {
        ProgramStepEntry s;
        s.id = q.index(0);
        s.node = q.index(1);
        s.programIndex = q.index(2);
        s.kind = d_->programKind(q, 3);
        s.name = d_->str(q, 4);
        s.computeSet = q.optionalIndex(5);
        s.operation = q.optionalIndex(6);
        s.syncCycles = q.count(7);
        s.exchangePhaseCycles = q.count(8);
        s.computePhaseCycles = q.count(9);
        s.totalCycles = q.count(10);
        s.flops = q.count(11);
        s.vertices = q.count(12);
        s.crossesIpus = q.flag(13);
        s.computeCyclesMax = q.count(14);
        s.computeCyclesSum = q.count(15);
        s.exchangeCyclesMax = q.count(16);
        s.exchangeCyclesSum = q.count(17);
        s.bytesInSum = q.count(18);
        s.bytesOutSum = q.count(19);
        s.notAlwaysLiveBytesMax = q.count(20);
        s.liveVariableCount = q.count(21);
        out.push_back(std::move(s));
    }
    return out;
}

StepTiles ReportReader::stepTiles(std::uint32_t step) const {
    if (const auto it = d_->problems.stepTiles.find(step); it != d_->problems.stepTiles.end()) {
        throw ReportError(it->second);
    }
    auto q = d_->db->prepare(
        "SELECT p.total_cycles, t.compute_cycles, t.exchange_cycles, t.bytes_in, t.bytes_out,"
        " t.not_always_live_bytes FROM program_step_tiles t"
        " JOIN program_steps p ON p.id = t.step_id WHERE t.step_id = ?1");
    q.bind(1, std::int64_t{step});
    if (!q.step()) {
        throw ReportError(d_->info.path + ": no program step " + std::to_string(step) +
                          " in the report");
    }
    StepTiles t;
    t.step = step;
    t.totalCycles = q.count(0);
    t.computeCycles = d_->tileArray(q, 1);
    t.exchangeCycles = d_->tileArray(q, 2);
    t.bytesIn = d_->tileArray(q, 3);
    t.bytesOut = d_->tileArray(q, 4);
    t.notAlwaysLiveBytes = d_->tileArray(q, 5);
    t.syncCycles.resize(t.computeCycles.size());
    for (std::size_t i = 0; i < t.syncCycles.size(); ++i) {
        const std::uint64_t busy = std::uint64_t{t.computeCycles[i]} + t.exchangeCycles[i];
        t.syncCycles[i] =
            busy < t.totalCycles ? static_cast<std::uint32_t>(t.totalCycles - busy) : 0;
    }
    return t;
}

std::vector<StepVariableAccess> ReportReader::variableAccesses() const {
    std::vector<StepVariableAccess> out;
    {
        auto has = d_->db->prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
                                   "name = 'step_variable_access'");
        if (!has.step() || has.integer(0) == 0) {
            return out; // a 1.0 report
        }
    }
    auto q = d_->db->prepare("SELECT step_id, variable_id, access FROM step_variable_access"
                             " ORDER BY step_id, variable_id");
    while (q.step()) {
        const std::uint32_t access = q.index(2);
        if (access < 1 || access > 3) {
            q.damaged(2, "is " + std::to_string(access) + ", an unknown access");
        }
        out.push_back({q.index(0), q.index(1), static_cast<VariableAccess>(access)});
    }
    return out;
}

std::vector<std::uint32_t> ReportReader::liveVariables(std::uint32_t step) const {
    std::vector<std::uint32_t> out;
    auto q = d_->db->prepare(
        "SELECT variable_id FROM step_live_variables WHERE step_id = ?1 ORDER BY variable_id");
    q.bind(1, std::int64_t{step});
    while (q.step()) {
        out.push_back(q.index(0));
    }
    return out;
}

} // namespace tessera::reports
