#pragma once
// Rows of integers (or NULL) inserted kRows to a statement: SQLite then opens
// the table's cursor and runs the statement's set-up once per batch, not once
// per row, which took 40 % off a compiled graph's 34,000 memory-block rows
// (docs/BENCHMARKS.md, "Rows in batches"). Private to reports/.
#include "engine/record/Records.h"
#include "reports/Sqlite.h"
#include "reports/Tables.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::reports::sql {

class BatchInsert {
public:
    static constexpr std::size_t kRows = 64;

    BatchInsert(Database& db, const tables::Table& table, std::string_view verb = "INSERT");

    // Starts a row (every column NULL until bound), inserting the full batch
    // before it first.
    BatchInsert& row();
    // 1-based parameter indices of one row, as Statement::bind takes them.
    BatchInsert& bind(int index, std::int64_t value);
    // An id, or NULL for record::kNone.
    BatchInsert& bindId(int index, std::uint32_t id);
    template <class Tag>
    BatchInsert& bindId(int index, record::Typedef<Tag> id) {
        return bindId(index, id.value());
    }
    // Inserts the rows not yet inserted. Call it before the transaction
    // commits: rows still held when the object goes are lost.
    void finish();
    // Drops the rows not yet inserted.
    void discard() noexcept;

private:
    std::optional<std::int64_t>& slot(int index); // of the current row
    void insert(Statement& statement, std::size_t rows);

    Database& db_;
    const tables::Table& table_;
    std::string verb_;
    std::optional<Statement> full_;                   // prepared when the first batch fills
    std::vector<std::optional<std::int64_t>> values_; // rows_ rows of table_.count
    std::size_t rows_ = 0;
};

} // namespace tessera::reports::sql
