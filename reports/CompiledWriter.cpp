#include "reports/CompiledWriter.h"

#include "reports/BatchInsert.h"
#include "reports/ReportError.h"
#include "reports/ReportTypes.h"
#include "reports/Saturating.h"
#include "reports/Sqlite.h"
#include "reports/StringTable.h"
#include "reports/Tables.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace tessera::reports {

namespace {

using std::int64_t;

// A per-tile array as stored: numTiles little-endian uint32, or an empty BLOB
// when every tile is 0 (most steps leave most arrays at zero).
std::vector<std::byte> tileBlob(const std::vector<std::uint32_t>& values, std::uint32_t numTiles) {
    if (std::all_of(values.begin(), values.end(), [](std::uint32_t v) { return v == 0; })) {
        return {};
    }
    std::vector<std::uint32_t> padded(
        values.begin(), values.begin() + std::min<std::size_t>(values.size(), numTiles));
    padded.resize(numTiles, 0);
    return sql::packU32(padded);
}

std::uint64_t maxOf(const std::vector<std::uint32_t>& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

std::uint64_t sumOf(const std::vector<std::uint32_t>& v) {
    std::uint64_t s = 0;
    for (std::uint32_t x : v) {
        s += x;
    }
    return s;
}

// (variable, access) for every variable the step reads or writes, ascending.
std::vector<std::pair<record::VariableId, VariableAccess>>
accessModes(const record::ProgramStepRecord& s) {
    std::map<record::VariableId, std::uint8_t> modes;
    for (const record::VariableId v : s.reads) {
        modes[v] |= static_cast<std::uint8_t>(VariableAccess::Read);
    }
    for (const record::VariableId v : s.writes) {
        modes[v] |= static_cast<std::uint8_t>(VariableAccess::Write);
    }
    std::vector<std::pair<record::VariableId, VariableAccess>> out;
    for (const auto& [v, m] : modes) {
        out.emplace_back(v, static_cast<VariableAccess>(m));
    }
    return out;
}

void writeTarget(sql::Database& db, StringTable& strings, const record::TargetRecord& t) {
    using tables::param;
    {
        using T = tables::target::Col;
        db.prepare(tables::insertSql(tables::target::kTable))
            .bind(param(T::id), int64_t{0}) // the one row
            .bind(param(T::name_id), strings.id(t.name))
            .bind(param(T::num_ipus), int64_t{t.numIPUs})
            .bind(param(T::tiles_per_ipu), int64_t{t.tilesPerIPU})
            .bind(param(T::num_tiles), int64_t{t.numTiles()})
            .bind(param(T::bytes_per_tile), int64_t{t.bytesPerTile})
            .bind(param(T::memory_base_address), int64_t{t.memoryBaseAddress})
            .bind(param(T::clock_hz), t.clockHz)
            .bind(param(T::worker_contexts), int64_t{t.numWorkerContexts})
            .bind(param(T::exchange_bytes_per_cycle), int64_t{t.exchangeBytesPerCycle})
            .run();
    }
    auto parameter = db.prepare(tables::insertSql(tables::target_parameters::kTable));
    for (std::size_t i = 0; i < t.parameters.size(); ++i) {
        using P = tables::target_parameters::Col;
        parameter.bind(param(P::position), i64(i))
            .bind(param(P::name_id), strings.id(t.parameters[i].first))
            .bind(param(P::value_id), strings.id(t.parameters[i].second))
            .run();
    }
    auto region = db.prepare(tables::insertSql(tables::regions::kTable));
    std::uint64_t offset = 0;
    for (std::size_t i = 0; i < t.regions.size(); ++i) {
        using R = tables::regions::Col;
        region.bind(param(R::id), i64(i))
            .bind(param(R::name_id), strings.id(t.regions[i].first))
            .bind(param(R::offset), i64(offset))
            .bind(param(R::bytes), int64_t{t.regions[i].second})
            .run();
        offset += t.regions[i].second;
    }
}

void writeGraph(sql::Database& db, StringTable& strings, const record::CompiledRecord& c) {
    using tables::param;
    auto codelet = db.prepare(tables::insertSql(tables::codelets::kTable));
    for (const auto& r : c.codelets) {
        using K = tables::codelets::Col;
        codelet.bindId(param(K::id), r.id)
            .bind(param(K::name_id), strings.id(r.name))
            .bind(param(K::code_bytes), i64(r.codeBytes))
            .bind(param(K::cycle_formula_id), strings.id(r.cycleFormula))
            .run();
    }
    auto variable = db.prepare(tables::insertSql(tables::variables::kTable));
    sql::BatchInsert tileBytes(db, tables::variable_tiles::kTable);
    for (const auto& v : c.variables) {
        std::uint64_t total = 0;
        std::uint64_t tiles = 0;
        for (const auto& [tile, bytes] : v.bytesByTile) {
            total += bytes;
            tiles += bytes > 0 ? 1 : 0;
        }
        using V = tables::variables::Col;
        variable.bind(param(V::id), int64_t{v.id.value()})
            .bind(param(V::name_id), strings.id(v.name))
            .bind(param(V::type_id), strings.id(v.type))
            .bindBlob(param(V::shape), sql::packU64(v.shape))
            .bind(param(V::num_elements), i64(v.numElements))
            .bind(param(V::is_constant), int64_t{v.isConstant})
            .bind(param(V::always_live), int64_t{v.alwaysLive})
            .bind(param(V::host_access), int64_t{v.hostAccess})
            .bind(param(V::is_exchange_buffer), int64_t{v.isExchangeBuffer})
            .bindId(param(V::first_step), v.firstStep)
            .bindId(param(V::last_step), v.lastStep)
            .bind(param(V::total_bytes), i64(total))
            .bind(param(V::num_tiles), i64(tiles))
            .run();
        for (const auto& [tile, bytes] : v.bytesByTile) {
            if (bytes > 0) {
                using VT = tables::variable_tiles::Col;
                tileBytes.row()
                    .bind(param(VT::variable_id), int64_t{v.id.value()})
                    .bind(param(VT::tile), int64_t{tile.value()})
                    .bind(param(VT::bytes), i64(bytes));
            }
        }
    }
    tileBytes.finish();
    auto computeSet = db.prepare(tables::insertSql(tables::compute_sets::kTable));
    for (const auto& r : c.computeSets) {
        using CS = tables::compute_sets::Col;
        computeSet.bind(param(CS::id), int64_t{r.id.value()})
            .bind(param(CS::name_id), strings.id(r.name))
            .bind(param(CS::vertex_count), i64(r.vertexCount))
            .run();
    }
    sql::BatchInsert vertices(db, tables::vertex_counts::kTable);
    for (const auto& r : c.vertexCounts) {
        using VC = tables::vertex_counts::Col;
        vertices.row()
            .bindId(param(VC::compute_set_id), r.computeSet)
            .bindId(param(VC::tile), r.tile)
            .bindId(param(VC::codelet_id), r.codelet)
            .bind(param(VC::count), i64(r.count))
            .bind(param(VC::state_bytes), i64(r.stateBytes));
    }
    vertices.finish();
}

void writeProgram(sql::Database& db, StringTable& strings, const record::CompiledRecord& c) {
    using tables::param;
    auto node = db.prepare(tables::insertSql(tables::program_nodes::kTable));
    for (const auto& n : c.programNodes) {
        using N = tables::program_nodes::Col;
        node.bind(param(N::id), int64_t{n.id.value()})
            .bindId(param(N::parent_id), n.parent)
            .bind(param(N::program_index), int64_t{n.programIndex})
            .bind(param(N::kind_id), strings.id(record::programKindName(n.kind)))
            .bind(param(N::name_id), strings.id(n.name))
            .bindId(param(N::compute_set_id), n.computeSet)
            .bind(param(N::repeat_count), i64(n.repeatCount))
            .bindId(param(N::step_id), n.step)
            .run();
    }
    auto layer = db.prepare(tables::insertSql(tables::operation_layers::kTable));
    for (const auto& n : c.programNodes) {
        // No row is the stored form of "unknown" (as in reports before 1.2).
        if (n.kind != record::ProgramKind::Block || n.layer == record::OperationLayer::Unknown) {
            continue;
        }
        using L = tables::operation_layers::Col;
        layer.bind(param(L::node_id), int64_t{n.id.value()})
            .bind(param(L::layer_id), strings.id(record::operationLayerName(n.layer)));
        if (n.libraryFunction.empty()) {
            layer.bindNull(param(L::function_id));
        } else {
            layer.bind(param(L::function_id), strings.id(n.libraryFunction));
        }
        layer.run();
    }
    const std::uint32_t numTiles = c.target.numTiles();
    auto step = db.prepare(tables::insertSql(tables::program_steps::kTable));
    auto arrays = db.prepare(tables::insertSql(tables::program_step_tiles::kTable));
    auto live =
        db.prepare(tables::insertSql(tables::step_live_variables::kTable, "INSERT OR IGNORE"));
    auto access = db.prepare(tables::insertSql(tables::step_variable_access::kTable));
    for (const auto& s : c.programSteps) {
        using C = tables::program_steps::Col;
        step.bind(param(C::id), int64_t{s.id.value()})
            .bind(param(C::node_id), int64_t{s.node.value()})
            .bind(param(C::program_index), int64_t{s.programIndex})
            .bind(param(C::kind_id), strings.id(record::programKindName(s.kind)))
            .bind(param(C::name_id), strings.id(s.name))
            .bindId(param(C::compute_set_id), s.computeSet)
            .bindId(param(C::operation_node_id), s.operation)
            .bind(param(C::sync_cycles), i64(s.syncCycles))
            .bind(param(C::exchange_phase_cycles), i64(s.exchangePhaseCycles))
            .bind(param(C::compute_phase_cycles), i64(s.computePhaseCycles))
            .bind(param(C::total_cycles), i64(s.totalCycles))
            .bind(param(C::flops), i64(s.flops))
            .bind(param(C::vertices), i64(s.vertices))
            .bind(param(C::crosses_ipus), int64_t{s.crossesIpus})
            .bind(param(C::compute_cycles_max), i64(maxOf(s.computeCycles)))
            .bind(param(C::compute_cycles_sum), i64(sumOf(s.computeCycles)))
            .bind(param(C::exchange_cycles_max), i64(maxOf(s.exchangeCycles)))
            .bind(param(C::exchange_cycles_sum), i64(sumOf(s.exchangeCycles)))
            .bind(param(C::bytes_in_sum), i64(sumOf(s.bytesIn)))
            .bind(param(C::bytes_out_sum), i64(sumOf(s.bytesOut)))
            .bind(param(C::not_always_live_bytes_max), i64(maxOf(s.notAlwaysLiveBytes)))
            .bind(param(C::live_variable_count), i64(s.liveVariables.size()))
            .bind(param(C::not_always_live_bytes_sum), i64(sumOf(s.notAlwaysLiveBytes)))
            .run();
        using T = tables::program_step_tiles::Col;
        arrays.bind(param(T::step_id), int64_t{s.id.value()})
            .bindBlob(param(T::compute_cycles), tileBlob(s.computeCycles, numTiles))
            .bindBlob(param(T::exchange_cycles), tileBlob(s.exchangeCycles, numTiles))
            .bindBlob(param(T::bytes_in), tileBlob(s.bytesIn, numTiles))
            .bindBlob(param(T::bytes_out), tileBlob(s.bytesOut, numTiles))
            .bindBlob(param(T::not_always_live_bytes), tileBlob(s.notAlwaysLiveBytes, numTiles))
            .run();
        using LV = tables::step_live_variables::Col;
        for (const record::VariableId v : s.liveVariables) {
            live.bind(param(LV::step_id), int64_t{s.id.value()})
                .bind(param(LV::variable_id), int64_t{v.value()})
                .run();
        }
        using A = tables::step_variable_access::Col;
        for (const auto& [v, mode] : accessModes(s)) {
            access.bind(param(A::step_id), int64_t{s.id.value()})
                .bind(param(A::variable_id), int64_t{v.value()})
                .bind(param(A::access), static_cast<int64_t>(mode))
                .run();
        }
    }
}

void writeMemory(sql::Database& db, const record::CompiledRecord& c) {
    using tables::param;
    sql::BatchInsert tile(db, tables::tile_memory::kTable);
    sql::BatchInsert category(db, tables::tile_memory_categories::kTable);
    sql::BatchInsert region(db, tables::tile_memory_regions::kTable);
    for (const auto& m : c.tileMemory) {
        using M = tables::tile_memory::Col;
        tile.row()
            .bind(param(M::tile), int64_t{m.tile.value()})
            .bind(param(M::total_including_gaps), i64(m.totalIncludingGaps))
            .bind(param(M::total_excluding_gaps), i64(m.totalExcludingGaps))
            .bind(param(M::gap_bytes), i64(m.gapBytes))
            .bind(param(M::always_live_bytes), i64(m.alwaysLiveBytes))
            .bind(param(M::not_always_live_peak_bytes), i64(m.notAlwaysLivePeakBytes))
            .bind(param(M::not_always_live_sum_bytes), i64(m.notAlwaysLiveSumBytes))
            .bind(param(M::overflow_bytes), i64(m.overflowBytes));
        for (std::size_t k = 0; k < m.bytesByCategory.size(); ++k) {
            if (m.bytesByCategory[k] > 0) {
                using TC = tables::tile_memory_categories::Col;
                category.row()
                    .bind(param(TC::tile), int64_t{m.tile.value()})
                    .bind(param(TC::category_id), i64(k))
                    .bind(param(TC::bytes), i64(m.bytesByCategory[k]));
            }
        }
        for (std::size_t r = 0; r < m.bytesByRegion.size(); ++r) {
            if (m.bytesByRegion[r] > 0) {
                using TR = tables::tile_memory_regions::Col;
                region.row()
                    .bind(param(TR::tile), int64_t{m.tile.value()})
                    .bind(param(TR::region_id), i64(r))
                    .bind(param(TR::bytes), i64(m.bytesByRegion[r]));
            }
        }
    }
    tile.finish();
    category.finish();
    region.finish();
    // Clustered by tile (a tile's memory map is one range read), no extra index.
    sql::BatchInsert block(db, tables::memory_blocks::kTable);
    // In primary-key order (tile, id): the layout makes blocks category by
    // category across tiles, and inserting those into the tile-clustered
    // B-tree at random places costs a page split or a seek each.
    std::vector<std::size_t> order(c.memoryBlocks.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return c.memoryBlocks[a].tile < c.memoryBlocks[b].tile;
    });
    for (const std::size_t i : order) {
        const auto& b = c.memoryBlocks[i];
        using B = tables::memory_blocks::Col;
        block.row()
            .bindId(param(B::tile), b.tile)
            .bind(param(B::id), i64(i))
            .bind(param(B::category_id), int64_t{static_cast<std::uint8_t>(b.category)})
            .bind(param(B::address), i64(b.address))
            .bind(param(B::bytes), i64(b.bytes))
            .bindId(param(B::owner), b.storedOwner());
    }
    block.finish();
}

} // namespace

void writeMemoryCategories(sql::Database& db, StringTable& strings) {
    auto insert = db.prepare(tables::insertSql(tables::memory_categories::kTable));
    for (std::size_t k = 0; k < record::kMemoryCategoryCount; ++k) {
        const auto c = static_cast<record::MemoryCategory>(k);
        using tables::param;
        using M = tables::memory_categories::Col;
        insert.bind(param(M::id), i64(k))
            .bind(param(M::key_id), strings.id(record::memoryCategoryKey(c)))
            .bind(param(M::name_id), strings.id(record::memoryCategoryName(c)))
            .run();
    }
}

void writeCompiled(sql::Database& db, StringTable& strings,
                   const record::CompiledRecord& compiled) {
    writeTarget(db, strings, compiled.target);
    writeGraph(db, strings, compiled);
    writeProgram(db, strings, compiled);
    writeMemory(db, compiled);
}

} // namespace tessera::reports
