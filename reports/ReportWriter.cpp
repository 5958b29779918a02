#include "reports/ReportWriter.h"

#include "reports/BatchInsert.h"
#include "reports/CompiledWriter.h"
#include "reports/LodBuilder.h"
#include "reports/OutputFile.h"
#include "reports/ReportError.h"
#include "reports/Saturating.h"
#include "reports/Schema.h"
#include "reports/Sqlite.h"
#include "reports/StringTable.h"
#include "reports/Tables.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <memory>
#include <numeric>
#include <optional>
#include <system_error>
#include <thread>

namespace tessera::reports {

namespace {

using std::int64_t;

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
    std::uint32_t programIndex = 0;
    std::uint64_t startCycle = 0;
    // Executions of each program step in this run (by step id), stored in
    // step_executions when the run closes.
    std::vector<std::uint64_t> executions;
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
    std::optional<sql::BatchInsert> insertStep; // executed steps, in batches
    std::optional<sql::Statement> insertBucket;
    std::optional<sql::Statement> setMeta;
    std::vector<StepCost> costs;
    std::uint32_t numTiles = 0;
    bool compiled = false;
    std::optional<OpenRun> run;
    std::uint64_t stepsWritten = 0;
    std::uint64_t uncommitted = 0;
    bool finished = false;
    // The compiled graph is written on a thread of its own (from a copy: the
    // record need not outlive onCompiled), so the engine prepares and starts
    // running meanwhile. Until it is done nothing else touches the database:
    // steps that arrive wait in `pending`, and every other call joins it first.
    std::thread compiledWriter;
    std::atomic<bool> compiledWritten{false};
    std::exception_ptr compiledError;
    std::vector<record::StepExecutionRecord> pending;

