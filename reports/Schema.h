#pragma once
// The report schema: its version, identity and DDL. docs/report-format.md
// documents every table and column; tests check the two agree.
#include <cstdint>
#include <string>

namespace tessera::reports {

namespace sql {
class Database;
}

// Major changes break old readers (a column changes meaning, a table goes);
// minor ones only add (a table, a column, a meta key). Readers open any minor
// version of their major and refuse newer majors. 1.2 added the figures stored
// at write time so opening never scans executed steps or tile arrays:
// step_executions and program_steps.not_always_live_bytes_sum.
inline constexpr int kSchemaMajor = 1;
inline constexpr int kSchemaMinor = 2;
// PRAGMA application_id: "TSSR", so `file` and readers can tell a report at a glance.
inline constexpr std::int32_t kApplicationId = 0x54535352;
// PRAGMA user_version = major * 1000 + minor.
// The first minor version with the stored figures above (older reports:
// the reader computes them, see ReportReader::stepExecutions).
inline constexpr int kStoredFiguresMinor = 2;
inline constexpr int kUserVersion = kSchemaMajor * 1000 + kSchemaMinor;
// meta.format of every report.
inline constexpr const char* kFormatName = "tessera-report";

// Level-of-detail defaults: bucket k of a level holds 64^level executed steps;
// tile groups of 16 consecutive tiles (plus one group of all tiles).
inline constexpr std::uint32_t kLodFanout = 64;
inline constexpr std::uint32_t kLodGroupTiles = 16;

std::string schemaVersionString(); // "1.2"

// Creates every table and index of an empty database and sets the pragmas
// that identify it (application_id, user_version).
void createSchema(sql::Database& db);

} // namespace tessera::reports
