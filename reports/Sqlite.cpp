#include "reports/Sqlite.h"

#include "engine/record/Records.h"
#include "reports/ReportError.h"
#include "reports/SqlitePath.h"

#include <sqlite3.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <mutex>
#include <utility>

namespace tessera::reports::sql {

namespace {

// SQLite counts its memory under a global mutex on every allocation by
// default; nothing here reads the count (sqlite3_memory_used), and the
// writer's rows allocate (13 % of a compiled graph's write). Only possible
// before SQLite initialises: where another part of the process did that
// first, SQLite refuses and the count stays.
void configureSqliteOnce() {
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

} // namespace

Database::Database(const std::string& path, Mode mode, std::string name)
    : path_(path)
    , name_(name.empty() ? path : std::move(name)) {
    configureSqliteOnce();
    const int flags =
        mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    // A connection is never shared between threads (docs/ARCHITECTURE.md).
    openPath_ = std::make_unique<OpenPath>(path);
    const int rc = sqlite3_open_v2(openPath_->path().c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX,
                                   openPath_->vfs());
    if (rc != SQLITE_OK) {
        if (db_ == nullptr) {
            throw ReportError(name_ + ": cannot open: out of memory");
        }
        fail(rc, "cannot open");
    }
    sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() {
    // sqlite3_close_v2 defers the close until every statement is finalized.
    sqlite3_close_v2(db_);
}

void Database::close() {
    if (db_ != nullptr) {
        const int rc = sqlite3_close(db_);
        if (rc != SQLITE_OK) {
            fail(rc, "cannot close");
        }
        db_ = nullptr;
    }
}

void Database::fail(int code, std::string_view what) const {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    switch (code & 0xff) {
    case SQLITE_CORRUPT:
        throw ReportError(name_ + ": the report is truncated or corrupt (" + message + ")");
    case SQLITE_FULL:
        throw ReportError(name_ + ": cannot write: disk full");
    case SQLITE_NOTADB:
        throw ReportError(name_ + ": not a Tessera report: file is not a database");
    default:
        throw ReportError(name_ + ": " + std::string(what) + ": " + message);
    }
}

void Database::exec(const std::string& sqlText) {
    const int rc = sqlite3_exec(db_, sqlText.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
        fail(rc, "SQL failed");
    }
}

Statement Database::prepare(std::string_view sqlText) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sqlText.data(), static_cast<int>(sqlText.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
        // A report missing a table or column every report of its version has.
        const std::string message = sqlite3_errmsg(db_);
        if (message.starts_with("no such table") || message.starts_with("no such column")) {
            throw ReportError(name_ + ": the report is corrupt (" + message + ")");
        }
        fail(rc, "cannot prepare a query");
    }
    return Statement(*this, stmt);
}

std::int64_t Database::integerOf(std::string_view sqlText) {
    auto q = prepare(sqlText);
    return q.step() ? q.integer(0) : 0;
}

std::string Database::textOf(std::string_view sqlText) {
    auto q = prepare(sqlText);
    return q.step() ? q.text(0) : std::string();
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_)
    , stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(stmt_);
        db_ = other.db_;
        stmt_ = std::exchange(other.stmt_, nullptr);
    }
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
}

Statement& Statement::bindBlob(int index, std::span<const std::byte> bytes) {
    // A zero-length blob, not NULL, for an empty array.
    sqlite3_bind_blob64(stmt_, index, bytes.empty() ? "" : static_cast<const void*>(bytes.data()),
                        bytes.size(), SQLITE_TRANSIENT);
    return *this;
}

Statement& Statement::bindNull(int index) {
    sqlite3_bind_null(stmt_, index);
    return *this;
}

Statement& Statement::bindId(int index, std::uint32_t id) {
    return id == record::kNone ? bindNull(index) : bind(index, std::int64_t{id});
}

int Statement::parameter(std::string_view name) const {
    const int index = sqlite3_bind_parameter_index(stmt_, std::string(name).c_str());
    if (index == 0) {
        throw ReportError(db_->name() + ": no parameter " + std::string(name) + " in the query " +
                          sqlite3_sql(stmt_));
    }
    return index;
}

Statement& Statement::bind(std::string_view name, std::int64_t value) {
    return bind(parameter(name), value);
}

Statement& Statement::bind(std::string_view name, std::string_view text) {
    return bind(parameter(name), text);
}

Statement& Statement::bindId(std::string_view name, std::uint32_t id) {
    return bindId(parameter(name), id);
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    sqlite3_reset(stmt_);
    db_->fail(rc, "query failed");
}

