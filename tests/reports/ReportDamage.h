#pragma once
// Damaging real reports the way a user's disk, a bad copy or a hand edit
// does, for the robustness tests (reader and CLI in tests/reports, the GUI
// in tests/app) and the fuzzers' seeds (tests/fuzz). Tests may use SQLite
// directly; reports/ keeps it private to the product.
//
// - damageClasses(): one report damage per kind the issue found by stack
//   (per-step blobs cut, stored as text, grown; LOD levels and buckets that
//   disagree; a program tree with a cycle; a step count far beyond the
//   executed steps; a dropped table; out-of-range values), each with the
//   table or column a clear message must name.
// - reportColumns() and setColumn(): the column-wise value sweep (every
//   column of every table set to NULL, -1, INT64_MAX and text).
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

namespace tessera::testing {

// Runs `sql` on the database at `path`; returns SQLite's error ("" on success).
inline std::string sqlOn(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.string().c_str(), &db) != SQLITE_OK) {
        const std::string error = db ? sqlite3_errmsg(db) : "cannot open";
        sqlite3_close(db);
        return error;
    }
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    std::string error = rc == SQLITE_OK ? "" : (message ? message : "error");
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

// Lets every column hold NULL: the schema's NOT NULL constraints are edited
// out (the rows' format does not change), as a hand-edited file could be.
inline std::string allowNulls(const std::filesystem::path& path) {
    return sqlOn(path, "PRAGMA writable_schema = ON;"
                       " UPDATE sqlite_schema SET sql = replace(sql, 'NOT NULL', '')"
                       " WHERE type = 'table';"
                       " PRAGMA writable_schema = OFF;");
}

struct Damage {
    const char* name; // also a file name
    const char* sql;
    // What the message shown must contain (a table or "table.column"); empty
    // when the change is not damage (the report must open and show as usual).
    const char* names;
};

// The damage the issue found by stack, on a report with at least two LOD
// levels (SmallProgram's, or a stress workload's).
inline const std::vector<Damage>& damageClasses() {
    static const std::vector<Damage> list = {
        {"step-tiles-cut-to-3-bytes", "UPDATE program_step_tiles SET compute_cycles = x'010203'",
         "program_step_tiles.compute_cycles"},
        {"step-tiles-as-text", "UPDATE program_step_tiles SET exchange_cycles = 'abcdefgh'",
         "program_step_tiles.exchange_cycles"},
        {"step-tiles-grown-to-1-mib", "UPDATE program_step_tiles SET bytes_in = zeroblob(1048576)",
         "program_step_tiles.bytes_in"},
        {"step-tiles-int64-max",
         "UPDATE program_step_tiles SET not_always_live_bytes = 9223372036854775807",
         "program_step_tiles.not_always_live_bytes"},
        {"lod-blob-5-bytes", "UPDATE lod_buckets SET compute = x'0102030405'",
         "lod_buckets.compute"},
        {"lod-groups-1e9", "UPDATE lod_levels SET groups = 1000000000", "lod_levels.groups"},
        {"lod-bucket-steps-0", "UPDATE lod_levels SET bucket_steps = 0", "lod_levels.bucket_steps"},
        {"lod-levels-null", "UPDATE lod_levels SET buckets = NULL", "lod_levels.buckets"},
        {"lod-levels-minus-1", "UPDATE lod_levels SET group_tiles = -1", "lod_levels.group_tiles"},
        {"lod-buckets-text", "UPDATE lod_buckets SET first_seq = 'text'", "lod_buckets.first_seq"},
        {"lod-buckets-minus-1", "UPDATE lod_buckets SET cycles = -1", "lod_buckets.cycles"},
        {"program-node-own-parent",
         "UPDATE program_nodes SET parent_id = id WHERE id = (SELECT max(id) FROM program_nodes)",
         "program_nodes.parent_id"},
        {"program-node-cycle",
         "UPDATE program_nodes SET parent_id = (SELECT max(id) FROM program_nodes)"
         " WHERE parent_id IS NULL",
         "program_nodes.parent_id"},
        {"program-node-missing-parent",
         "UPDATE program_nodes SET parent_id = 99999 WHERE id = (SELECT max(id) FROM "
         "program_nodes)",
         "program_nodes.parent_id"},
        // A kind name no Tessera knows (a newer writer, a hand edit): named, not a crash.
        {"program-step-kind-unknown",
         "INSERT INTO strings(id, text) VALUES (999999, 'Teleport');"
         " UPDATE program_steps SET kind_id = 999999 WHERE id = 0",
         "program_steps.kind_id"},
        {"program-node-kind-unknown",
         "INSERT INTO strings(id, text) VALUES (999998, 'Teleport');"
         " UPDATE program_nodes SET kind_id = 999998 WHERE id = 0",
         "program_nodes.kind_id"},
        {"runs-steps-1e15", "UPDATE runs SET steps = 1000000000000000", "runs.steps"},
        {"runs-steps-int64-max", "UPDATE runs SET steps = 9223372036854775807", "runs.steps"},
        {"executed-step-names-missing-step",
         "UPDATE executed_steps SET program_step = 99999 WHERE seq = 3",
         "executed_steps.program_step"},
        {"dropped-memory-blocks", "DROP TABLE memory_blocks", "memory_blocks"},
        {"dropped-lod-levels", "DROP TABLE lod_levels", "lod_levels"},
        {"memory-block-address-null", "UPDATE memory_blocks SET address = NULL",
         "memory_blocks.address"},
        {"memory-block-address-minus-1", "UPDATE memory_blocks SET address = -1",
         "memory_blocks.address"},
        {"memory-block-address-text", "UPDATE memory_blocks SET address = 'text'",
         "memory_blocks.address"},
        {"memory-block-address-int64-max", "UPDATE memory_blocks SET address = 9223372036854775807",
         "memory_blocks.address"},
        // A tile's addresses are 32-bit: a block past them is damage, not wrapped.
        {"memory-block-address-2^32", "UPDATE memory_blocks SET address = 4294967296",
         "memory_blocks.address"},
        {"memory-block-ends-past-2^32", "UPDATE memory_blocks SET bytes = 4294967295",
         "memory_blocks.bytes"},
        {"memory-block-bytes-int64-max", "UPDATE memory_blocks SET bytes = 9223372036854775807",
         "memory_blocks.bytes"},
        // Stack (category 9) has no owner: an owner there is not read as some other kind's id.
        {"memory-block-stack-with-owner",
         "UPDATE memory_blocks SET owner = 5 WHERE category_id = 9", "memory_blocks.owner"},
        // A tile's vertices of one codelet and their state are counted in 32 bits.
        {"vertex-count-2^32", "UPDATE vertex_counts SET count = 4294967296", "vertex_counts.count"},
        {"vertex-state-bytes-2^32", "UPDATE vertex_counts SET state_bytes = 4294967296",
         "vertex_counts.state_bytes"},
        {"tile-memory-int64-max",
         "UPDATE tile_memory SET total_including_gaps = 9223372036854775807",
         "tile_memory.total_including_gaps"},
        {"empty-memory-tables",
         "DELETE FROM tile_memory; DELETE FROM tile_memory_categories;"
         " DELETE FROM tile_memory_regions; DELETE FROM memory_blocks",
         ""},
        {"user-version-0", "PRAGMA user_version = 0", "user_version"},
        {"user-version-minus-1", "PRAGMA user_version = -1", "user_version"},
    };
    return list;
}

