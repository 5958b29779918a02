#pragma once
// One column list per table (issue 16): each table's columns are written once,
// below, as an X-macro list of (name, declaration). From it come the column
// enum that binds and reads use (`Col::seq`), the CREATE TABLE in Schema.cpp,
// and the column lists of the INSERT and SELECT statements, so adding or
// moving a column cannot leave a `?17` or a `column(16)` pointing at the
// wrong one. Private to reports/.
#include <array>
#include <initializer_list>
#include <string>
#include <string_view>

namespace tessera::reports::tables {

struct Column {
    std::string_view name;
    std::string_view declaration; // type and constraints, e.g. "INTEGER NOT NULL"
};

struct Table {
    std::string_view name;
    const Column* columns;
    std::size_t count;
    std::string_view extra; // table constraints after the columns ("PRIMARY KEY (a, b)")
    bool withoutRowid = false;
};

// CREATE TABLE name (columns..., extra) [WITHOUT ROWID];
std::string createSql(const Table& t);
// INSERT INTO name (a, b, c) VALUES (?1, ?2, ?3): parameter k + 1 is column k.
std::string insertSql(const Table& t, std::string_view verb = "INSERT");
// The same for `rows` rows in one statement: row r's column k is parameter
// r * t.count + k + 1.
std::string insertSql(const Table& t, std::size_t rows, std::string_view verb = "INSERT");
// SELECT a, b, c FROM name: result column k is column k.
std::string selectSql(const Table& t);
// A column computed instead of read: SELECT ..., <expression> AS <column>, ...
struct Computed {
    std::string_view column;
    std::string_view expression;
};
// SELECT of t's columns from `source` (a table, a join), some of them
// computed ("count(*)" from executed_steps for step_executions.executions):
// result column k is still column k of t.
std::string selectSql(const Table& t, std::string_view source,
                      std::initializer_list<Computed> computed);

// Bind parameters are 1-based, result columns 0-based; both come from the
// same enum value.
template <typename C>
constexpr int param(C column) {
    return static_cast<int>(column) + 1;
}
template <typename C>
constexpr int col(C column) {
    return static_cast<int>(column);
}

#define TESSERA_COLUMN_ENUM(name, decl) name,
#define TESSERA_COLUMN_SPEC(name, decl) Column{#name, decl},
// Declares namespace `ns` with `enum class Col` and `kTable`.
#define TESSERA_TABLE(ns, LIST, extra, withoutRowid)                                               \
    namespace ns {                                                                                 \
    enum class Col : int { LIST(TESSERA_COLUMN_ENUM) };                                            \
    inline constexpr Column kColumns[] = {LIST(TESSERA_COLUMN_SPEC)};                              \
    inline constexpr Table kTable{#ns, kColumns, std::size(kColumns), extra, withoutRowid};        \
    }

// Column types are SQLite affinities. Integers are exact (cycles, bytes, ids);
// strings live once in `strings` and tables hold their ids. Optional
// references (a step's compute set...) are NULL when absent.
#define TESSERA_META(X)                                                                            \
    X(key, "TEXT PRIMARY KEY NOT NULL")                                                            \
    X(value, "TEXT NOT NULL")
TESSERA_TABLE(meta, TESSERA_META, "", true)

#define TESSERA_STRINGS(X)                                                                         \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(text, "TEXT NOT NULL UNIQUE")
TESSERA_TABLE(strings, TESSERA_STRINGS, "", false)

#define TESSERA_TARGET(X)                                                                          \
    X(id, "INTEGER PRIMARY KEY CHECK (id = 0)")                                                    \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(num_ipus, "INTEGER NOT NULL")                                                                \
    X(tiles_per_ipu, "INTEGER NOT NULL")                                                           \
    X(num_tiles, "INTEGER NOT NULL")                                                               \
    X(bytes_per_tile, "INTEGER NOT NULL")                                                          \
    X(memory_base_address, "INTEGER NOT NULL")                                                     \
    X(clock_hz, "REAL NOT NULL")                                                                   \
    X(worker_contexts, "INTEGER NOT NULL")                                                         \
    X(exchange_bytes_per_cycle, "INTEGER NOT NULL")
TESSERA_TABLE(target, TESSERA_TARGET, "", false)

#define TESSERA_TARGET_PARAMETERS(X)                                                               \
    X(position, "INTEGER PRIMARY KEY")                                                             \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(value_id, "INTEGER NOT NULL")
TESSERA_TABLE(target_parameters, TESSERA_TARGET_PARAMETERS, "", false)

#define TESSERA_WORKLOAD_PARAMETERS(X)                                                             \
    X(position, "INTEGER PRIMARY KEY")                                                             \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(value_id, "INTEGER NOT NULL")
TESSERA_TABLE(workload_parameters, TESSERA_WORKLOAD_PARAMETERS, "", false)

#define TESSERA_REGIONS(X)                                                                         \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(offset, "INTEGER NOT NULL")                                                                  \
    X(bytes, "INTEGER NOT NULL")
TESSERA_TABLE(regions, TESSERA_REGIONS, "", false)

#define TESSERA_MEMORY_CATEGORIES(X)                                                               \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(key_id, "INTEGER NOT NULL")                                                                  \
    X(name_id, "INTEGER NOT NULL")
TESSERA_TABLE(memory_categories, TESSERA_MEMORY_CATEGORIES, "", false)

#define TESSERA_CODELETS(X)                                                                        \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(code_bytes, "INTEGER NOT NULL")                                                              \
    X(cycle_formula_id, "INTEGER NOT NULL")
TESSERA_TABLE(codelets, TESSERA_CODELETS, "", false)

#define TESSERA_VARIABLES(X)                                                                       \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(type_id, "INTEGER NOT NULL")                                                                 \
    X(shape, "BLOB NOT NULL")                                                                      \
    X(num_elements, "INTEGER NOT NULL")                                                            \
    X(is_constant, "INTEGER NOT NULL")                                                             \
    X(always_live, "INTEGER NOT NULL")                                                             \
    X(host_access, "INTEGER NOT NULL")                                                             \
    X(is_exchange_buffer, "INTEGER NOT NULL")                                                      \
    X(first_step, "INTEGER")                                                                       \
    X(last_step, "INTEGER")                                                                        \
    X(total_bytes, "INTEGER NOT NULL")                                                             \
    X(num_tiles, "INTEGER NOT NULL")
TESSERA_TABLE(variables, TESSERA_VARIABLES, "", false)

#define TESSERA_VARIABLE_TILES(X)                                                                  \
    X(variable_id, "INTEGER NOT NULL")                                                             \
    X(tile, "INTEGER NOT NULL")                                                                    \
    X(bytes, "INTEGER NOT NULL")
TESSERA_TABLE(variable_tiles, TESSERA_VARIABLE_TILES, "PRIMARY KEY (variable_id, tile)", true)

#define TESSERA_COMPUTE_SETS(X)                                                                    \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(vertex_count, "INTEGER NOT NULL")
TESSERA_TABLE(compute_sets, TESSERA_COMPUTE_SETS, "", false)

#define TESSERA_VERTEX_COUNTS(X)                                                                   \
    X(compute_set_id, "INTEGER NOT NULL")                                                          \
    X(tile, "INTEGER NOT NULL")                                                                    \
    X(codelet_id, "INTEGER NOT NULL")                                                              \
    X(count, "INTEGER NOT NULL")                                                                   \
    X(state_bytes, "INTEGER NOT NULL")
TESSERA_TABLE(vertex_counts, TESSERA_VERTEX_COUNTS,
              "PRIMARY KEY (compute_set_id, tile, codelet_id)", true)

// Added in 1.2: which software layer opened each Block node (an operation).
#define TESSERA_OPERATION_LAYERS(X)                                                                \
    X(node_id, "INTEGER PRIMARY KEY")                                                              \
    X(layer_id, "INTEGER NOT NULL")                                                                \
    X(function_id, "INTEGER")
TESSERA_TABLE(operation_layers, TESSERA_OPERATION_LAYERS, "", false)

#define TESSERA_PROGRAM_NODES(X)                                                                   \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(parent_id, "INTEGER")                                                                        \
    X(program_index, "INTEGER NOT NULL")                                                           \
    X(kind_id, "INTEGER NOT NULL")                                                                 \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(compute_set_id, "INTEGER")                                                                   \
    X(repeat_count, "INTEGER NOT NULL")                                                            \
    X(step_id, "INTEGER")
TESSERA_TABLE(program_nodes, TESSERA_PROGRAM_NODES, "", false)

// Compile-time program steps (docs/report-format.md, `program_steps`).
#define TESSERA_PROGRAM_STEPS(X)                                                                   \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(node_id, "INTEGER NOT NULL")                                                                 \
    X(program_index, "INTEGER NOT NULL")                                                           \
    X(kind_id, "INTEGER NOT NULL")                                                                 \
    X(name_id, "INTEGER NOT NULL")                                                                 \
    X(compute_set_id, "INTEGER")                                                                   \
    X(operation_node_id, "INTEGER")                                                                \
    X(sync_cycles, "INTEGER NOT NULL")                                                             \
    X(exchange_phase_cycles, "INTEGER NOT NULL")                                                   \
    X(compute_phase_cycles, "INTEGER NOT NULL")                                                    \
    X(total_cycles, "INTEGER NOT NULL")                                                            \
    X(flops, "INTEGER NOT NULL")                                                                   \
    X(vertices, "INTEGER NOT NULL")                                                                \
    X(crosses_ipus, "INTEGER NOT NULL")                                                            \
    X(compute_cycles_max, "INTEGER NOT NULL")                                                      \
    X(compute_cycles_sum, "INTEGER NOT NULL")                                                      \
    X(exchange_cycles_max, "INTEGER NOT NULL")                                                     \
    X(exchange_cycles_sum, "INTEGER NOT NULL")                                                     \
    X(bytes_in_sum, "INTEGER NOT NULL")                                                            \
    X(bytes_out_sum, "INTEGER NOT NULL")                                                           \
    X(not_always_live_bytes_max, "INTEGER NOT NULL")                                               \
    X(live_variable_count, "INTEGER NOT NULL")                                                     \
    X(not_always_live_bytes_sum, "INTEGER NOT NULL DEFAULT 0")
TESSERA_TABLE(program_steps, TESSERA_PROGRAM_STEPS, "", false)

#define TESSERA_PROGRAM_STEP_TILES(X)                                                              \
    X(step_id, "INTEGER PRIMARY KEY")                                                              \
    X(compute_cycles, "BLOB NOT NULL")                                                             \
    X(exchange_cycles, "BLOB NOT NULL")                                                            \
    X(bytes_in, "BLOB NOT NULL")                                                                   \
    X(bytes_out, "BLOB NOT NULL")                                                                  \
    X(not_always_live_bytes, "BLOB NOT NULL")
TESSERA_TABLE(program_step_tiles, TESSERA_PROGRAM_STEP_TILES, "", false)

#define TESSERA_STEP_LIVE_VARIABLES(X)                                                             \
    X(step_id, "INTEGER NOT NULL")                                                                 \
    X(variable_id, "INTEGER NOT NULL")
TESSERA_TABLE(step_live_variables, TESSERA_STEP_LIVE_VARIABLES,
              "PRIMARY KEY (step_id, variable_id)", true)

#define TESSERA_STEP_VARIABLE_ACCESS(X)                                                            \
    X(step_id, "INTEGER NOT NULL")                                                                 \
    X(variable_id, "INTEGER NOT NULL")                                                             \
    X(access, "INTEGER NOT NULL")
TESSERA_TABLE(step_variable_access, TESSERA_STEP_VARIABLE_ACCESS,
              "PRIMARY KEY (step_id, variable_id)", true)

#define TESSERA_TILE_MEMORY(X)                                                                     \
    X(tile, "INTEGER PRIMARY KEY")                                                                 \
    X(total_including_gaps, "INTEGER NOT NULL")                                                    \
    X(total_excluding_gaps, "INTEGER NOT NULL")                                                    \
    X(gap_bytes, "INTEGER NOT NULL")                                                               \
    X(always_live_bytes, "INTEGER NOT NULL")                                                       \
    X(not_always_live_peak_bytes, "INTEGER NOT NULL")                                              \
    X(not_always_live_sum_bytes, "INTEGER NOT NULL")                                               \
    X(overflow_bytes, "INTEGER NOT NULL")
TESSERA_TABLE(tile_memory, TESSERA_TILE_MEMORY, "", false)

#define TESSERA_TILE_MEMORY_CATEGORIES(X)                                                          \
    X(tile, "INTEGER NOT NULL")                                                                    \
    X(category_id, "INTEGER NOT NULL")                                                             \
    X(bytes, "INTEGER NOT NULL")
TESSERA_TABLE(tile_memory_categories, TESSERA_TILE_MEMORY_CATEGORIES,
              "PRIMARY KEY (tile, category_id)", true)

#define TESSERA_TILE_MEMORY_REGIONS(X)                                                             \
    X(tile, "INTEGER NOT NULL")                                                                    \
    X(region_id, "INTEGER NOT NULL")                                                               \
    X(bytes, "INTEGER NOT NULL")
TESSERA_TABLE(tile_memory_regions, TESSERA_TILE_MEMORY_REGIONS, "PRIMARY KEY (tile, region_id)",
              true)

#define TESSERA_MEMORY_BLOCKS(X)                                                                   \
    X(tile, "INTEGER NOT NULL")                                                                    \
    X(id, "INTEGER NOT NULL")                                                                      \
    X(category_id, "INTEGER NOT NULL")                                                             \
    X(address, "INTEGER NOT NULL")                                                                 \
    X(bytes, "INTEGER NOT NULL")                                                                   \
    X(owner, "INTEGER")
TESSERA_TABLE(memory_blocks, TESSERA_MEMORY_BLOCKS, "PRIMARY KEY (tile, id)", true)

#define TESSERA_RUNS(X)                                                                            \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(program_index, "INTEGER NOT NULL")                                                           \
    X(start_cycle, "INTEGER NOT NULL")                                                             \
    X(steps, "INTEGER NOT NULL")                                                                   \
    X(cycles, "INTEGER NOT NULL")                                                                  \
    X(compute_cycles, "INTEGER NOT NULL")                                                          \
    X(exchange_cycles, "INTEGER NOT NULL")                                                         \
    X(sync_cycles, "INTEGER NOT NULL")                                                             \
    X(completed, "INTEGER NOT NULL")                                                               \
    X(error_id, "INTEGER")
TESSERA_TABLE(runs, TESSERA_RUNS, "", false)

#define TESSERA_EXECUTED_STEPS(X)                                                                  \
    X(run, "INTEGER NOT NULL")                                                                     \
    X(seq, "INTEGER NOT NULL")                                                                     \
    X(program_step, "INTEGER NOT NULL")                                                            \
    X(start_cycle, "INTEGER NOT NULL")                                                             \
    X(cycles, "INTEGER NOT NULL")
TESSERA_TABLE(executed_steps, TESSERA_EXECUTED_STEPS, "PRIMARY KEY (run, seq)", true)

// Added in 1.2: executions of each program step in each run, counted while
// writing, so opening a report never scans executed_steps.
#define TESSERA_STEP_EXECUTIONS(X)                                                                 \
    X(run, "INTEGER NOT NULL")                                                                     \
    X(program_step, "INTEGER NOT NULL")                                                            \
    X(executions, "INTEGER NOT NULL")
TESSERA_TABLE(step_executions, TESSERA_STEP_EXECUTIONS, "PRIMARY KEY (run, program_step)", true)

#define TESSERA_VERIFICATION(X)                                                                    \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(workload_id, "INTEGER NOT NULL")                                                             \
    X(passed, "INTEGER NOT NULL")                                                                  \
    X(max_abs_error, "REAL NOT NULL")                                                              \
    X(detail_id, "INTEGER NOT NULL")
TESSERA_TABLE(verification, TESSERA_VERIFICATION, "", false)

#define TESSERA_LOD_LEVELS(X)                                                                      \
    X(run, "INTEGER NOT NULL")                                                                     \
    X(level, "INTEGER NOT NULL")                                                                   \
    X(bucket_steps, "INTEGER NOT NULL")                                                            \
    X(buckets, "INTEGER NOT NULL")                                                                 \
    X(group_tiles, "INTEGER NOT NULL")                                                             \
    X(groups, "INTEGER NOT NULL")
TESSERA_TABLE(lod_levels, TESSERA_LOD_LEVELS, "PRIMARY KEY (run, level)", true)

#define TESSERA_LOD_BUCKETS(X)                                                                     \
    X(id, "INTEGER PRIMARY KEY")                                                                   \
    X(run, "INTEGER NOT NULL")                                                                     \
    X(level, "INTEGER NOT NULL")                                                                   \
    X(bucket, "INTEGER NOT NULL")                                                                  \
    X(first_seq, "INTEGER NOT NULL")                                                               \
    X(steps, "INTEGER NOT NULL")                                                                   \
    X(start_cycle, "INTEGER NOT NULL")                                                             \
    X(cycles, "INTEGER NOT NULL")                                                                  \
    X(compute_phase_cycles, "INTEGER NOT NULL")                                                    \
    X(exchange_phase_cycles, "INTEGER NOT NULL")                                                   \
    X(sync_phase_cycles, "INTEGER NOT NULL")                                                       \
    X(max_step_cycles, "INTEGER NOT NULL")                                                         \
    X(compute, "BLOB NOT NULL")                                                                    \
    X(exchange, "BLOB NOT NULL")                                                                   \
    X(sync, "BLOB NOT NULL")
TESSERA_TABLE(lod_buckets, TESSERA_LOD_BUCKETS, "", false)

// Every table of a report, in creation order (the order of
// docs/report-format.md, which the damage tests walk).
inline constexpr std::array kTables = {
    &meta::kTable,
    &strings::kTable,
    &target::kTable,
    &target_parameters::kTable,
    &workload_parameters::kTable,
    &regions::kTable,
    &memory_categories::kTable,
    &codelets::kTable,
    &variables::kTable,
    &variable_tiles::kTable,
    &compute_sets::kTable,
    &vertex_counts::kTable,
    &operation_layers::kTable,
    &program_nodes::kTable,
    &program_steps::kTable,
    &program_step_tiles::kTable,
    &step_live_variables::kTable,
    &step_variable_access::kTable,
    &tile_memory::kTable,
    &tile_memory_categories::kTable,
    &tile_memory_regions::kTable,
    &memory_blocks::kTable,
    &runs::kTable,
    &executed_steps::kTable,
    &step_executions::kTable,
    &verification::kTable,
    &lod_levels::kTable,
    &lod_buckets::kTable,
};

} // namespace tessera::reports::tables
