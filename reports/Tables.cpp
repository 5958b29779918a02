#include "reports/Tables.h"

#include <algorithm>

namespace tessera::reports::tables {

namespace {

std::string names(const Table& t) {
    std::string out;
    for (std::size_t i = 0; i < t.count; ++i) {
        out += i == 0 ? "" : ", ";
        out += t.columns[i].name;
    }
    return out;
}

} // namespace

std::string createSql(const Table& t) {
    std::string sql = "CREATE TABLE " + std::string(t.name) + " (\n";
    for (std::size_t i = 0; i < t.count; ++i) {
        sql +=
            "    " + std::string(t.columns[i].name) + " " + std::string(t.columns[i].declaration);
        sql += i + 1 < t.count || !t.extra.empty() ? ",\n" : "\n";
    }
    if (!t.extra.empty()) {
        sql += "    " + std::string(t.extra) + "\n";
    }
    sql += t.withoutRowid ? ") WITHOUT ROWID;\n" : ");\n";
    return sql;
}

std::string insertSql(const Table& t, std::string_view verb) {
    return insertSql(t, 1, verb);
}

std::string insertSql(const Table& t, std::size_t rows, std::string_view verb) {
    std::string sql =
        std::string(verb) + " INTO " + std::string(t.name) + " (" + names(t) + ") VALUES ";
    for (std::size_t r = 0; r < rows; ++r) {
        sql += r == 0 ? "(" : ", (";
        for (std::size_t i = 0; i < t.count; ++i) {
            sql += (i == 0 ? "?" : ", ?") + std::to_string(r * t.count + i + 1);
        }
        sql += ")";
    }
    return sql;
}

std::string selectSql(const Table& t) {
    return "SELECT " + names(t) + " FROM " + std::string(t.name);
}

std::string selectSql(const Table& t, std::string_view source,
                      std::initializer_list<Computed> computed) {
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < t.count; ++i) {
        sql += i == 0 ? "" : ", ";
        const std::string_view name = t.columns[i].name;
        const auto c = std::find_if(computed.begin(), computed.end(),
                                    [&](const Computed& x) { return x.column == name; });
        sql += c == computed.end() ? std::string(name)
                                   : std::string(c->expression) + " AS " + std::string(name);
    }
    return sql + " FROM " + std::string(source);
}

} // namespace tessera::reports::tables
