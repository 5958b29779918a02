// docs/report-format.md documents the database as written: every table and
// column of a real report (and every meta key) has its entry, and the doc
// names no table the database lacks.
#include "SmallProgram.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"
#include "reports/Schema.h"

#include <sqlite3.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace tessera;
using namespace tessera::reports;

namespace {

// The name in backticks right after `prefix` at the start of `line`
// ("### `meta`", "| `key` |"), or "" when the line has another shape.
std::string quotedAfter(const std::string& line, const std::string& prefix) {
    if (line.rfind(prefix, 0) != 0) {
        return {};
    }
    std::size_t i = line.find_first_not_of(' ', prefix.size());
    if (i == std::string::npos || line[i] != '`') {
        return {};
    }
    const std::size_t close = line.find('`', i + 1);
    return close == std::string::npos ? std::string() : line.substr(i + 1, close - i - 1);
}

// Table name -> the names written as `name` in the first cell of a table row
// of its "### `table`" section.
std::map<std::string, std::set<std::string>> parseDoc(const std::string& file) {
    std::ifstream in(file);
    std::map<std::string, std::set<std::string>> sections;
    std::string line;
    std::string current;
    while (std::getline(in, line)) {
        if (const std::string table = quotedAfter(line, "###"); !table.empty()) {
            current = table;
            sections[current];
        } else if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0) {
            current.clear(); // a section that is not a table
        } else if (const std::string name = quotedAfter(line, "|");
                   !current.empty() && !name.empty()) {
            sections[current].insert(name);
        }
    }
    return sections;
}

std::vector<std::string> column(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    std::vector<std::string> out;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        return out;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
    return out;
}

} // namespace

class SchemaDoc : public QObject {
    Q_OBJECT

private slots:
    void everyTableAndColumnIsDocumented() {
        QTemporaryDir dir;
        const std::filesystem::path path =
            std::filesystem::path(dir.path().toStdString()) / "doc.tsr";
        {
            WriterOptions options;
            options.workload = "w";
            options.workloadParameters = {{"n", "1"}};
            ReportWriter writer(path, options);
            testing::SmallProgram{}.run(writer);
            writer.finish();
        }
        const auto doc = parseDoc(TESSERA_SOURCE_DIR "/docs/report-format.md");
        QVERIFY2(!doc.empty(), "docs/report-format.md has no '### `table`' sections");

        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        const auto tables = column(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                                       "name NOT LIKE 'sqlite_%' ORDER BY name");
        QVERIFY(tables.size() > 20);
        QStringList missing;
        for (const std::string& table : tables) {
            const auto it = doc.find(table);
            if (it == doc.end()) {
                missing << QString::fromStdString("table " + table);
                continue;
            }
            for (const std::string& col :
                 column(db, "SELECT name FROM pragma_table_info('" + table + "')")) {
                if (!it->second.count(col)) {
                    missing << QString::fromStdString(table + "." + col);
                }
            }
        }
        for (const std::string& key : column(db, "SELECT key FROM meta")) {
            if (!doc.at("meta").count(key)) {
                missing << QString::fromStdString("meta key " + key);
            }
        }
        for (const auto& [name, entries] : doc) {
            if (std::find(tables.begin(), tables.end(), name) == tables.end()) {
                missing << QString::fromStdString("documented table " + name +
                                                  " is not in the database");
            }
        }
        sqlite3_close(db);
        QVERIFY2(missing.isEmpty(), qPrintable("undocumented or stale: " + missing.join(", ")));
    }

    // The tables are made from column lists (reports/Tables.h); the text
    // SQLite stores for them is what a 1.2 writer stored when the DDL was
    // written out by hand (tests/reports/schema-1.2.sql, kept from then), so
    // tools that read reports by their schema see no change.
    void schemaTextIsTheFrozen12Text() {
        QTemporaryDir dir;
        const std::filesystem::path path =
            std::filesystem::path(dir.path().toStdString()) / "schema.tsr";
        {
            ReportWriter writer(path, WriterOptions{});
            testing::SmallProgram{}.run(writer);
            writer.finish();
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        std::string written;
        for (const std::string& sql :
             column(db, "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid")) {
            written += sql + ";\n";
        }
        sqlite3_close(db);
        QFile file(TESSERA_SOURCE_DIR "/tests/reports/schema-1.2.sql");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::string frozen = file.readAll().toStdString();
        QVERIFY(!frozen.empty());
        QCOMPARE(written, frozen);
    }

    void versionInDocMatchesCode() {
        QFile doc(TESSERA_SOURCE_DIR "/docs/report-format.md");
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const std::string text = doc.readAll().toStdString();
        const std::string expected = "schema version " + schemaVersionString();
        QVERIFY2(text.find(expected) != std::string::npos,
                 ("the doc should state '" + expected + "'").c_str());
    }
};

QTEST_GUILESS_MAIN(SchemaDoc)
#include "tst_schema_doc.moc"
