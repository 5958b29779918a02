// Opening a report: every way a file can fail to be a readable report ends
// here in one ReportError line. Also the report's identity and summary.
#include "reports/ReportReader.h"

#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Schema.h"
#include "reports/Tables.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>

namespace tessera::reports {

namespace {

namespace fs = std::filesystem;

std::uint32_t bigEndian32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

// Checks what can be checked without SQLite: the file exists, is a database,
// and is as long as its header says (a cut-off copy is the common corruption).
void checkFile(const fs::path& path) {
    const std::string p = path.string();
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) {
        throw ReportError(p + ": no such file");
    }
    if (fs::is_directory(st)) {
        throw ReportError(p + ": is a directory, not a report");
    }
    if (!fs::is_regular_file(st)) {
        throw ReportError(p + ": not a regular file");
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        throw ReportError(p + ": cannot read: " + ec.message());
    }
    if (size == 0) {
        throw ReportError(p + ": the file is empty, not a Tessera report");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw ReportError(p + ": cannot read: " + std::strerror(errno));
    }
    std::array<unsigned char, 100> header{};
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    static constexpr char kMagic[] = "SQLite format 3"; // 16 bytes with the NUL
    if (in.gcount() < static_cast<std::streamsize>(header.size()) ||
        std::memcmp(header.data(), kMagic, 16) != 0) {
        throw ReportError(p + ": not a Tessera report: file is not a database");
    }
    const std::uint32_t rawPageSize = (std::uint32_t{header[16]} << 8) | header[17];
    const std::uint64_t pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    const std::uint32_t pages = bigEndian32(&header[28]);
    // The page count is only valid when the two change counters agree.
    const bool pagesValid = pages != 0 && bigEndian32(&header[24]) == bigEndian32(&header[92]);
    if (pagesValid && size < pageSize * pages) {
        throw ReportError(p + ": the report is truncated or corrupt (the file has " +
                          std::to_string(size) + " bytes, its header says " +
                          std::to_string(pageSize * pages) + ")");
    }
}

std::pair<int, int> parseVersion(const std::string& text) {
    const auto dot = text.find('.');
    try {
        return {std::stoi(text.substr(0, dot)),
                dot == std::string::npos ? 0 : std::stoi(text.substr(dot + 1))};
    } catch (const std::exception&) {
        return {-1, -1};
    }
}

} // namespace

const std::string& ReportReader::Impl::str(const sql::Statement& row, int column) const {
    if (!stringsLoaded) {
        using C = tables::strings::Col;
        auto q = db->prepare(tables::selectSql(tables::strings::kTable));
        while (q.step()) {
            strings.emplace(q.index(tables::col(C::id)), q.string(tables::col(C::text)));
        }
        stringsLoaded = true;
    }
    const std::uint32_t id = row.index(column);
    const auto it = strings.find(id);
    if (it == strings.end()) {
        row.damaged(column, std::to_string(id) + " names no string");
    }
    return it->second;
}

const std::string& ReportReader::Impl::optionalStr(const sql::Statement& row, int column) const {
    static const std::string none;
    return row.isNull(column) ? none : str(row, column);
}

void ReportReader::Impl::corrupt(const std::string& why) const {
    throw ReportError(info.path + ": the report is corrupt (" + why + ")");
}

record::ProgramKind ReportReader::Impl::programKind(const sql::Statement& row, int column) const {
    const std::string& name = str(row, column);
    const std::optional<record::ProgramKind> kind = record::programKindFromName(name);
    if (!kind) {
        row.damaged(column, "names \"" + name + "\", not a program kind");
    }
    return *kind;
}

bool ReportReader::Impl::hasStoredFigures() const {
    return info.schemaMajor > kSchemaMajor ||
           (info.schemaMajor == kSchemaMajor && info.schemaMinor >= kStoredFiguresMinor);
}

std::string ReportReader::Impl::programStepsSql() const {
    const tables::Table& t = tables::program_steps::kTable;
    return hasStoredFigures() ? tables::selectSql(t)
                              : tables::selectSql(t, t.name, {{"not_always_live_bytes_sum", "0"}});
}

bool ReportReader::Impl::hasTable(std::string_view name) const {
    auto q = db->prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = :name");
    q.bind(":name", name);
    return q.step();
}

std::uint32_t ReportReader::Impl::tile(const sql::Statement& row, int column) const {
    const std::uint32_t t = row.index(column);
    if (t >= target.numTiles) {
        row.damaged(column, "is tile " + std::to_string(t) + ", the target has " +
                                std::to_string(target.numTiles) + " tiles");
    }
    return t;
}

std::vector<std::uint32_t> ReportReader::Impl::tileArray(const sql::Statement& row,
                                                         int column) const {
    const std::span<const std::byte> blob = row.bytes(column);
    if (blob.empty()) {
        return std::vector<std::uint32_t>(target.numTiles, 0);
    }
    if (blob.size() != std::size_t{4} * target.numTiles) {
        row.damaged(column, "has " + std::to_string(blob.size()) + " bytes, expected " +
                                std::to_string(std::size_t{4} * target.numTiles) + " (4 per tile)");
    }
    return sql::unpackU32(blob, row.columnName(column));
}

