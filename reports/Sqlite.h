#pragma once
// A thin RAII layer over the SQLite C API, private to reports/ (no header
// outside reports/ includes it). Errors become ReportError with one line.
#include "engine/record/Ids.h"

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
    // The one value a query computes (a pragma, a count(*)): the first
    // column of its first row, 0 or "" when it returns no row.
    std::int64_t integerOf(std::string_view sql);
    std::string textOf(std::string_view sql);
    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }
    // The file errors name.
    const std::string& name() const { return name_; }
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
    // Named parameters (":run" in the SQL) for WHERE clauses; a name the
    // statement lacks is a bug and throws.
    Statement& bind(std::string_view name, std::int64_t value);
    Statement& bind(std::string_view name, std::string_view text);
    Statement& bindId(std::string_view name, std::uint32_t id);
    // Strong ids bind their value, NULL for none.
    template <class Tag>
    Statement& bindId(int index, record::Typedef<Tag> id) {
        return bindId(index, id.value());
    }
    template <class Tag>
    Statement& bindId(std::string_view name, record::Typedef<Tag> id) {
        return bindId(name, id.value());
    }

    bool step();
    // Steps a statement that returns no rows, then resets it for reuse.
    void run();
    void reset();

    bool isNull(int column) const;
    // Raw reads, for what the reader computes itself (pragmas, count(*)).
    std::int64_t integer(int column) const;
    std::uint64_t unsignedInteger(int column) const;
    // The column as an id, record::kNone when NULL.
    std::uint32_t id(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::span<const std::byte> blob(int column) const;

    // Checked reads of a report's columns. A value of the wrong type (NULL,
    // text, a blob) or out of range throws a ReportError that names the file,
    // the table and the column, e.g. "R.tsr: the report is corrupt
    // (memory_blocks.bytes is -1, not a count)".
    // An integer in [0, kMaxCount]: bytes, cycles, steps, flops.
    std::uint64_t count(int column) const;
    // count() of what a record keeps in 32 bits: vertices of a tile, a tile's bytes.
    std::uint32_t count32(int column) const;
    // An integer in [0, kNone): ids, tile numbers, positions.
    std::uint32_t index(int column) const;
    // NULL (record::kNone) or index().
    std::uint32_t optionalIndex(int column) const;
    // index() / optionalIndex() as a strong id (none for NULL).
    template <class Id>
    Id indexAs(int column) const {
        return Id{index(column)};
    }
    template <class Id>
    Id optionalIndexAs(int column) const {
        return Id{optionalIndex(column)};
    }
    // 0 or 1.
    bool flag(int column) const;
    // A number >= 0, REAL or INTEGER (infinity is one: a verification's error can be).
    double number(int column) const;
    // TEXT (NULL is not a string).
    std::string string(int column) const;
    // A BLOB (an empty one is a BLOB too; text or NULL is not).
    std::span<const std::byte> bytes(int column) const;
    // "table.column" of a result column (its expression when it has no table).
    std::string columnName(int column) const;
    // Throws the ReportError of a damaged value: "<file>: the report is
    // corrupt (<table.column> <why>)".
    [[noreturn]] void damaged(int column, const std::string& why) const;

private:
    int parameter(std::string_view name) const;

    Database* db_;
    sqlite3_stmt* stmt_;
};

// The largest count a report holds (bytes, cycles, steps, flops): 2^48,
// far above any real capture (a day of cycles at 2 GHz is 2^47). A larger
// value is damage, like a negative one; bounding it keeps the sums over tiles
// and steps, and the pixels the views compute from them, far from overflow.
inline constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 48;

// Little-endian fixed-width arrays, the layout of every BLOB in a report.
std::vector<std::byte> packU32(std::span<const std::uint32_t> values);
std::vector<std::byte> packU64(std::span<const std::uint64_t> values);
// Throws ReportError naming `what` when the size is not a multiple of the width.
std::vector<std::uint32_t> unpackU32(std::span<const std::byte> bytes, std::string_view what);
std::vector<std::uint64_t> unpackU64(std::span<const std::byte> bytes, std::string_view what);

} // namespace tessera::reports::sql
