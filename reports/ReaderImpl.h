#pragma once
// ReportReader's state, shared by the files that implement its queries.
#include "reports/ReportReader.h"
#include "reports/Sqlite.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::reports {

struct ReportReader::Impl {
    std::unique_ptr<sql::Database> db;
    ReportInfo info;
    TargetInfo target;
    // Interned strings, loaded on first use (a few thousand in a big report).
    mutable std::unordered_map<std::int64_t, std::string> strings;
    mutable bool stringsLoaded = false;
    // Tile-group statistics of single program steps (LOD level 0), by step.
    mutable std::unordered_map<std::uint32_t, LodBucket> stepGroups;

    const std::string& str(std::int64_t id) const;
    const std::string& str(const sql::Statement& row, int column) const {
        return str(row.integer(column));
    }
    // A per-tile BLOB as numTiles values (an empty BLOB means all zero).
    std::vector<std::uint32_t> tileArray(std::span<const std::byte> blob, const char* what) const;
    [[noreturn]] void corrupt(const std::string& why) const;
};

} // namespace tessera::reports