std::vector<std::string> StructureProblems::all() const {
    std::vector<std::string> out;
    for (const std::string* p : {&programTree, &programSteps}) {
        if (!p->empty()) {
            out.push_back(*p);
        }
    }
    for (const auto* m : {&stepTiles, &runs}) {
        for (const auto& [id, message] : *m) {
            out.push_back(message);
        }
    }
    return out;
}

ReportReader::ReportReader(const std::filesystem::path& path, OpenOptions options)
    : d_(std::make_unique<Impl>()) {
    const std::string p = path.string();
    checkFile(path);
    d_->info.path = p;
    d_->db = std::make_unique<sql::Database>(p, sql::Database::Mode::ReadOnly);
    sql::Database& db = *d_->db;

    const std::int64_t applicationId = db.integerOf("PRAGMA application_id");
    const std::int64_t userVersion = db.integerOf("PRAGMA user_version");
    if (applicationId != kApplicationId) {
        throw ReportError(p + ": an SQLite database, but not a Tessera report");
    }
    const auto supported = std::to_string(kSchemaMajor) + ".x";
    if (userVersion / 1000 > kSchemaMajor) {
        throw ReportError(p + ": report schema version " + std::to_string(userVersion / 1000) +
                          "." + std::to_string(userVersion % 1000) +
                          " is newer than this Tessera reads (" + supported +
                          "); open it with a newer Tessera");
    }
    if (!d_->hasTable("meta")) {
        throw ReportError(p + ": an SQLite database, but not a Tessera report (no meta table)");
    }
    std::map<std::string, std::string> meta;
    {
        using M = tables::meta::Col;
        auto q = db.prepare(tables::selectSql(tables::meta::kTable));
        while (q.step()) {
            meta[q.text(tables::col(M::key))] = q.text(tables::col(M::value));
        }
    }
    if (meta["format"] != kFormatName) {
        throw ReportError(p + ": an SQLite database, but not a Tessera report (meta.format is '" +
                          meta["format"] + "')");
    }
    const auto [major, minor] = parseVersion(meta["schema_version"]);
    if (major > kSchemaMajor) {
        throw ReportError(p + ": report schema version " + meta["schema_version"] +
                          " is newer than this Tessera reads (" + supported +
                          "); open it with a newer Tessera");
    }
    if (major < 1) {
        throw ReportError(p + ": the report is corrupt (schema version '" + meta["schema_version"] +
                          "')");
    }
    // 0 (SQLite's default), a negative or a stray number: not this report's version.
    if (userVersion < 1000 || major != userVersion / 1000) {
        throw ReportError(p + ": the report is corrupt (PRAGMA user_version is " +
                          std::to_string(userVersion) + ", not the schema version " +
                          meta["schema_version"] + " that meta.schema_version says)");
    }
    if (options.quickCheck) {
        const std::string result = db.textOf("PRAGMA quick_check");
        if (!result.empty() && result != "ok") {
            d_->corrupt(result);
        }
    }

    ReportInfo& info = d_->info;
    info.schemaVersion = meta["schema_version"];
    info.schemaMajor = major;
    info.schemaMinor = minor;
    info.complete = meta["complete"] == "1";
    info.incompleteReason = meta["incomplete_reason"];
    if (!info.complete && info.incompleteReason.empty()) {
        info.incompleteReason = "the capture did not finish";
    }
    info.createdAt = meta["created_at"];
    info.finishedAt = meta["finished_at"];
    info.tool = meta["tool"];
    info.toolVersion = meta["tool_version"];
    info.workload = meta["workload"];
    using tables::col;
    {
        using W = tables::workload_parameters::Col;
        auto q = db.prepare(tables::selectSql(tables::workload_parameters::kTable) +
                            " ORDER BY position");
        while (q.step()) {
            info.workloadParameters.emplace_back(d_->str(q, col(W::name_id)),
                                                 d_->str(q, col(W::value_id)));
        }
    }

    TargetInfo& t = d_->target;
    t.name = meta["target_name"];
    using T = tables::target::Col;
    auto q = db.prepare(tables::selectSql(tables::target::kTable));
    if (q.step()) { // absent in a report that stopped before compiling
        t.name = d_->str(q, col(T::name_id));
        t.numIpus = q.index(col(T::num_ipus));
        t.tilesPerIpu = q.index(col(T::tiles_per_ipu));
        t.numTiles = q.index(col(T::num_tiles));
        t.bytesPerTile = q.count(col(T::bytes_per_tile));
        t.memoryBaseAddress = q.count(col(T::memory_base_address));
        t.clockHz = q.number(col(T::clock_hz));
        t.workerContexts = q.index(col(T::worker_contexts));
        t.exchangeBytesPerCycle = q.index(col(T::exchange_bytes_per_cycle));
        // Bounds the arrays sized by the tile count if the row is garbage.
        if (t.numTiles > (1u << 22) || std::uint64_t{t.numIpus} * t.tilesPerIpu != t.numTiles) {
            d_->corrupt("the target has " + std::to_string(t.numTiles) + " tiles");
        }
    }
    using R = tables::regions::Col;
    auto regions = db.prepare(tables::selectSql(tables::regions::kTable) + " ORDER BY id");
    while (regions.step()) {
        const std::uint32_t id = regions.index(col(R::id));
        if (id != t.regions.size()) {
            regions.damaged(col(R::id), "skips from " + std::to_string(t.regions.size()) + " to " +
                                            std::to_string(id));
        }
        t.regions.push_back({d_->str(regions, col(R::name_id)), regions.index(col(R::offset)),
                             regions.index(col(R::bytes))});
    }
    using P = tables::target_parameters::Col;
    auto params =
        db.prepare(tables::selectSql(tables::target_parameters::kTable) + " ORDER BY position");
    while (params.step()) {
        t.parameters.emplace_back(d_->str(params, col(P::name_id)),
                                  d_->str(params, col(P::value_id)));
    }
    d_->checkStructure();
}