    void meta(std::string_view key, std::string_view value) {
        using M = tables::meta::Col;
        setMeta->bind(tables::param(M::key), key).bind(tables::param(M::value), value).run();
    }
    void commit() {
        insertStep->finish();
        db->exec("COMMIT; BEGIN");
        uncommitted = 0;
    }
    void writeCompiledGraph(const record::CompiledRecord& graph);
    // Joins the compiled-graph writer, rethrows what it threw, then writes
    // the steps that waited for it.
    void awaitCompiled();
    void writeStep(const record::StepExecutionRecord& step);
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
    using C = tables::lod_buckets::Col;
    using tables::param;
    insertBucket->bindNull(param(C::id))
        .bind(param(C::run), int64_t{runId})
        .bind(param(C::level), int64_t{b.level})
        .bind(param(C::bucket), i64(b.index))
        .bind(param(C::first_seq), i64(b.firstSeq))
        .bind(param(C::steps), i64(b.steps))
        .bind(param(C::start_cycle), i64(b.startCycle))
        .bind(param(C::cycles), i64(b.cycles))
        .bind(param(C::compute_phase_cycles), i64(b.computePhaseCycles))
        .bind(param(C::exchange_phase_cycles), i64(b.exchangePhaseCycles))
        .bind(param(C::sync_phase_cycles), i64(b.syncPhaseCycles))
        .bind(param(C::max_step_cycles), i64(b.maxStepCycles))
        .bindBlob(param(C::compute), pack(b.compute))
        .bindBlob(param(C::exchange), pack(b.exchange))
        .bindBlob(param(C::sync), pack(b.sync))
        .run();
}

// Writes the run: its row with its totals, its LOD levels and how often each
// program step ran in it.
void ReportWriter::State::closeRun(bool completed, const std::string& error) {
    OpenRun& r = *run;
    const std::vector<LodLevel> levels = r.lod->finish();
    using tables::param;
    {
        using C = tables::lod_levels::Col;
        auto level = db->prepare(tables::insertSql(tables::lod_levels::kTable));
        for (const LodLevel& l : levels) {
            level.bind(param(C::run), int64_t{r.id})
                .bind(param(C::level), int64_t{l.level})
                .bind(param(C::bucket_steps), i64(l.bucketSteps))
                .bind(param(C::buckets), i64(l.buckets))
                .bind(param(C::group_tiles), int64_t{l.groupTiles})
                .bind(param(C::groups), int64_t{l.groups})
                .run();
        }
    }
    {
        using C = tables::step_executions::Col;
        auto executions = db->prepare(tables::insertSql(tables::step_executions::kTable));
        for (std::size_t step = 0; step < r.executions.size(); ++step) {
            if (r.executions[step] > 0) {
                executions.bind(param(C::run), int64_t{r.id})
                    .bind(param(C::program_step), i64(step))
                    .bind(param(C::executions), i64(r.executions[step]))
                    .run();
            }
        }
    }
    using C = tables::runs::Col;
    auto update = db->prepare(tables::insertSql(tables::runs::kTable, "INSERT OR REPLACE"));
    update.bind(param(C::id), int64_t{r.id})
        .bind(param(C::program_index), int64_t{r.programIndex})
        .bind(param(C::start_cycle), i64(r.startCycle))
        .bind(param(C::steps), i64(r.steps))
        .bind(param(C::cycles), i64(r.cycles))
        .bind(param(C::compute_cycles), i64(r.compute))
        .bind(param(C::exchange_cycles), i64(r.exchange))
        .bind(param(C::sync_cycles), i64(r.sync))
        .bind(param(C::completed), int64_t{completed});
    if (error.empty()) {
        update.bindNull(param(C::error_id));
    } else {
        update.bind(param(C::error_id), strings->id(error));
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
    insertStep->finish();
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
    setMeta.emplace(db->prepare(tables::insertSql(tables::meta::kTable, "INSERT OR REPLACE")));
    meta("format", kFormatName);
    meta("schema_version", schemaVersionString());
    meta("created_at", utcNow());
    meta("tool", "tessera");
    meta("tool_version", options.toolVersion);
    meta("complete", "0");
    meta("workload", options.workload);
    auto parameter = db->prepare(tables::insertSql(tables::workload_parameters::kTable));
    for (std::size_t i = 0; i < options.workloadParameters.size(); ++i) {
        const auto& [name, value] = options.workloadParameters[i];
        using P = tables::workload_parameters::Col;
        using tables::param;
        parameter.bind(param(P::position), i64(i))
            .bind(param(P::name_id), strings->id(name))
            .bind(param(P::value_id), strings->id(value))
            .run();
    }
    writeMemoryCategories(*db, *strings);
    insertStep.emplace(*db, tables::executed_steps::kTable);
    insertBucket.emplace(db->prepare(tables::insertSql(tables::lod_buckets::kTable)));
    commit();
}

// Throws nothing: used while unwinding. Statements go before the connection.
void ReportWriter::State::discard() noexcept {
    if (compiledWriter.joinable()) {
        compiledWriter.join();
    }
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
            s.awaitCompiled();
            s.close(false);
            return;
        } catch (...) {
            // Fall through: better no report than a broken one.
        }
    }
    s.discard();
}

void ReportWriter::State::writeCompiledGraph(const record::CompiledRecord& graph) {
    writeCompiled(*db, *strings, graph);
    meta("target_name", graph.target.name);
    meta("num_tiles", std::to_string(numTiles));
    meta("out_of_memory", graph.outOfMemory ? "1" : "0");
    meta("total_memory_bytes", std::to_string(graph.totalMemoryBytes));
    commit();
}

void ReportWriter::State::awaitCompiled() {
    if (!compiledWriter.joinable()) {
        return;
    }
    compiledWriter.join();
    if (compiledError) {
        std::rethrow_exception(std::exchange(compiledError, nullptr));
    }
    std::vector<record::StepExecutionRecord> waiting = std::move(pending);
    pending.clear();
    for (const record::StepExecutionRecord& step : waiting) {
        writeStep(step);
    }
}

