// Graph, memory and program queries of ReportReader.
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Tables.h"

#include <stdexcept>
#include <unordered_map>

namespace tessera::reports {

std::vector<MemoryCategoryEntry> ReportReader::memoryCategories() const {
    std::vector<MemoryCategoryEntry> out;
    using tables::col;
    using C = tables::memory_categories::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::memory_categories::kTable) + " ORDER BY id");
    while (q.step()) {
        // Tile memory is indexed by category id: they count from 0.
        const std::uint32_t id = q.index(col(C::id));
        if (id != out.size()) {
            q.damaged(col(C::id),
                      "skips from " + std::to_string(out.size()) + " to " + std::to_string(id));
        }
        out.push_back({id, d_->str(q, col(C::key_id)), d_->str(q, col(C::name_id))});
    }
    return out;
}

std::vector<record::CodeletRecord> ReportReader::codelets() const {
    std::vector<record::CodeletRecord> out;
    using tables::col;
    using C = tables::codelets::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::codelets::kTable) + " ORDER BY id");
    while (q.step()) {
        out.push_back({q.indexAs<record::CodeletId>(col(C::id)), d_->str(q, col(C::name_id)),
                       q.count(col(C::code_bytes)), d_->str(q, col(C::cycle_formula_id))});
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
        v.id = q.indexAs<VariableId>(col(C::id));
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
        v.firstStep = q.optionalIndexAs<StepId>(col(C::first_step));
        v.lastStep = q.optionalIndexAs<StepId>(col(C::last_step));
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

std::vector<std::pair<TileId, std::uint64_t>>
ReportReader::variableTiles(VariableId variable) const {
    std::vector<std::pair<TileId, std::uint64_t>> out;
    using tables::col;
    using C = tables::variable_tiles::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::variable_tiles::kTable) +
                             " WHERE variable_id = :variable ORDER BY tile");
    q.bind(":variable", std::int64_t{variable.value()});
    while (q.step()) {
        out.emplace_back(TileId{d_->tile(q, col(C::tile))}, q.count(col(C::bytes)));
    }
    return out;
}

std::vector<record::ComputeSetRecord> ReportReader::computeSets() const {
    std::vector<record::ComputeSetRecord> out;
    using tables::col;
    using C = tables::compute_sets::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::compute_sets::kTable) + " ORDER BY id");
    while (q.step()) {
        out.push_back({q.indexAs<ComputeSetId>(col(C::id)), d_->str(q, col(C::name_id)),
                       q.count(col(C::vertex_count))});
    }
    return out;
}