void Statement::run() {
    step();
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool Statement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

std::uint64_t Statement::unsignedInteger(int column) const {
    const std::int64_t v = sqlite3_column_int64(stmt_, column);
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

std::uint32_t Statement::id(int column) const {
    return isNull(column) ? record::kNone : static_cast<std::uint32_t>(integer(column));
}

double Statement::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    const int n = sqlite3_column_bytes(stmt_, column);
    return p == nullptr
               ? std::string()
               : std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
}

namespace {

const char* typeName(int type) {
    switch (type) {
    case SQLITE_NULL:
        return "NULL";
    case SQLITE_TEXT:
        return "text";
    case SQLITE_BLOB:
        return "a blob";
    case SQLITE_FLOAT:
        return "a real number";
    default:
        return "an integer";
    }
}

} // namespace

std::string Statement::columnName(int column) const {
    const char* table = sqlite3_column_table_name(stmt_, column);
    const char* origin = sqlite3_column_origin_name(stmt_, column);
    if (table != nullptr && origin != nullptr) {
        return std::string(table) + "." + origin;
    }
    const char* name = sqlite3_column_name(stmt_, column);
    return name != nullptr ? name : "column " + std::to_string(column);
}

void Statement::damaged(int column, const std::string& why) const {
    throw ReportError(db_->name() + ": the report is corrupt (" + columnName(column) + " " + why +
                      ")");
}

std::uint64_t Statement::count(int column) const {
    const int type = sqlite3_column_type(stmt_, column);
    if (type != SQLITE_INTEGER) {
        damaged(column, std::string("is ") + typeName(type) + ", not a count");
    }
    const std::int64_t v = sqlite3_column_int64(stmt_, column);
    if (v < 0 || static_cast<std::uint64_t>(v) > kMaxCount) {
        damaged(column, "is " + std::to_string(v) + ", out of range");
    }
    return static_cast<std::uint64_t>(v);
}

std::uint32_t Statement::count32(int column) const {
    const std::uint64_t v = count(column);
    if (v > std::numeric_limits<std::uint32_t>::max()) {
        damaged(column, "is " + std::to_string(v) + ", past 2^32 - 1");
    }
    return static_cast<std::uint32_t>(v);
}

std::uint32_t Statement::index(int column) const {
    const int type = sqlite3_column_type(stmt_, column);
    if (type != SQLITE_INTEGER) {
        damaged(column, std::string("is ") + typeName(type) + ", not an id");
    }
    const std::int64_t v = sqlite3_column_int64(stmt_, column);
    if (v < 0 || v >= std::int64_t{record::kNone}) {
        damaged(column, "is " + std::to_string(v) + ", out of range");
    }
    return static_cast<std::uint32_t>(v);
}

std::uint32_t Statement::optionalIndex(int column) const {
    return isNull(column) ? record::kNone : index(column);
}

bool Statement::flag(int column) const {
    const int type = sqlite3_column_type(stmt_, column);
    const std::int64_t v = sqlite3_column_int64(stmt_, column);
    if (type != SQLITE_INTEGER || (v != 0 && v != 1)) {
        damaged(column, std::string("is ") +
                            (type == SQLITE_INTEGER ? std::to_string(v) : typeName(type)) +
                            ", not 0 or 1");
    }
    return v != 0;
}

double Statement::number(int column) const {
    const int type = sqlite3_column_type(stmt_, column);
    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
        damaged(column, std::string("is ") + typeName(type) + ", not a number");
    }
    const double v = sqlite3_column_double(stmt_, column);
    if (std::isnan(v) || v < 0) {
        damaged(column, "is " + std::to_string(v) + ", out of range");
    }
    return v;
}

std::string Statement::string(int column) const {
    const int type = sqlite3_column_type(stmt_, column);
    if (type != SQLITE_TEXT) {
        damaged(column, std::string("is ") + typeName(type) + ", not text");
    }
    return text(column);
}

std::span<const std::byte> Statement::bytes(int column) const {
    const int type = sqlite3_column_type(stmt_, column);
    if (type != SQLITE_BLOB) {
        damaged(column, std::string("is ") + typeName(type) + ", not a blob");
    }
    return blob(column);
}

std::span<const std::byte> Statement::blob(int column) const {
    const void* p = sqlite3_column_blob(stmt_, column);
    const int n = sqlite3_column_bytes(stmt_, column);
    if (p == nullptr || n <= 0) {
        return {};
    }
    return {static_cast<const std::byte*>(p), static_cast<std::size_t>(n)};
}

namespace {

template <typename T>
std::vector<std::byte> pack(std::span<const T> values) {
    std::vector<std::byte> out(values.size() * sizeof(T));
    if constexpr (std::endian::native == std::endian::little) {
        if (!values.empty()) {
            std::memcpy(out.data(), values.data(), out.size());
        }
    } else {
        for (std::size_t i = 0; i < values.size(); ++i) {
            for (std::size_t b = 0; b < sizeof(T); ++b) {
                out[i * sizeof(T) + b] = static_cast<std::byte>((values[i] >> (8 * b)) & 0xff);
            }
        }
    }
    return out;
}

template <typename T>
std::vector<T> unpack(std::span<const std::byte> bytes, std::string_view what) {
    if (bytes.size() % sizeof(T) != 0) {
        throw ReportError("the report is corrupt: " + std::string(what) + " has " +
                          std::to_string(bytes.size()) + " bytes, not a multiple of " +
                          std::to_string(sizeof(T)));
    }
    std::vector<T> out(bytes.size() / sizeof(T));
    if constexpr (std::endian::native == std::endian::little) {
        if (!out.empty()) {
            std::memcpy(out.data(), bytes.data(), bytes.size());
        }
    } else {
        for (std::size_t i = 0; i < out.size(); ++i) {
            T v = 0;
            for (std::size_t b = 0; b < sizeof(T); ++b) {
                v |= static_cast<T>(std::to_integer<unsigned>(bytes[i * sizeof(T) + b])) << (8 * b);
            }
            out[i] = v;
        }
    }
    return out;
}

} // namespace

std::vector<std::byte> packU32(std::span<const std::uint32_t> values) {
    return pack(values);
}
std::vector<std::byte> packU64(std::span<const std::uint64_t> values) {
    return pack(values);
}

std::vector<std::uint32_t> unpackU32(std::span<const std::byte> bytes, std::string_view what) {
    return unpack<std::uint32_t>(bytes, what);
}

std::vector<std::uint64_t> unpackU64(std::span<const std::byte> bytes, std::string_view what) {
    return unpack<std::uint64_t>(bytes, what);
}

} // namespace tessera::reports::sql
