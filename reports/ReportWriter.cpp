#include "reports/ReportWriter.h"

#include "reports/CompiledWriter.h"
#include "reports/LodBuilder.h"
#include "reports/OutputFile.h"
#include "reports/ReportError.h"
#include "reports/Schema.h"
#include "reports/Sqlite.h"
#include "reports/StringTable.h"

#include <chrono>
#include <ctime>
#include <optional>
#include <system_error>

namespace tessera::reports {

namespace {

using std::int64_t;

int64_t i64(std::uint64_t v) {
    return static_cast<int64_t>(v);
}

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

// What executing a program step costs, kept from onCompiled for the LOD tables
// and the run totals.
struct StepCost {
    std::vector<std::uint32_t> compute;
    std::vector<std::uint32_t> exchange;
    std::uint64_t computePhase = 0;
    std::uint64_t exchangePhase = 0;
    std::uint64_t syncPhase = 0;
};

struct OpenRun {
    std::uint32_t id = 0;
    std::uint64_t steps = 0;
    std::uint64_t cycles = 0;
    std::uint64_t compute = 0;
    std::uint64_t exchange = 0;
    std::uint64_t sync = 0;
    std::unique_ptr<LodBuilder> lod;
};

} // namespace

struct ReportWriter::State {
    State(std::filesystem::path out, WriterOptions opts)
        : output(std::move(out))
        , partial(withSuffix(output, ".partial"))
        , options(std::move(opts)) {}

    std::filesystem::path output;
    std::filesystem::path partial;
    WriterOptions options;
    std::unique_ptr<sql::Database> db;
    std::unique_ptr<StringTable> strings;
    std::optional<sql::Statement> insertStep;
    std::optional<sql::Statement> insertBucket;
    std::optional<sql::Statement> setMeta;
    std::vector<StepCost> costs;
    std::uint32_t numTiles = 0;
    bool compiled = false;
    std::optional<OpenRun> run;
    std::uint64_t stepsWritten = 0;
    std::uint64_t uncommitted = 0;
    bool finished = false;