// Applies `damage` to `path` (NOT NULL constraints removed first).
inline std::string applyDamage(const std::filesystem::path& path, const Damage& damage) {
    std::string error = allowNulls(path);
    return error.empty() ? sqlOn(path, damage.sql) : error;
}

struct Column {
    std::string table;
    std::string column;
};

// Every column of every table of the report, in schema order.
inline std::vector<Column> reportColumns(const std::filesystem::path& path) {
    std::vector<Column> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return out;
    }
    sqlite3_stmt* q = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p"
                       " WHERE m.type = 'table' ORDER BY m.rowid, p.cid",
                       -1, &q, nullptr);
    while (q && sqlite3_step(q) == SQLITE_ROW) {
        out.push_back({reinterpret_cast<const char*>(sqlite3_column_text(q, 0)),
                       reinterpret_cast<const char*>(sqlite3_column_text(q, 1))});
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return out;
}

// The values of the sweep, as SQL literals.
inline const std::vector<std::string>& sweepValues() {
    static const std::vector<std::string> values = {"NULL", "-1", "9223372036854775807", "'text'"};
    return values;
}

// Sets `column` of every row of `table` to `value` (an SQL literal); where
// that breaks a key, only the first row. False when the database cannot hold
// the value there at all (an INTEGER PRIMARY KEY takes no text).
inline bool setColumn(const std::filesystem::path& path, const Column& c,
                      const std::string& value) {
    const std::string set = "UPDATE \"" + c.table + "\" SET \"" + c.column + "\" = " + value;
    if (sqlOn(path, set).empty()) {
        return true;
    }
    // One row: the first by the table's own order (rowid or key).
    return sqlOn(path, set + " WHERE \"" + c.column + "\" IS (SELECT \"" + c.column + "\" FROM \"" +
                           c.table + "\" LIMIT 1)")
        .empty();
}

} // namespace tessera::testing
