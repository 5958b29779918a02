#include "reports/BatchInsert.h"

#include "reports/ReportError.h"

#include <string>

namespace tessera::reports::sql {

BatchInsert::BatchInsert(Database& db, const tables::Table& table, std::string_view verb)
    : db_(db)
    , table_(table)
    , verb_(verb) {
    values_.reserve(kRows * table_.count);
}

BatchInsert& BatchInsert::row() {
    if (rows_ == kRows) {
        if (!full_) {
            full_.emplace(db_.prepare(tables::insertSql(table_, kRows, verb_)));
        }
        insert(*full_, kRows);
    }
    values_.resize(values_.size() + table_.count);
    ++rows_;
    return *this;
}

std::optional<std::int64_t>& BatchInsert::slot(int index) {
    if (rows_ == 0 || index < 1 || static_cast<std::size_t>(index) > table_.count) {
        throw ReportError("internal: parameter " + std::to_string(index) + " of a row of " +
                          std::string(table_.name) + " bound outside a row");
    }
    return values_[(rows_ - 1) * table_.count + static_cast<std::size_t>(index - 1)];
}

BatchInsert& BatchInsert::bind(int index, std::int64_t value) {
    slot(index) = value;
    return *this;
}

BatchInsert& BatchInsert::bindId(int index, std::uint32_t id) {
    auto& value = slot(index);
    if (id == record::kNone) {
        value.reset();
    } else {
        value = std::int64_t{id};
    }
    return *this;
}

void BatchInsert::finish() {
    if (rows_ == 0) {
        return;
    }
    if (rows_ == kRows && full_) {
        insert(*full_, kRows);
        return;
    }
    Statement last = db_.prepare(tables::insertSql(table_, rows_, verb_));
    insert(last, rows_);
}

void BatchInsert::discard() noexcept {
    values_.clear();
    rows_ = 0;
}

void BatchInsert::insert(Statement& statement, std::size_t rows) {
    for (std::size_t i = 0; i < rows * table_.count; ++i) {
        const int index = static_cast<int>(i + 1);
        if (values_[i]) {
            statement.bind(index, *values_[i]);
        } else {
            statement.bindNull(index);
        }
    }
    statement.run();
    values_.clear();
    rows_ = 0;
}

} // namespace tessera::reports::sql