    void meta(std::string_view key, std::string_view value) {
        setMeta->bind(1, key).bind(2, value).run();
    }
    void commit() {
        db->exec("COMMIT; BEGIN");
        uncommitted = 0;
    }
    void writeBucket(std::uint32_t runId, const LodBucket& b);
    void closeRun(bool completed, const std::string& error);
    void close(bool complete);
    void open();
    void discard() noexcept;
};

void ReportWriter::State::writeBucket(std::uint32_t runId, const LodBucket& b) {
    auto pack = [](const std::vector<GroupStats>& stats) {
        std::vector<std::uint64_t> flat;
        flat.reserve(stats.size() * 3);
        for (const GroupStats& s : stats) {
            flat.insert(flat.end(), {s.min, s.max, s.sum});
        }
        return sql::packU64(flat);
    };
    insertBucket->bind(1, int64_t{runId})
        .bind(2, int64_t{b.level})
        .bind(3, i64(b.index))
        .bind(4, i64(b.firstSeq))
        .bind(5, i64(b.steps))
        .bind(6, i64(b.startCycle))
        .bind(7, i64(b.cycles))
        .bind(8, i64(b.computePhaseCycles))
        .bind(9, i64(b.exchangePhaseCycles))
        .bind(10, i64(b.syncPhaseCycles))
        .bind(11, i64(b.maxStepCycles))
        .bindBlob(12, pack(b.compute))
        .bindBlob(13, pack(b.exchange))
        .bindBlob(14, pack(b.sync))
        .run();
}

// Writes the run's totals and LOD levels; the run row exists since onRunBegin.
void ReportWriter::State::closeRun(bool completed, const std::string& error) {
    OpenRun& r = *run;
    const std::vector<LodLevel> levels = r.lod->finish();
    auto level = db->prepare(
        "INSERT INTO lod_levels (run, level, bucket_steps, buckets, group_tiles, groups)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (const LodLevel& l : levels) {
        level.bind(1, int64_t{r.id})
            .bind(2, int64_t{l.level})
            .bind(3, i64(l.bucketSteps))
            .bind(4, i64(l.buckets))
            .bind(5, int64_t{l.groupTiles})
            .bind(6, int64_t{l.groups})
            .run();
    }
    auto update =
        db->prepare("UPDATE runs SET steps = ?2, cycles = ?3, compute_cycles = ?4,"
                    " exchange_cycles = ?5, sync_cycles = ?6, completed = ?7, error_id = ?8"
                    " WHERE id = ?1");
    update.bind(1, int64_t{r.id})
        .bind(2, i64(r.steps))
        .bind(3, i64(r.cycles))
        .bind(4, i64(r.compute))
        .bind(5, i64(r.exchange))
        .bind(6, i64(r.sync))
        .bind(7, int64_t{completed});
    if (error.empty()) {
        update.bindNull(8);
    } else {
        update.bind(8, strings->id(error));
    }
    update.run();
    run.reset();
}

// Final meta, commit with a real fsync, close, and rename into place.
void ReportWriter::State::close(bool complete) {
    if (run) {
        closeRun(false, complete ? "" : "the capture stopped during this run");
    }
    // The completion mark goes in a last, durable transaction: once it is on
    // disk, everything before it is too (SQLite refuses to change the safety
    // level inside a transaction).
    db->exec("COMMIT");
    db->exec("PRAGMA synchronous = FULL");
    db->exec("BEGIN");
    meta("complete", complete ? "1" : "0");
    if (!complete) {
        meta("incomplete_reason", "the capture stopped before it finished");
    }
    meta("finished_at", utcNow());
    insertStep.reset();
    insertBucket.reset();
    setMeta.reset();
    strings.reset();
    db->exec("COMMIT");
    db->close();
    db.reset();
    std::error_code ec;
    std::filesystem::rename(partial, output, ec);
    if (ec) {
        throw ReportError(output.string() + ": cannot move the report into place: " + ec.message());
    }
}

void ReportWriter::State::open() {
    std::error_code ec;
    std::filesystem::remove(partial, ec); // a stale one from a killed capture
    if (output.has_parent_path() && !std::filesystem::is_directory(output.parent_path())) {
        throw ReportError(output.string() + ": cannot write the report: no such directory '" +
                          output.parent_path().string() + "'");
    }
    db = std::make_unique<sql::Database>(partial.string(), sql::Database::Mode::Create,
                                         output.string());
    // The partial file is thrown away on failure, so durability is only
    // needed at the end (close() turns synchronous back on for the last commit).
    db->exec("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF;"
             " PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -32768;");
    db->exec("BEGIN");
    createSchema(*db);
    strings = std::make_unique<StringTable>(*db);
    setMeta.emplace(db->prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)"));
    meta("format", kFormatName);
    meta("schema_version", schemaVersionString());
    meta("created_at", utcNow());
    meta("tool", "tessera");
    meta("tool_version", options.toolVersion);
    meta("complete", "0");
    meta("workload", options.workload);
    auto param = db->prepare(
        "INSERT INTO workload_parameters (position, name_id, value_id) VALUES (?1, ?2, ?3)");
    for (std::size_t i = 0; i < options.workloadParameters.size(); ++i) {
        const auto& [name, value] = options.workloadParameters[i];
        param.bind(1, i64(i)).bind(2, strings->id(name)).bind(3, strings->id(value)).run();
    }
    writeMemoryCategories(*db, *strings);
    insertStep.emplace(
        db->prepare("INSERT INTO executed_steps (run, seq, program_step, start_cycle, cycles)"
                    " VALUES (?1, ?2, ?3, ?4, ?5)"));
    insertBucket.emplace(db->prepare(
        "INSERT INTO lod_buckets (run, level, bucket, first_seq, steps, start_cycle, cycles,"
        " compute_phase_cycles, exchange_phase_cycles, sync_phase_cycles, max_step_cycles, compute,"
        " exchange, sync) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"));
    commit();
}

// Throws nothing: used while unwinding. Statements go before the connection.
void ReportWriter::State::discard() noexcept {
    insertStep.reset();
    insertBucket.reset();
    setMeta.reset();
    strings.reset();
    db.reset();
    std::error_code ec;
    std::filesystem::remove(partial, ec);
}

ReportWriter::ReportWriter(std::filesystem::path output, WriterOptions options)
    : s_(std::make_unique<State>(std::move(output), std::move(options))) {
    try {
        s_->open();
    } catch (...) {
        s_->discard();
        throw;
    }
}

ReportWriter::~ReportWriter() {
    State& s = *s_;
    if (s.finished) {
        return;
    }
    if (s.db && s.options.keepIncomplete) {
        try {
            s.close(false);
            return;
        } catch (...) {
            // Fall through: better no report than a broken one.
        }
    }
    s.discard();
}

void ReportWriter::onCompiled(const record::CompiledRecord& compiled) {
    State& s = *s_;
    if (s.compiled) {
        throw ReportError("a report holds one compiled graph: onCompiled was called twice");
    }
    s.compiled = true;
    s.numTiles = compiled.target.numTiles();
    writeCompiled(*s.db, *s.strings, compiled);
    s.meta("target_name", compiled.target.name);
    s.meta("num_tiles", std::to_string(s.numTiles));
    s.meta("out_of_memory", compiled.outOfMemory ? "1" : "0");
    s.meta("total_memory_bytes", std::to_string(compiled.totalMemoryBytes));
    s.costs.resize(compiled.programSteps.size());
    for (const auto& p : compiled.programSteps) {
        if (p.id >= s.costs.size()) {
            s.costs.resize(p.id + 1);
        }
        StepCost& c = s.costs[p.id];
        c.compute = p.computeCycles;
        c.exchange = p.exchangeCycles;
        c.computePhase = p.computePhaseCycles;
        c.exchangePhase = p.exchangePhaseCycles;
        c.syncPhase = p.syncCycles;
    }
    s.commit();
}

void ReportWriter::onRunBegin(const record::RunBeginRecord& run) {
    State& s = *s_;
    if (s.run) {
        s.closeRun(false, "the next run began before this one ended");
    }
    s.db->prepare("INSERT INTO runs (id, program_index, start_cycle, steps, cycles, compute_cycles,"
                  " exchange_cycles, sync_cycles, completed) VALUES (?1, ?2, ?3, 0, 0, 0, 0, 0, 0)")
        .bind(1, int64_t{run.run})
        .bind(2, int64_t{run.programIndex})
        .bind(3, i64(run.startCycle))
        .run();
    OpenRun r;
    r.id = run.run;
    const std::uint32_t id = run.run;
    State* self = &s;
    r.lod =
        std::make_unique<LodBuilder>(s.numTiles, s.options.lodGroupTiles, kLodFanout,
                                     [self, id](const LodBucket& b) { self->writeBucket(id, b); });
    s.run = std::move(r);
}

void ReportWriter::onStep(const record::StepExecutionRecord& step) {
    State& s = *s_;
    if (!s.run || s.run->id != step.run) {
        throw ReportError("step " + std::to_string(step.sequence) + " of run " +
                          std::to_string(step.run) + " arrived outside its run");
    }
    if (step.programStep >= s.costs.size()) {
        throw ReportError("step " + std::to_string(step.sequence) +
                          " refers to unknown program step " + std::to_string(step.programStep));
    }
    s.insertStep->bind(1, int64_t{step.run})
        .bind(2, i64(step.sequence))
        .bind(3, int64_t{step.programStep})
        .bind(4, i64(step.startCycle))
        .bind(5, i64(step.cycles))
        .run();
    const StepCost& c = s.costs[step.programStep];
    OpenRun& r = *s.run;
    ++r.steps;
    r.cycles += step.cycles;
    r.compute += c.computePhase;
    r.exchange += c.exchangePhase;
    r.sync += c.syncPhase;
    r.lod->add(step.sequence, step.startCycle, step.cycles,
               {c.compute, c.exchange, c.computePhase, c.exchangePhase, c.syncPhase});
    ++s.stepsWritten;
    if (++s.uncommitted >= s.options.stepsPerTransaction) {
        s.commit();
    }
}

void ReportWriter::onRunEnd(const record::RunEndRecord& run) {
    State& s = *s_;
    if (!s.run || s.run->id != run.run) {
        throw ReportError("run " + std::to_string(run.run) + " ended without beginning");
    }
    s.closeRun(run.completed, run.error);
    s.commit();
}

void ReportWriter::onVerification(const record::VerificationRecord& v) {
    State& s = *s_;
    s.db->prepare("INSERT INTO verification (workload_id, passed, max_abs_error, detail_id) VALUES "
                  "(?1, ?2, ?3, ?4)")
        .bind(1, s.strings->id(v.workload))
        .bind(2, int64_t{v.passed})
        .bind(3, v.maxAbsError)
        .bind(4, s.strings->id(v.detail))
        .run();
}

void ReportWriter::discardRuns() {
    State& s = *s_;
    if (!s.db) {
        throw ReportError(s.output.string() + ": the report was already closed");
    }
    s.run.reset();
    s.db->exec("DELETE FROM lod_buckets; DELETE FROM lod_levels; DELETE FROM executed_steps;"
               " DELETE FROM runs;");
    s.commit();
}

void ReportWriter::finish() {
    State& s = *s_;
    if (s.finished) {
        return;
    }
    if (!s.db) {
        throw ReportError(s.output.string() + ": the report was already closed after an error");
    }
    s.close(true);
    s.finished = true;
}

const std::filesystem::path& ReportWriter::outputPath() const {
    return s_->output;
}
std::filesystem::path ReportWriter::partialPath() const {
    return s_->partial;
}
std::uint64_t ReportWriter::stepsWritten() const {
    return s_->stepsWritten;
}

} // namespace tessera::reports
