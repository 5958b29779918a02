#pragma once
// ReportReader's state, shared by the files that implement its queries.
#include "reports/ReportReader.h"
#include "reports/Sqlite.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::reports {

// What the structural checks at open (ReaderChecks.cpp) found: each damaged
// part of the report keeps its ReportError line, thrown by the queries that
// read that part; the rest of the report reads as usual.
struct StructureProblems {
    std::string programTree;  // program_nodes: parents that are missing, cycles
    std::string programSteps; // program_steps: nodes that are missing
    std::map<std::uint32_t, std::string> stepTiles; // program_step_tiles, by step
    std::map<std::uint32_t, std::string> runs;      // runs vs executed_steps, lod_*, by run

    std::vector<std::string> all() const;
};

struct ReportReader::Impl {
    std::unique_ptr<sql::Database> db;
    ReportInfo info;
    TargetInfo target;
    // Interned strings, loaded on first use (a few thousand in a big report).
    mutable std::unordered_map<std::int64_t, std::string> strings;
    mutable bool stringsLoaded = false;
    // Tile-group statistics of single program steps (LOD level 0), by step.
    mutable std::unordered_map<record::StepId, LodBucket> stepGroups;
    // Found at open: the program steps that exist, the memory categories, and
    // what is damaged.
    std::unordered_set<std::uint32_t> programStepIds;
    std::uint32_t memoryCategoryCount = 0;
    StructureProblems problems;

    // The string a column names ("<table.column> names no string" otherwise).
    const std::string& str(const sql::Statement& row, int column) const;
    const std::string& optionalStr(const sql::Statement& row, int column) const;
    // The program kind a column names by its string ("<table.column> names
    // \"X\", not a program kind" otherwise): the reader's one way back from
    // the database's names to the enum.
    record::ProgramKind programKind(const sql::Statement& row, int column) const;
    // A tile number read from `column`: below the target's tile count.
    std::uint32_t tile(const sql::Statement& row, int column) const;
    // A per-tile BLOB of u32 values: numTiles values (an empty BLOB means all zero).
    std::vector<std::uint32_t> tileArray(const sql::Statement& row, int column) const;
    // Schema 1.2 or later: step_executions and
    // program_steps.not_always_live_bytes_sum are there.
    bool hasStoredFigures() const;
    // SELECT of every program_steps column (a 1.0 or 1.1 report computes
    // not_always_live_bytes_sum as 0: the reader sums it).
    std::string programStepsSql() const;
    // Whether the report has the table (older schemas lack some).
    bool hasTable(std::string_view name) const;
    [[noreturn]] void corrupt(const std::string& why) const;
    // Runs the structural checks (ReaderChecks.cpp) and fills `problems`.
    void checkStructure();
    // Throws the recorded problem of a run, if any.
    void checkRun(std::uint32_t run) const;
};

} // namespace tessera::reports