void ReportWriter::onCompiled(const record::CompiledRecord& compiled) {
    State& s = *s_;
    if (s.compiled) {
        throw ReportError("a report holds one compiled graph: onCompiled was called twice");
    }
    s.compiled = true;
    s.numTiles = compiled.target.numTiles();
    // Groups never straddle two IPUs, so one IPU's figures are sums of whole groups.
    if (compiled.target.numIPUs > 1 && compiled.target.tilesPerIPU > 0) {
        s.options.lodGroupTiles = std::gcd(std::max<std::uint32_t>(s.options.lodGroupTiles, 1),
                                           compiled.target.tilesPerIPU);
    }
    s.costs.resize(compiled.programSteps.size());
    for (const auto& p : compiled.programSteps) {
        const std::uint32_t id = p.id.value();
        if (id >= s.costs.size()) {
            s.costs.resize(std::size_t{id} + 1);
        }
        StepCost& c = s.costs[id];
        c.compute = p.computeCycles;
        c.exchange = p.exchangeCycles;
        c.computePhase = p.computePhaseCycles;
        c.exchangePhase = p.exchangePhaseCycles;
        c.syncPhase = p.syncCycles;
    }
    auto copy = std::make_shared<const record::CompiledRecord>(compiled);
    State* self = &s;
    s.compiledWritten = false;
    s.compiledWriter = std::thread([self, copy] {
        try {
            self->writeCompiledGraph(*copy);
        } catch (...) {
            self->compiledError = std::current_exception();
        }
        self->compiledWritten = true;
    });
}

void ReportWriter::onRunBegin(const record::RunBeginRecord& run) {
    State& s = *s_;
    if (s.run) {
        s.awaitCompiled();
        s.closeRun(false, "the next run began before this one ended");
    }
    OpenRun r;
    r.id = run.run;
    r.programIndex = run.programIndex;
    r.startCycle = run.startCycle;
    r.executions.assign(s.costs.size(), 0);
    // The run's row is written as the run closes, with its totals.
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
    if (step.programStep.value() >= s.costs.size()) {
        throw ReportError("step " + std::to_string(step.sequence) +
                          " refers to unknown program step " +
                          std::to_string(step.programStep.value()));
    }
    if (s.compiledWriter.joinable()) {
        if (!s.compiledWritten) {
            s.pending.push_back(step);
            return;
        }
        s.awaitCompiled();
    }
    s.writeStep(step);
}

void ReportWriter::State::writeStep(const record::StepExecutionRecord& step) {
    using C = tables::executed_steps::Col;
    using tables::param;
    insertStep->row()
        .bind(param(C::run), int64_t{step.run})
        .bind(param(C::seq), i64(step.sequence))
        .bind(param(C::program_step), int64_t{step.programStep.value()})
        .bind(param(C::start_cycle), i64(step.startCycle))
        .bind(param(C::cycles), i64(step.cycles));
    const StepCost& c = costs[step.programStep.value()];
    OpenRun& r = *run;
    ++r.executions[step.programStep.value()];
    ++r.steps;
    r.cycles += step.cycles;
    r.compute += c.computePhase;
    r.exchange += c.exchangePhase;
    r.sync += c.syncPhase;
    r.lod->add(step.sequence, step.startCycle, step.cycles,
               {c.compute, c.exchange, c.computePhase, c.exchangePhase, c.syncPhase});
    ++stepsWritten;
    if (++uncommitted >= options.stepsPerTransaction) {
        commit();
    }
}

void ReportWriter::onRunEnd(const record::RunEndRecord& run) {
    State& s = *s_;
    if (!s.run || s.run->id != run.run) {
        throw ReportError("run " + std::to_string(run.run) + " ended without beginning");
    }
    s.awaitCompiled();
    s.closeRun(run.completed, run.error);
    s.commit();
}

void ReportWriter::onVerification(const record::VerificationRecord& v) {
    State& s = *s_;
    s.awaitCompiled();
    using V = tables::verification::Col;
    using tables::param;
    s.db->prepare(tables::insertSql(tables::verification::kTable))
        .bindNull(param(V::id)) // the next rowid: checks in the order they came
        .bind(param(V::workload_id), s.strings->id(v.workload))
        .bind(param(V::passed), int64_t{v.passed})
        .bind(param(V::max_abs_error), v.maxAbsError)
        .bind(param(V::detail_id), s.strings->id(v.detail))
        .run();
}

void ReportWriter::discardRuns() {
    State& s = *s_;
    if (!s.db) {
        throw ReportError(s.output.string() + ": the report was already closed");
    }
    s.awaitCompiled();
    s.run.reset();
    s.insertStep->discard(); // steps of the discarded runs not yet inserted
    s.db->exec("DELETE FROM lod_buckets; DELETE FROM lod_levels; DELETE FROM executed_steps;"
               " DELETE FROM step_executions; DELETE FROM runs;");
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
    s.awaitCompiled();
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
    return s_->stepsWritten + s_->pending.size(); // those waiting for the compiled graph too
}

} // namespace tessera::reports
