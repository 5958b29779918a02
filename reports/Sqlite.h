#pragma once
// A thin RAII layer over the SQLite C API, private to reports/ (no header
// outside reports/ includes it). Errors become ReportError with one line.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tessera::reports::sql {

class Statement;
class OpenPath;

class Database {
public:
    enum class Mode { ReadOnly, Create };
    // `name` is the file errors name (the report a partial file becomes);
    // the path itself when empty.
    Database(const std::string& path, Mode mode, std::string name = {});
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    void exec(const std::string& sql);
    Statement prepare(std::string_view sql);
    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }
    // Closes now (the destructor does otherwise); throws if SQLite refuses.
    void close();
    // The message for the last error on this connection, prefixed with `what`.
    [[noreturn]] void fail(int code, std::string_view what) const;

private:
    std::unique_ptr<OpenPath> openPath_; // a path too long for SQLite, opened by its directory
    sqlite3* db_ = nullptr;
    std::string path_;
    std::string name_;
};

// A prepared statement. bind*() take 1-based indices as SQLite does; column*()
// take 0-based ones. step() returns true while a row is available.
class Statement {
public:
    Statement(Database& db, sqlite3_stmt* stmt)
        : db_(&db)
        , stmt_(stmt) {}
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bindBlob(int index, std::span<const std::byte> bytes);
    Statement& bindNull(int index);
    // Binds an id, or NULL for record::kNone.
    Statement& bindId(int index, std::uint32_t id);

    bool step();
    // Steps a statement that returns no rows, then resets it for reuse.
    void run();
    void reset();

    bool isNull(int column) const;
    std::int64_t integer(int column) const;
    std::uint64_t unsignedInteger(int column) const;
    // The column as an id, record::kNone when NULL.
    std::uint32_t id(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::span<const std::byte> blob(int column) const;

private:
    Database* db_;
    sqlite3_stmt* stmt_;
};

// Little-endian fixed-width arrays, the layout of every BLOB in a report.
std::vector<std::byte> packU32(std::span<const std::uint32_t> values);
std::vector<std::byte> packU64(std::span<const std::uint64_t> values);
// Throws ReportError naming `what` when the size is not a multiple of the width.
std::vector<std::uint32_t> unpackU32(std::span<const std::byte> bytes, std::string_view what);
std::vector<std::uint64_t> unpackU64(std::span<const std::byte> bytes, std::string_view what);

} // namespace tessera::reports::sql