std::vector<record::VertexCountRecord>
ReportReader::vertexCounts(record::ComputeSetId computeSet) const {
    std::vector<record::VertexCountRecord> out;
    using tables::col;
    using C = tables::vertex_counts::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::vertex_counts::kTable) +
                             " WHERE :compute_set IS NULL OR compute_set_id = :compute_set"
                             " ORDER BY compute_set_id, tile, codelet_id");
    q.bindId(":compute_set", computeSet);
    while (q.step()) {
        out.push_back({q.indexAs<record::ComputeSetId>(col(C::compute_set_id)),
                       record::TileId{d_->tile(q, col(C::tile))},
                       q.indexAs<record::CodeletId>(col(C::codelet_id)), q.count32(col(C::count)),
                       q.count32(col(C::state_bytes))});
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
        m.tile = TileId{d_->tile(q, col(C::tile))};
        // The panes index tile memory by tile number: tiles count from 0.
        if (m.tile.value() != out.size()) {
            q.damaged(col(C::tile), "skips from tile " + std::to_string(out.size()) + " to " +
                                        std::to_string(m.tile.value()));
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
    using TC = tables::tile_memory_categories::Col;
    auto byCategory = d_->db->prepare(tables::selectSql(tables::tile_memory_categories::kTable));
    while (byCategory.step()) {
        const std::uint32_t tile = byCategory.index(col(TC::tile));
        const std::uint32_t k = byCategory.index(col(TC::category_id));
        if (tile >= out.size()) {
            byCategory.damaged(col(TC::tile),
                               "is tile " + std::to_string(tile) + ", not in tile_memory");
        }
        if (k >= categories) {
            byCategory.damaged(col(TC::category_id),
                               std::to_string(k) + " names no memory category");
        }
        out[tile].bytesByCategory[k] = byCategory.count(col(TC::bytes));
    }
    using TR = tables::tile_memory_regions::Col;
    auto byRegion = d_->db->prepare(tables::selectSql(tables::tile_memory_regions::kTable));
    while (byRegion.step()) {
        const std::uint32_t tile = byRegion.index(col(TR::tile));
        const std::uint32_t r = byRegion.index(col(TR::region_id));
        if (tile >= out.size()) {
            byRegion.damaged(col(TR::tile),
                             "is tile " + std::to_string(tile) + ", not in tile_memory");
        }
        if (r >= regions) {
            byRegion.damaged(col(TR::region_id), std::to_string(r) + " names no region");
        }
        out[tile].bytesByRegion[r] = byRegion.count(col(TR::bytes));
    }
    return out;
}

std::vector<record::MemoryBlockRecord> ReportReader::memoryBlocks(record::TileId tile) const {
    std::vector<record::MemoryBlockRecord> out;
    if (d_->memoryCategoryCount == 0) {
        // A handful of rows; a negative count cannot come from count(*).
        d_->memoryCategoryCount =
            static_cast<std::uint32_t>(d_->db->integerOf("SELECT count(*) FROM memory_categories"));
    }
    const std::uint64_t base = d_->target.memoryBaseAddress;
    using tables::col;
    using C = tables::memory_blocks::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::memory_blocks::kTable) +
                             " WHERE tile = :tile ORDER BY address, id");
    q.bind(":tile", std::int64_t{tile.value()});
    while (q.step()) {
        const std::uint32_t category = q.index(col(C::category_id));
        if (category >= d_->memoryCategoryCount) {
            q.damaged(col(C::category_id), std::to_string(category) + " names no memory category");
        }
        // The owner's kind follows from the category: one the engine does not know is refused.
        if (category >= record::kMemoryCategoryCount) {
            throw ReportError(d_->info.path + ": not supported by Tessera: memory category " +
                              std::to_string(category));
        }
        record::MemoryBlockRecord b;
        b.tile = record::TileId{d_->tile(q, col(C::tile))};
        b.category = static_cast<record::MemoryCategory>(category);
        const std::uint64_t address = q.count(col(C::address));
        const std::uint64_t bytes = q.count(col(C::bytes));
        try {
            b.setOwner(record::BlockOwner::fromStored(b.category, q.optionalIndex(col(C::owner))));
        } catch (const std::invalid_argument& e) {
            q.damaged(col(C::owner), e.what());
        }
        // Below the memory's base, or ending past 2^32: a tile's addresses are 32-bit.
        if (address < base) {
            q.damaged(col(C::address), "is " + std::to_string(address) +
                                           ", below the tile memory's base address " +
                                           std::to_string(base));
        }
        if (address > record::kLastTileAddress) {
            q.damaged(col(C::address),
                      "is " + std::to_string(address) + ", past a tile's 32-bit addresses");
        }
        if (bytes > record::kLastTileAddress - address) {
            q.damaged(col(C::bytes), "is " + std::to_string(bytes) + " at address " +
                                         std::to_string(address) +
                                         ": the block ends past a tile's 32-bit addresses");
        }
        b.address = static_cast<std::uint32_t>(address);
        b.bytes = static_cast<std::uint32_t>(bytes);
        out.push_back(b);
    }
    return out;
}

std::vector<record::ProgramNodeRecord> ReportReader::programNodes() const {
    if (!d_->problems.programTree.empty()) {
        throw ReportError(d_->problems.programTree);
    }
    std::vector<record::ProgramNodeRecord> out;
    using tables::col;
    using C = tables::program_nodes::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::program_nodes::kTable) + " ORDER BY id");
    while (q.step()) {
        out.push_back({q.indexAs<ProgramNodeId>(col(C::id)),
                       q.optionalIndexAs<ProgramNodeId>(col(C::parent_id)),
                       q.index(col(C::program_index)), d_->programKind(q, col(C::kind_id)),
                       d_->str(q, col(C::name_id)),
                       q.optionalIndexAs<ComputeSetId>(col(C::compute_set_id)),
                       q.count(col(C::repeat_count)), q.optionalIndexAs<StepId>(col(C::step_id))});
    }
    readOperationLayers(out);
    return out;
}