ReportReader::~ReportReader() = default;
ReportReader::ReportReader(ReportReader&&) noexcept = default;
ReportReader& ReportReader::operator=(ReportReader&&) noexcept = default;

const ReportInfo& ReportReader::info() const {
    return d_->info;
}
const TargetInfo& ReportReader::target() const {
    return d_->target;
}
std::vector<std::string> ReportReader::problems() const {
    return d_->problems.all();
}

Summary ReportReader::summary() const {
    sql::Database& db = *d_->db;
    Summary s;
    const ReportInfo& info = d_->info;
    s.report = {info.path,      info.schemaVersion, info.complete,
                info.createdAt, info.toolVersion,   info.workload};
    const TargetInfo& t = d_->target;
    s.target = {t.name, t.numIpus, t.numTiles, t.bytesPerTile, t.clockHz};

    // Summed here, not with SQL's sum(), so every value is checked.
    for (const RunEntry& r : runs()) {
        ++s.runs.count;
        s.cycles.total += r.cycles;
        s.cycles.compute += r.computeCycles;
        s.cycles.exchange += r.exchangeCycles;
        s.cycles.sync += r.syncCycles;
        s.runs.executedSteps += r.steps;
        s.runs.incomplete += r.completed ? 0 : 1;
    }
    using tables::col;
    using M = tables::meta::Col;
    auto meta = db.prepare(tables::selectSql(tables::meta::kTable) +
                           " WHERE key IN ('total_memory_bytes', 'out_of_memory')");
    while (meta.step()) {
        const std::string value = meta.text(col(M::value));
        if (meta.text(col(M::key)) == "total_memory_bytes") {
            const std::string& text = value;
            const auto [end, ec] =
                std::from_chars(text.data(), text.data() + text.size(), s.memory.totalBytes);
            if (!text.empty() && (ec != std::errc() || end != text.data() + text.size())) {
                d_->corrupt("meta.total_memory_bytes is not a byte count");
            }
        } else {
            s.memory.outOfMemory = value == "1";
        }
    }
    bool peakSeen = false;
    using TM = tables::tile_memory::Col;
    auto tiles = db.prepare(tables::selectSql(tables::tile_memory::kTable));
    while (tiles.step()) {
        const std::uint32_t tile = d_->tile(tiles, col(TM::tile));
        const std::uint64_t bytes = tiles.count(col(TM::total_including_gaps));
        if (!peakSeen || bytes > s.memory.peakTileBytes ||
            (bytes == s.memory.peakTileBytes && tile < s.memory.peakTile)) {
            s.memory.peakTile = tile;
            s.memory.peakTileBytes = bytes;
            peakSeen = true;
        }
        s.memory.tilesOverCapacity += tiles.count(col(TM::overflow_bytes)) > 0 ? 1 : 0;
    }
    // count(*) is never negative.
    s.program.steps =
        static_cast<std::uint64_t>(db.integerOf("SELECT count(*) FROM program_steps"));
    s.program.computeSets =
        static_cast<std::uint64_t>(db.integerOf("SELECT count(*) FROM compute_sets"));
    s.program.variables = static_cast<std::uint64_t>(
        db.integerOf("SELECT count(*) FROM variables WHERE is_exchange_buffer = 0"));
    using CS = tables::compute_sets::Col;
    auto vertices = db.prepare(tables::selectSql(tables::compute_sets::kTable));
    while (vertices.step()) {
        s.program.vertices += vertices.count(col(CS::vertex_count));
    }
    // Several checks: passed if all passed; the first failure explains best.
    bool failureSeen = false;
    for (const record::VerificationRecord& v : verifications()) {
        if (!s.verification) {
            s.verification = Summary::Verification{true, 0, v.detail};
        }
        s.verification->passed = s.verification->passed && v.passed;
        s.verification->maxAbsError = std::max(s.verification->maxAbsError, v.maxAbsError);
        if (!v.passed && !failureSeen) {
            s.verification->detail = v.detail;
            failureSeen = true;
        }
    }
    return s;
}

} // namespace tessera::reports
