#pragma once
// Interns strings into the `strings` table while writing: each distinct
// string is stored once and tables refer to it by id (dense, from 0).
#include "reports/Sqlite.h"
#include "reports/Tables.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tessera::reports {

class StringTable {
public:
    explicit StringTable(sql::Database& db)
        : insert_(db.prepare(tables::insertSql(tables::strings::kTable))) {}

    std::int64_t id(std::string_view text) {
        const auto it = ids_.find(std::string(text));
        if (it != ids_.end()) {
            return it->second;
        }
        const auto next = static_cast<std::int64_t>(ids_.size());
        using S = tables::strings::Col;
        insert_.bind(tables::param(S::id), next).bind(tables::param(S::text), text).run();
        ids_.emplace(std::string(text), next);
        return next;
    }

private:
    sql::Statement insert_;
    std::unordered_map<std::string, std::int64_t> ids_;
};

} // namespace tessera::reports