void ReportReader::readOperationLayers(std::vector<record::ProgramNodeRecord>& nodes) const {
    if (!d_->hasTable("operation_layers")) {
        return; // before schema 1.2: every layer stays unknown
    }
    std::unordered_map<ProgramNodeId, std::size_t> position;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        position.emplace(nodes[i].id, i);
    }
    using tables::col;
    using C = tables::operation_layers::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::operation_layers::kTable));
    while (q.step()) {
        const auto id = q.indexAs<ProgramNodeId>(col(C::node_id));
        const std::string layer = d_->str(q, col(C::layer_id));
        const auto l = layer == record::operationLayerName(record::OperationLayer::Application)
                           ? record::OperationLayer::Application
                       : layer == record::operationLayerName(record::OperationLayer::Library)
                           ? record::OperationLayer::Library
                           : record::OperationLayer::Unknown;
        const auto it = position.find(id);
        if (it == position.end() || nodes[it->second].kind != record::ProgramKind::Block ||
            l == record::OperationLayer::Unknown) {
            throw ReportError(d_->info.path + ": operation_layers row for node " +
                              std::to_string(id.value()) + " (layer '" + layer +
                              "') names no Block node or no layer");
        }
        nodes[it->second].layer = l;
        if (!q.isNull(col(C::function_id))) {
            nodes[it->second].libraryFunction = d_->str(q, col(C::function_id));
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
    auto q = d_->db->prepare(d_->programStepsSql() + " ORDER BY id");
    while (q.step()) {
        ProgramStepEntry s;
        s.id = q.indexAs<StepId>(col(C::id));
        s.node = q.indexAs<ProgramNodeId>(col(C::node_id));
        s.programIndex = q.index(col(C::program_index));
        s.kind = d_->programKind(q, col(C::kind_id));
        s.name = d_->str(q, col(C::name_id));
        s.computeSet = q.optionalIndexAs<ComputeSetId>(col(C::compute_set_id));
        s.operation = q.optionalIndexAs<ProgramNodeId>(col(C::operation_node_id));
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
        using T = tables::program_step_tiles::Col;
        auto tiles = d_->db->prepare(tables::selectSql(tables::program_step_tiles::kTable) +
                                     " WHERE step_id = :step");
        for (ProgramStepEntry& s : out) {
            if (d_->problems.stepTiles.contains(s.id.value())) {
                continue;
            }
            tiles.bind(":step", std::int64_t{s.id.value()});
            if (tiles.step()) {
                for (const std::uint32_t b : d_->tileArray(tiles, col(T::not_always_live_bytes))) {
                    s.notAlwaysLiveBytesSum += b;
                }
            }
            tiles.reset();
        }
    }
    return out;
}

StepTiles ReportReader::stepTiles(StepId step) const {
    if (const auto it = d_->problems.stepTiles.find(step.value());
        it != d_->problems.stepTiles.end()) {
        throw ReportError(it->second);
    }
    using tables::col;
    using T = tables::program_step_tiles::Col;
    using P = tables::program_steps::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::program_step_tiles::kTable) +
                             " WHERE step_id = :step");
    auto p = d_->db->prepare(d_->programStepsSql() + " WHERE id = :step");
    q.bind(":step", std::int64_t{step.value()});
    p.bind(":step", std::int64_t{step.value()});
    if (!q.step() || !p.step()) {
        throw ReportError(d_->info.path + ": no program step " + std::to_string(step.value()) +
                          " in the report");
    }
    StepTiles t;
    t.step = step;
    t.totalCycles = p.count(col(P::total_cycles));
    t.computeCycles = d_->tileArray(q, col(T::compute_cycles));
    t.exchangeCycles = d_->tileArray(q, col(T::exchange_cycles));
    t.bytesIn = d_->tileArray(q, col(T::bytes_in));
    t.bytesOut = d_->tileArray(q, col(T::bytes_out));
    t.notAlwaysLiveBytes = d_->tileArray(q, col(T::not_always_live_bytes));
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
    if (!d_->hasTable("step_variable_access")) {
        return out; // a 1.0 report
    }
    using tables::col;
    using C = tables::step_variable_access::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::step_variable_access::kTable) +
                             " ORDER BY step_id, variable_id");
    while (q.step()) {
        const std::uint32_t access = q.index(col(C::access));
        if (access < 1 || access > 3) {
            q.damaged(col(C::access), "is " + std::to_string(access) + ", an unknown access");
        }
        out.push_back({q.indexAs<StepId>(col(C::step_id)),
                       q.indexAs<VariableId>(col(C::variable_id)),
                       static_cast<VariableAccess>(access)});
    }
    return out;
}

std::vector<VariableId> ReportReader::liveVariables(StepId step) const {
    std::vector<VariableId> out;
    using tables::col;
    using C = tables::step_live_variables::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::step_live_variables::kTable) +
                             " WHERE step_id = :step ORDER BY variable_id");
    q.bind(":step", std::int64_t{step.value()});
    while (q.step()) {
        out.push_back(q.indexAs<VariableId>(col(C::variable_id)));
    }
    return out;
}

} // namespace tessera::reports
