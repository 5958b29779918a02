#include "reports/CompiledWriter.h"

#include "reports/ReportTypes.h"
#include "reports/Sqlite.h"
#include "reports/StringTable.h"
#include "reports/Tables.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <vector>

namespace tessera::reports {

namespace {

using std::int64_t;

int64_t i64(std::uint64_t v) {
    return static_cast<int64_t>(v);
}

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
std::vector<std::pair<std::uint32_t, VariableAccess>>
accessModes(const record::ProgramStepRecord& s) {
    std::map<std::uint32_t, std::uint8_t> modes;
    for (std::uint32_t v : s.reads) {
        modes[v] |= static_cast<std::uint8_t>(VariableAccess::Read);
    }
    for (std::uint32_t v : s.writes) {
        modes[v] |= static_cast<std::uint8_t>(VariableAccess::Write);
    }
    std::vector<std::pair<std::uint32_t, VariableAccess>> out;
    for (const auto& [v, m] : modes) {
        out.emplace_back(v, static_cast<VariableAccess>(m));
    }
    return out;
}

void writeTarget(sql::Database& db, StringTable& strings, const record::TargetRecord& t) {
    db.prepare(
          "INSERT INTO target (id, name_id, num_ipus, tiles_per_ipu, num_tiles, bytes_per_tile,"
          " memory_base_address, clock_hz, worker_contexts, exchange_bytes_per_cycle)"
          " VALUES (0, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
        .bind(1, strings.id(t.name))
        .bind(2, int64_t{t.numIPUs})
        .bind(3, int64_t{t.tilesPerIPU})
        .bind(4, int64_t{t.numTiles()})
        .bind(5, int64_t{t.bytesPerTile})
        .bind(6, int64_t{t.memoryBaseAddress})
        .bind(7, t.clockHz)
        .bind(8, int64_t{t.numWorkerContexts})
        .bind(9, int64_t{t.exchangeBytesPerCycle})
        .run();
    auto param = db.prepare(
        "INSERT INTO target_parameters (position, name_id, value_id) VALUES (?1, ?2, ?3)");
    for (std::size_t i = 0; i < t.parameters.size(); ++i) {
        param.bind(1, i64(i))
            .bind(2, strings.id(t.parameters[i].first))
            .bind(3, strings.id(t.parameters[i].second))
            .run();
    }
    auto region =
        db.prepare("INSERT INTO regions (id, name_id, offset, bytes) VALUES (?1, ?2, ?3, ?4)");
    std::uint64_t offset = 0;
    for (std::size_t i = 0; i < t.regions.size(); ++i) {
        region.bind(1, i64(i))
            .bind(2, strings.id(t.regions[i].first))
            .bind(3, i64(offset))
            .bind(4, int64_t{t.regions[i].second})
            .run();
        offset += t.regions[i].second;
    }
}

void writeGraph(sql::Database& db, StringTable& strings, const record::CompiledRecord& c) {
    auto codelet = db.prepare(
        "INSERT INTO codelets (id, name_id, code_bytes, cycle_formula_id) VALUES (?1, ?2, ?3, ?4)");
    for (const auto& r : c.codelets) {
        codelet.bind(1, int64_t{r.id})
            .bind(2, strings.id(r.name))
            .bind(3, int64_t{r.codeBytes})
            .bind(4, strings.id(r.cycleFormula))
            .run();
    }
    auto variable = db.prepare(tables::insertSql(tables::variables::kTable));
    auto tileBytes =
        db.prepare("INSERT INTO variable_tiles (variable_id, tile, bytes) VALUES (?1, ?2, ?3)");
    for (const auto& v : c.variables) {
        std::uint64_t total = 0;
        std::uint64_t tiles = 0;
        for (const auto& [tile, bytes] : v.bytesByTile) {
            total += bytes;
            tiles += bytes > 0 ? 1 : 0;
        }
        using V = tables::variables::Col;
        using tables::param;
        variable.bind(param(V::id), int64_t{v.id})
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
                tileBytes.bind(1, int64_t{v.id}).bind(2, int64_t{tile}).bind(3, i64(bytes)).run();
            }
        }
    }
    auto computeSet =
        db.prepare("INSERT INTO compute_sets (id, name_id, vertex_count) VALUES (?1, ?2, ?3)");
    for (const auto& r : c.computeSets) {
        computeSet.bind(1, int64_t{r.id})
            .bind(2, strings.id(r.name))
            .bind(3, i64(r.vertexCount))
            .run();
    }
    auto vertices = db.prepare(
        "INSERT INTO vertex_counts (compute_set_id, tile, codelet_id, count, state_bytes)"
        " VALUES (?1, ?2, ?3, ?4, ?5)");
    for (const auto& r : c.vertexCounts) {
        vertices.bind(1, int64_t{r.computeSet})
            .bind(2, int64_t{r.tile})
            .bind(3, int64_t{r.codelet})
            .bind(4, int64_t{r.count})
            .bind(5, i64(r.stateBytes))
            .run();
    }
}

void writeProgram(sql::Database& db, StringTable& strings, const record::CompiledRecord& c) {
    auto node = db.prepare(tables::insertSql(tables::program_nodes::kTable));
    for (const auto& n : c.programNodes) {
        using N = tables::program_nodes::Col;
        using tables::param;
        node.bind(param(N::id), int64_t{n.id})
            .bindId(param(N::parent_id), n.parent)
            .bind(param(N::program_index), int64_t{n.programIndex})
            .bind(param(N::kind_id), strings.id(record::programKindName(n.kind)))
            .bind(param(N::name_id), strings.id(n.name))
            .bindId(param(N::compute_set_id), n.computeSet)
            .bind(param(N::repeat_count), i64(n.repeatCount))
            .bindId(param(N::step_id), n.step)
            .run();
    }
    auto layer = db.prepare(
        "INSERT INTO operation_layers (node_id, layer_id, function_id) VALUES (?1, ?2, ?3)");
    for (const auto& n : c.programNodes) {
        // No row is the stored form of "unknown" (as in reports before 1.2).
        if (n.kind != record::ProgramKind::Block || n.layer == record::OperationLayer::Unknown) {
            continue;
        }
        layer.bind(1, int64_t{n.id}).bind(2, strings.id(record::operationLayerName(n.layer)));
        if (n.libraryFunction.empty()) {
            layer.bindNull(3);
        } else {
            layer.bind(3, strings.id(n.libraryFunction));
        }
        layer.run();
    }
    const std::uint32_t numTiles = c.target.numTiles();
    auto step = db.prepare(tables::insertSql(tables::program_steps::kTable));
    auto arrays =
        db.prepare("INSERT INTO program_step_tiles (step_id, compute_cycles, exchange_cycles,"
                   " bytes_in, bytes_out, not_always_live_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto live = db.prepare(
        "INSERT OR IGNORE INTO step_live_variables (step_id, variable_id) VALUES (?1, ?2)");
    auto access = db.prepare(
        "INSERT INTO step_variable_access (step_id, variable_id, access) VALUES (?1, ?2, ?3)");
    for (const auto& s : c.programSteps) {
        using C = tables::program_steps::Col;
        using tables::param;
        step.bind(param(C::id), int64_t{s.id})
            .bind(param(C::node_id), int64_t{s.node})
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
        arrays.bind(1, int64_t{s.id})
            .bindBlob(2, tileBlob(s.computeCycles, numTiles))
            .bindBlob(3, tileBlob(s.exchangeCycles, numTiles))
            .bindBlob(4, tileBlob(s.bytesIn, numTiles))
            .bindBlob(5, tileBlob(s.bytesOut, numTiles))
            .bindBlob(6, tileBlob(s.notAlwaysLiveBytes, numTiles))
            .run();
        for (std::uint32_t v : s.liveVariables) {
            live.bind(1, int64_t{s.id}).bind(2, int64_t{v}).run();
        }
        for (const auto& [v, mode] : accessModes(s)) {
            access.bind(1, int64_t{s.id})
                .bind(2, int64_t{v})
                .bind(3, static_cast<int64_t>(mode))
                .run();
        }
    }
}

void writeMemory(sql::Database& db, const record::CompiledRecord& c) {
    auto tile = db.prepare(tables::insertSql(tables::tile_memory::kTable));
    auto category = db.prepare(
        "INSERT INTO tile_memory_categories (tile, category_id, bytes) VALUES (?1, ?2, ?3)");
    auto region =
        db.prepare("INSERT INTO tile_memory_regions (tile, region_id, bytes) VALUES (?1, ?2, ?3)");
    for (const auto& m : c.tileMemory) {
        using M = tables::tile_memory::Col;
        using tables::param;
        tile.bind(param(M::tile), int64_t{m.tile})
            .bind(param(M::total_including_gaps), i64(m.totalIncludingGaps))
            .bind(param(M::total_excluding_gaps), i64(m.totalExcludingGaps))
            .bind(param(M::gap_bytes), i64(m.gapBytes))
            .bind(param(M::always_live_bytes), i64(m.alwaysLiveBytes))
            .bind(param(M::not_always_live_peak_bytes), i64(m.notAlwaysLivePeakBytes))
            .bind(param(M::not_always_live_sum_bytes), i64(m.notAlwaysLiveSumBytes))
            .bind(param(M::overflow_bytes), i64(m.overflowBytes))
            .run();
        for (std::size_t k = 0; k < m.bytesByCategory.size(); ++k) {
            if (m.bytesByCategory[k] > 0) {
                category.bind(1, int64_t{m.tile})
                    .bind(2, i64(k))
                    .bind(3, i64(m.bytesByCategory[k]))
                    .run();
            }
        }
        for (std::size_t r = 0; r < m.bytesByRegion.size(); ++r) {
            if (m.bytesByRegion[r] > 0) {
                region.bind(1, int64_t{m.tile})
                    .bind(2, i64(r))
                    .bind(3, i64(m.bytesByRegion[r]))
                    .run();
            }
        }
    }
    // Clustered by tile (a tile's memory map is one range read), no extra index.
    auto block =
        db.prepare("INSERT INTO memory_blocks (tile, id, category_id, address, bytes, owner)"
                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
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
        block.bind(1, int64_t{b.tile})
            .bind(2, i64(i))
            .bind(3, int64_t{static_cast<std::uint8_t>(b.category)})
            .bind(4, int64_t{b.address})
            .bind(5, int64_t{b.bytes})
            .bindId(6, b.owner)
            .run();
    }
}

} // namespace

void writeMemoryCategories(sql::Database& db, StringTable& strings) {
    auto insert =
        db.prepare("INSERT INTO memory_categories (id, key_id, name_id) VALUES (?1, ?2, ?3)");
    for (std::size_t k = 0; k < record::kMemoryCategoryCount; ++k) {
        const auto c = static_cast<record::MemoryCategory>(k);
        insert.bind(1, i64(k))
            .bind(2, strings.id(record::memoryCategoryKey(c)))
            .bind(3, strings.id(record::memoryCategoryName(c)))
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
