// Graph, memory and program queries of ReportReader.
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Tables.h"

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
    using tables::col;
    using C = tables::variables::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::variables::kTable) + " ORDER BY id");
    while (q.step()) {
        VariableEntry v;
        v.id = q.index(col(C::id));
        v.name = d_->str(q, col(C::name_id));
        v.type = d_->str(q, col(C::type_id));
        const int shapeColumn = col(C::shape);
        const std::span<const std::byte> shape = q.bytes(shapeColumn);
        if (shape.size() % 8 != 0) {
            q.damaged(shapeColumn,
                      "has " + std::to_string(shape.size()) + " bytes, not 8 per dimension");
        }
        v.shape = sql::unpackU64(shape, q.columnName(shapeColumn));
        v.numElements = q.count(col(C::num_elements));
        v.isConstant = q.flag(col(C::is_constant));
        v.alwaysLive = q.flag(col(C::always_live));
        v.hostAccess = q.flag(col(C::host_access));
        v.isExchangeBuffer = q.flag(col(C::is_exchange_buffer));
        v.firstStep = q.optionalIndex(col(C::first_step));
        v.lastStep = q.optionalIndex(col(C::last_step));
        v.totalBytes = q.count(col(C::total_bytes));
        v.numTiles = q.index(col(C::num_tiles));
        if (v.numTiles > d_->target.numTiles) {
            q.damaged(col(C::num_tiles), "is " + std::to_string(v.numTiles) + ", the target has " +
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
    using tables::col;
    using C = tables::tile_memory::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::tile_memory::kTable) + " ORDER BY tile");
    while (q.step()) {
        TileMemoryEntry m;
        m.tile = d_->tile(q, col(C::tile));
        // The panes index tile memory by tile number: tiles count from 0.
        if (m.tile != out.size()) {
            q.damaged(col(C::tile), "skips from tile " + std::to_string(out.size()) + " to " +
                                        std::to_string(m.tile));
        }
        m.totalIncludingGaps = q.count(col(C::total_including_gaps));
        m.totalExcludingGaps = q.count(col(C::total_excluding_gaps));
        m.gapBytes = q.count(col(C::gap_bytes));
        m.alwaysLiveBytes = q.count(col(C::always_live_bytes));
        m.notAlwaysLivePeakBytes = q.count(col(C::not_always_live_peak_bytes));
        m.notAlwaysLiveSumBytes = q.count(col(C::not_always_live_sum_bytes));
        m.overflowBytes = q.count(col(C::overflow_bytes));
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
    using tables::col;
    using C = tables::program_nodes::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::program_nodes::kTable) + " ORDER BY id");
    while (q.step()) {
        out.push_back({q.index(col(C::id)), q.optionalIndex(col(C::parent_id)),
                       q.index(col(C::program_index)), d_->programKind(q, col(C::kind_id)),
                       d_->str(q, col(C::name_id)), q.optionalIndex(col(C::compute_set_id)),
                       q.count(col(C::repeat_count)), q.optionalIndex(col(C::step_id))});
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
    using tables::col;
    using C = tables::program_steps::Col;
    const bool storedSums = d_->hasStoredFigures();
    std::string sql = tables::selectSql(tables::program_steps::kTable);
    if (!storedSums) { // before 1.2: no not_always_live_bytes_sum column
        sql.replace(sql.find(", not_always_live_bytes_sum"), 27, ", 0");
    }
    auto q = d_->db->prepare(sql + " ORDER BY id");
    while (q.step()) {
        ProgramStepEntry s;
        s.id = q.index(col(C::id));
        s.node = q.index(col(C::node_id));
        s.programIndex = q.index(col(C::program_index));
        s.kind = d_->programKind(q, col(C::kind_id));
        s.name = d_->str(q, col(C::name_id));
        s.computeSet = q.optionalIndex(col(C::compute_set_id));
        s.operation = q.optionalIndex(col(C::operation_node_id));
        s.syncCycles = q.count(col(C::sync_cycles));
        s.exchangePhaseCycles = q.count(col(C::exchange_phase_cycles));
        s.computePhaseCycles = q.count(col(C::compute_phase_cycles));
        s.totalCycles = q.count(col(C::total_cycles));
        s.flops = q.count(col(C::flops));
        s.vertices = q.count(col(C::vertices));
        s.crossesIpus = q.flag(col(C::crosses_ipus));
        s.computeCyclesMax = q.count(col(C::compute_cycles_max));
        s.computeCyclesSum = q.count(col(C::compute_cycles_sum));
        s.exchangeCyclesMax = q.count(col(C::exchange_cycles_max));
        s.exchangeCyclesSum = q.count(col(C::exchange_cycles_sum));
        s.bytesInSum = q.count(col(C::bytes_in_sum));
        s.bytesOutSum = q.count(col(C::bytes_out_sum));
        s.notAlwaysLiveBytesMax = q.count(col(C::not_always_live_bytes_max));
        s.liveVariableCount = q.count(col(C::live_variable_count));
        s.notAlwaysLiveBytesSum = q.count(col(C::not_always_live_bytes_sum));
        out.push_back(std::move(s));
    }
    if (!storedSums) {
        // An older report: sum each step's tile array once, here, so no view
        // re-reads them (a damaged array counts as 0; its step names the problem).
        auto tiles = d_->db->prepare("SELECT not_always_live_bytes FROM program_step_tiles"
                                     " WHERE step_id = ?1");
        for (ProgramStepEntry& s : out) {
            if (d_->problems.stepTiles.contains(s.id)) {
                continue;
            }
            tiles.bind(1, std::int64_t{s.id});
            if (tiles.step()) {
                for (const std::uint32_t b : d_->tileArray(tiles, 0)) {
                    s.notAlwaysLiveBytesSum += b;
                }
            }
            tiles.reset();
        }
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
