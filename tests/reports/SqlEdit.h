#pragma once
// Runs SQL on a report file behind the writer's back: how the tests damage a
// report or make it look older. Fails the calling Qt Test on an SQLite error.
#include <sqlite3.h>

#include <QtTest>

#include <filesystem>
#include <string>

namespace tessera::testing {

inline void sqlExec(const std::filesystem::path& file, const std::string& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, message.c_str());
}

} // namespace tessera::testing
