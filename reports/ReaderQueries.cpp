// Graph, memory and program queries of ReportReader.
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"

namespace tessera::reports {

namespace {

std::uint32_t u32(std::int64_t v) {
    return static_cast<std::uint32_t>(v);
}

} // namespace

std::vector<MemoryCategoryEntry> ReportReader::memoryCategories() const {
    std::vector<MemoryCategoryEntry> out;
    auto q = d_->db->prepare("SELECT id, key_id, name_id FROM memory_categories ORDER BY id");
    while (q.step()) {
        out.push_back({u32(q.integer(0)), d_->str(q, 1), d_->str(q, 2)});
    }
    return out;
}

std::vector<CodeletEntry> ReportReader::codelets() const {
    std::vector<CodeletEntry> out;
    auto q = d_->db->prepare(
        "SELECT id, name_id, code_bytes, cycle_formula_id FROM codelets ORDER BY id");
    while (q.step()) {
        out.push_back({u32(q.integer(0)), d_->str(q, 1), q.unsignedInteger(2), d_->str(q, 3)});
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
        v.id = u32(q.integer(0));
        v.name = d_->str(q, 1);
        v.type = d_->str(q, 2);
        v.shape = sql::unpackU64(q.blob(3), "variables.shape");
        v.numElements = q.unsignedInteger(4);
        v.isConstant = q.integer(5) != 0;
        v.alwaysLive = q.integer(6) != 0;
        v.hostAccess = q.integer(7) != 0;
        v.isExchangeBuffer = q.integer(8) != 0;
        v.firstStep = q.id(9);
        v.lastStep = q.id(10);
        v.totalBytes = q.unsignedInteger(11);
        v.numTiles = u32(q.integer(12));
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
        out.emplace_back(u32(q.integer(0)), q.unsignedInteger(1));
    }
    return out;
}

std::vector<ComputeSetEntry> ReportReader::computeSets() const {
    std::vector<ComputeSetEntry> out;
    auto q = d_->db->prepare("SELECT id, name_id, vertex_count FROM compute_sets ORDER BY id");
    while (q.step()) {
        out.push_back({u32(q.integer(0)), d_->str(q, 1), q.unsignedInteger(2)});
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
        out.push_back({u32(q.integer(0)), u32(q.integer(1)), u32(q.integer(2)),
                       q.unsignedInteger(3), q.unsignedInteger(4)});
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
        m.tile = u32(q.integer(0));
        m.totalIncludingGaps = q.unsignedInteger(1);
        m.totalExcludingGaps = q.unsignedInteger(2);
        m.gapBytes = q.unsignedInteger(3);
        m.alwaysLiveBytes = q.unsignedInteger(4);
        m.notAlwaysLivePeakBytes = q.unsignedInteger(5);
        m.notAlwaysLiveSumBytes = q.unsignedInteger(6);
        m.overflowBytes = q.unsignedInteger(7);
        m.bytesByCategory.assign(categories, 0);
        m.bytesByRegion.assign(regions, 0);
        out.push_back(std::move(m));
    }
    // Tiles are dense from 0 in a well-formed report; index by position anyway.
    std::unordered_map<std::uint32_t, std::size_t> at;
    for (std::size_t i = 0; i < out.size(); ++i) {
        at[out[i].tile] = i;
    }
    // Zero rows are not stored: what is absent stays 0.
    auto byCategory =
        d_->db->prepare("SELECT tile, category_id, bytes FROM tile_memory_categories");
    while (byCategory.step()) {
        const auto it = at.find(u32(byCategory.integer(0)));
        const auto k = static_cast<std::size_t>(byCategory.integer(1));
        if (it == at.end() || k >= categories) {
            d_->corrupt("tile_memory_categories refers to an unknown tile or category");
        }
        out[it->second].bytesByCategory[k] = byCategory.unsignedInteger(2);
    }
    auto byRegion = d_->db->prepare("SELECT tile, region_id, bytes FROM tile_memory_regions");
    while (byRegion.step()) {
        const auto it = at.find(u32(byRegion.integer(0)));
        const auto r = static_cast<std::size_t>(byRegion.integer(1));
        if (it == at.end() || r >= regions) {
            d_->corrupt("tile_memory_regions refers to an unknown tile or region");
        }
        out[it->second].bytesByRegion[r] = byRegion.unsignedInteger(2);
    }
    return out;
}

std::vector<MemoryBlockEntry> ReportReader::memoryBlocks(std::uint32_t tile) const {
    std::vector<MemoryBlockEntry> out;
    auto q = d_->db->prepare("SELECT tile, category_id, address, bytes, owner FROM memory_blocks"
                             " WHERE tile = ?1 ORDER BY address, id");
    q.bind(1, std::int64_t{tile});
    while (q.step()) {
        out.push_back({u32(q.integer(0)), u32(q.integer(1)), q.unsignedInteger(2),
                       q.unsignedInteger(3), q.id(4)});
    }
    return out;
}

std::vector<ProgramNodeEntry> ReportReader::programNodes() const {
    std::vector<ProgramNodeEntry> out;
    auto q =
        d_->db->prepare("SELECT id, parent_id, program_index, kind_id, name_id, compute_set_id,"
                        " repeat_count, step_id FROM program_nodes ORDER BY id");
    while (q.step()) {
        out.push_back({u32(q.integer(0)), q.id(1), u32(q.integer(2)), d_->str(q, 3), d_->str(q, 4),
                       q.id(5), q.unsignedInteger(6), q.id(7)});
    }
    return out;
}

std::vector<ProgramStepEntry> ReportReader::programSteps() const {
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
        s.id = u32(q.integer(0));
        s.node = u32(q.integer(1));
        s.programIndex = u32(q.integer(2));
        s.kind = d_->str(q, 3);
        s.name = d_->str(q, 4);
        s.computeSet = q.id(5);
        s.operation = q.id(6);
        s.syncCycles = q.unsignedInteger(7);
        s.exchangePhaseCycles = q.unsignedInteger(8);
        s.computePhaseCycles = q.unsignedInteger(9);
        s.totalCycles = q.unsignedInteger(10);
        s.flops = q.unsignedInteger(11);
        s.vertices = q.unsignedInteger(12);
        s.crossesIpus = q.integer(13) != 0;
        s.computeCyclesMax = q.unsignedInteger(14);
        s.computeCyclesSum = q.unsignedInteger(15);
        s.exchangeCyclesMax = q.unsignedInteger(16);
        s.exchangeCyclesSum = q.unsignedInteger(17);
        s.bytesInSum = q.unsignedInteger(18);
        s.bytesOutSum = q.unsignedInteger(19);
        s.notAlwaysLiveBytesMax = q.unsignedInteger(20);
        s.liveVariableCount = q.unsignedInteger(21);
        out.push_back(std::move(s));
    }
    return out;
}

