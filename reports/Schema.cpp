#include "reports/Schema.h"

#include "reports/Sqlite.h"
#include "reports/Tables.h"

namespace tessera::reports {

namespace {

// The tables not yet described in Tables.h (the others are made from their
// column lists there). Column types are SQLite affinities. Integers are exact (cycles, bytes,
// ids); strings live once in `strings` and tables hold their ids. Optional
// references (a step's compute set...) are NULL when absent.
constexpr const char* kTables = R"sql(
CREATE TABLE meta (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE strings (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
);

CREATE TABLE target (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    name_id INTEGER NOT NULL,
    num_ipus INTEGER NOT NULL,
    tiles_per_ipu INTEGER NOT NULL,
    num_tiles INTEGER NOT NULL,
    bytes_per_tile INTEGER NOT NULL,
    memory_base_address INTEGER NOT NULL,
    clock_hz REAL NOT NULL,
    worker_contexts INTEGER NOT NULL,
    exchange_bytes_per_cycle INTEGER NOT NULL
);

CREATE TABLE target_parameters (
    position INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    value_id INTEGER NOT NULL
);

CREATE TABLE workload_parameters (
    position INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    value_id INTEGER NOT NULL
);

CREATE TABLE regions (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    bytes INTEGER NOT NULL
);

CREATE TABLE memory_categories (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL,
    name_id INTEGER NOT NULL
);

CREATE TABLE codelets (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    code_bytes INTEGER NOT NULL,
    cycle_formula_id INTEGER NOT NULL
);


CREATE TABLE variable_tiles (
    variable_id INTEGER NOT NULL,
    tile INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (variable_id, tile)
) WITHOUT ROWID;

CREATE TABLE compute_sets (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    vertex_count INTEGER NOT NULL
);

CREATE TABLE vertex_counts (
    compute_set_id INTEGER NOT NULL,
    tile INTEGER NOT NULL,
    codelet_id INTEGER NOT NULL,
    count INTEGER NOT NULL,
    state_bytes INTEGER NOT NULL,
    PRIMARY KEY (compute_set_id, tile, codelet_id)
) WITHOUT ROWID;


-- Schema 1.2: which software layer opened each Block node (an operation).
CREATE TABLE operation_layers (
    node_id INTEGER PRIMARY KEY,
    layer_id INTEGER NOT NULL,
    function_id INTEGER
);

CREATE TABLE program_step_tiles (
    step_id INTEGER PRIMARY KEY,
    compute_cycles BLOB NOT NULL,
    exchange_cycles BLOB NOT NULL,
    bytes_in BLOB NOT NULL,
    bytes_out BLOB NOT NULL,
    not_always_live_bytes BLOB NOT NULL
);

CREATE TABLE step_live_variables (
    step_id INTEGER NOT NULL,
    variable_id INTEGER NOT NULL,
    PRIMARY KEY (step_id, variable_id)
) WITHOUT ROWID;

CREATE TABLE step_variable_access (
    step_id INTEGER NOT NULL,
    variable_id INTEGER NOT NULL,
    access INTEGER NOT NULL,
    PRIMARY KEY (step_id, variable_id)
) WITHOUT ROWID;


CREATE TABLE tile_memory_categories (
    tile INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (tile, category_id)
) WITHOUT ROWID;

CREATE TABLE tile_memory_regions (
    tile INTEGER NOT NULL,
    region_id INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (tile, region_id)
) WITHOUT ROWID;

CREATE TABLE memory_blocks (
    tile INTEGER NOT NULL,
    id INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    address INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    owner INTEGER,
    PRIMARY KEY (tile, id)
) WITHOUT ROWID;



CREATE TABLE verification (
    id INTEGER PRIMARY KEY,
    workload_id INTEGER NOT NULL,
    passed INTEGER NOT NULL,
    max_abs_error REAL NOT NULL,
    detail_id INTEGER NOT NULL
);


)sql";

} // namespace

std::string schemaVersionString() {
    return std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor);
}

void createSchema(sql::Database& db) {
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId) + ";" +
            "PRAGMA user_version = " + std::to_string(kUserVersion) + ";");
    // Split after a table's DDL so the tables keep the order of the format's
    // documentation (the described ones among the others).
    const std::string ddl = kTables;
    auto until = [&](std::string_view table) {
        return ddl.find("CREATE TABLE " + std::string(table) + " (");
    };
    const std::size_t afterCodelets = until("variable_tiles");
    const std::size_t afterVertexCounts = until("program_step_tiles");
    const std::size_t afterAccess = until("tile_memory_categories");
    const std::size_t afterBlocks = until("verification");
    using namespace tables;
    db.exec(ddl.substr(0, afterCodelets));
    db.exec(createSql(variables::kTable));
    db.exec(ddl.substr(afterCodelets, afterVertexCounts - afterCodelets));
    db.exec(createSql(program_nodes::kTable) + createSql(program_steps::kTable));
    db.exec(ddl.substr(afterVertexCounts, afterAccess - afterVertexCounts));
    db.exec(createSql(tile_memory::kTable));
    db.exec(ddl.substr(afterAccess, afterBlocks - afterAccess));
    db.exec(createSql(runs::kTable) + createSql(executed_steps::kTable) +
            createSql(step_executions::kTable));
    db.exec(ddl.substr(afterBlocks));
    db.exec(createSql(lod_levels::kTable) + createSql(lod_buckets::kTable));
    db.exec("CREATE UNIQUE INDEX lod_buckets_by_position ON lod_buckets (run, level, bucket);");
}

} // namespace tessera::reports