StepTiles ReportReader::stepTiles(std::uint32_t step) const {
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
    t.totalCycles = q.unsignedInteger(0);
    t.computeCycles = d_->tileArray(q.blob(1), "program_step_tiles.compute_cycles");
    t.exchangeCycles = d_->tileArray(q.blob(2), "program_step_tiles.exchange_cycles");
    t.bytesIn = d_->tileArray(q.blob(3), "program_step_tiles.bytes_in");
    t.bytesOut = d_->tileArray(q.blob(4), "program_step_tiles.bytes_out");
    t.notAlwaysLiveBytes = d_->tileArray(q.blob(5), "program_step_tiles.not_always_live_bytes");
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
        const std::int64_t access = q.integer(2);
        if (access < 1 || access > 3) {
            throw ReportError(d_->info.path + ": step_variable_access has an unknown access " +
                              std::to_string(access));
        }
        out.push_back({u32(q.integer(0)), u32(q.integer(1)), static_cast<VariableAccess>(access)});
    }
    return out;
}

std::vector<std::uint32_t> ReportReader::liveVariables(std::uint32_t step) const {
    std::vector<std::uint32_t> out;
    auto q = d_->db->prepare(
        "SELECT variable_id FROM step_live_variables WHERE step_id = ?1 ORDER BY variable_id");
    q.bind(1, std::int64_t{step});
    while (q.step()) {
        out.push_back(u32(q.integer(0)));
    }
    return out;
}

} // namespace tessera::reports
