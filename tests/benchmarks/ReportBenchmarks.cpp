// Report benchmarks (issue 4): writing a report against a raw SQLite bulk
// insert of the same rows, a capture with a report against the same run
// without one, and opening a 1472-tile, 20,000-step report (time and memory).
#include "Bench.h"
#include "engine/record/Recorder.h"
#include "engine/workloads/Workload.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::bench {

namespace {

namespace fs = std::filesystem;

struct Sizes {
    std::string target;
    std::size_t writeSteps;   // steps of the capture written in (a)
    std::size_t captureSteps; // steps of the capture timed in (b)
    std::size_t openSteps;    // steps of the report opened in (c)
};

// A scratch directory, removed with everything in it.
struct ScratchDir {
    ScratchDir()
        : path(fs::temp_directory_path() / ("tessera-bench-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    fs::path path;
};

// Wall and CPU seconds of one call. CPU time (of the process: every thread)
// is what the benchmark can still compare when the machine is loaded far
// beyond its cores, as this shared one often is; wall time waits for them.
struct Timing {
    double wall = 1e300;
    double cpu = 1e300;
};

double processCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Keeps the best wall and the best CPU time over the calls it is given.
void timeInto(Timing& best, const std::function<void()>& fn) {
    const double cpu0 = processCpuSeconds();
    const double wall = bestSeconds(fn, 1);
    best.wall = std::min(best.wall, wall);
    best.cpu = std::min(best.cpu, processCpuSeconds() - cpu0);
}

void check(int rc, sqlite3* db, const char* what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        throw std::runtime_error(std::string(what) + ": " + sqlite3_errmsg(db));
    }
}

// Every row of every table of a database, as SQLite values, with the DDL
// that made it: what a raw bulk insert of "the same bytes" needs.
struct Dump {
    struct Value {
        int type = SQLITE_NULL;
        sqlite3_int64 integer = 0;
        double real = 0;
        std::string bytes; // text or blob
    };
    struct Table {
        std::string name;
        int columns = 0;
        std::vector<Value> values; // row-major
    };
    std::vector<std::string> ddl;
    std::vector<Table> tables;
};

Dump dump(const fs::path& path) {
    sqlite3* db = nullptr;
    check(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), db, "open");
    Dump d;
    sqlite3_stmt* schema = nullptr;
    check(sqlite3_prepare_v2(db,
                             "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL"
                             " ORDER BY rowid",
                             -1, &schema, nullptr),
          db, "schema");
    while (sqlite3_step(schema) == SQLITE_ROW) {
        const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(schema, 0));
        const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(schema, 1));
        d.ddl.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(schema, 2)));
        if (type == "table") {
            d.tables.push_back({name, 0, {}});
        }
    }
    sqlite3_finalize(schema);
    for (Dump::Table& t : d.tables) {
        sqlite3_stmt* rows = nullptr;
        check(sqlite3_prepare_v2(db, ("SELECT * FROM " + t.name).c_str(), -1, &rows, nullptr), db,
              "select");
        t.columns = sqlite3_column_count(rows);
        while (sqlite3_step(rows) == SQLITE_ROW) {
            for (int c = 0; c < t.columns; ++c) {
                Dump::Value v;
                v.type = sqlite3_column_type(rows, c);
                if (v.type == SQLITE_INTEGER) {
                    v.integer = sqlite3_column_int64(rows, c);
                } else if (v.type == SQLITE_FLOAT) {
                    v.real = sqlite3_column_double(rows, c);
                } else if (v.type != SQLITE_NULL) {
                    const auto* p = static_cast<const char*>(sqlite3_column_blob(rows, c));
                    v.bytes.assign(p == nullptr ? "" : p,
                                   static_cast<std::size_t>(sqlite3_column_bytes(rows, c)));
                }
                t.values.push_back(std::move(v));
            }
        }
        sqlite3_finalize(rows);
    }
    sqlite3_close(db);
    return d;
}

// The reference: the same schema and rows inserted raw, with prepared
// statements in one transaction, the writer's pragmas and one durable commit.
void rawInsert(const Dump& d, const fs::path& path) {
    fs::remove(path);
    sqlite3* db = nullptr;
    check(sqlite3_open(path.c_str(), &db), db, "create");
    check(sqlite3_exec(db,
                       "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = FULL;"
                       " PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -32768; BEGIN",
                       nullptr, nullptr, nullptr),
          db, "pragmas");
    for (const std::string& sql : d.ddl) {
        check(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), db, "ddl");
    }
    for (const Dump::Table& t : d.tables) {
        std::string sql = "INSERT INTO " + t.name + " VALUES (";
        for (int c = 0; c < t.columns; ++c) {
            sql += c == 0 ? "?" : ", ?";
        }
        sql += ")";
        sqlite3_stmt* insert = nullptr;
        check(sqlite3_prepare_v2(db, sql.c_str(), -1, &insert, nullptr), db, "insert");
        for (std::size_t row = 0; row * static_cast<std::size_t>(t.columns) < t.values.size();
             ++row) {
            for (int c = 0; c < t.columns; ++c) {
                const Dump::Value& v = t.values[row * static_cast<std::size_t>(t.columns) +
                                                static_cast<std::size_t>(c)];
                switch (v.type) {
                case SQLITE_INTEGER:
                    sqlite3_bind_int64(insert, c + 1, v.integer);
                    break;
                case SQLITE_FLOAT:
                    sqlite3_bind_double(insert, c + 1, v.real);
                    break;
                case SQLITE_TEXT:
                    sqlite3_bind_text(insert, c + 1, v.bytes.data(),
                                      static_cast<int>(v.bytes.size()), SQLITE_STATIC);
                    break;
                case SQLITE_BLOB:
                    sqlite3_bind_blob(insert, c + 1, v.bytes.data(),
                                      static_cast<int>(v.bytes.size()), SQLITE_STATIC);
                    break;
                default:
                    sqlite3_bind_null(insert, c + 1);
                }
            }
            check(sqlite3_step(insert), db, "step");
            sqlite3_reset(insert);
        }
        sqlite3_finalize(insert);
    }
    check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "commit");
    check(sqlite3_close(db), db, "close");
}

void replay(const record::InMemoryRecorder& mem, const fs::path& out) {
    reports::ReportWriter writer(out);
    writer.onCompiled(mem.compiled);
    std::size_t step = 0;
    for (std::size_t r = 0; r < mem.runs.size(); ++r) {
        writer.onRunBegin(mem.runs[r]);
        while (step < mem.steps.size() && mem.steps[step].run == mem.runs[r].run) {
            writer.onStep(mem.steps[step++]);
        }
        writer.onRunEnd(mem.runEnds.at(r));
    }
    for (const auto& v : mem.verifications) {
        writer.onVerification(v);
    }
    writer.finish();
}

workloads::RunResult runStress(const std::string& target, std::size_t steps,
                               record::Recorder* recorder) {
    EngineOptions options;
    options.recorder = recorder;
    return workloads::run(workloads::find("stress"), Target::preset(target),
                          {{"steps", std::to_string(steps)}}, options);
}

// (a) bytes of report per second, writer against a raw insert of its rows.
void writeThroughput(const Sizes& s, const fs::path& dir) {
    record::InMemoryRecorder mem;
    runStress(s.target, s.writeSteps, &mem);
    const fs::path report = dir / "write.tsr";
    replay(mem, report);
    const double bytes = static_cast<double>(fs::file_size(report));
    const Dump rows = dump(report);
    // Alternated, best of five each: the machine's load changes within seconds.
    Timing writer, raw;
    for (int round = 0; round < 5; ++round) {
        timeInto(writer, [&] { replay(mem, report); });
        timeInto(raw, [&] { rawInsert(rows, dir / "raw.db"); });
    }
    const std::string name =
        "report.write_" + s.target + "_" + std::to_string(s.writeSteps) + "_steps.throughput";
    printResult(name, bytes / writer.wall, "bytes/s", bytes / raw.wall);
    printResult(name + "_cpu", bytes / writer.cpu, "bytes/s", bytes / raw.cpu);
}

// (b) a capture writing a report against the same run recording nothing.
void captureOverhead(const Sizes& s, const fs::path& dir) {
    const fs::path report = dir / "capture.tsr";
    // Alternated, best of five each: the machine's load changes within seconds.
    Timing with, without;
    for (int round = 0; round < 5; ++round) {
        timeInto(with, [&] {
            reports::ReportWriter writer(report);
            runStress(s.target, s.captureSteps, &writer);
            writer.finish();
        });
        timeInto(without, [&] { runStress(s.target, s.captureSteps, nullptr); });
    }
    const std::string name =
        "report.capture_" + s.target + "_" + std::to_string(s.captureSteps) + "_steps";
    printResult(name + ".wall_time", with.wall, "s", without.wall);
    printResult(name + ".cpu_time", with.cpu, "s", without.cpu);
}

// What a pane does first: the summary and the whole run at a zoomed-out
// level (the finest stored level of at most 2,000 buckets: a screen's width).
std::size_t openAndRead(const fs::path& report) {
    const reports::ReportReader reader(report);
    const reports::Summary summary = reader.summary();
    std::size_t buckets = 0;
    for (const reports::RunEntry& run : reader.runs()) {
        const auto levels = reader.lodLevels(run.id);
        std::uint32_t level = levels.back().level;
        for (const auto& l : levels) {
            if (l.level > 0 && l.buckets <= 2000) {
                level = std::min(level, l.level);
            }
        }
        buckets += reader.lodBuckets(run.id, level, 0, run.steps).size();
    }
    if (summary.runs.executedSteps == 0 || buckets == 0) {
        throw std::runtime_error("the opened report has no steps");
    }
    return buckets;
}

// (c) opening a 1472-tile report of 20,000 executed steps.
void openLargeReport(const Sizes& s, const fs::path& dir) {
    const fs::path report = dir / "open.tsr";
    // Captured in a child, so this process's heap stays as it was.
    peakResidentOfChild([&] {
        reports::ReportWriter writer(report);
        runStress(s.target, s.openSteps, &writer);
        writer.finish();
    });
    const double fileBytes = static_cast<double>(fs::file_size(report));
    const std::size_t peak = peakResidentOfChild([&] { openAndRead(report); });
    const double open = bestSeconds([&] { openAndRead(report); }, 3);
    // The reference: reading every byte of the file, which a reader without
    // level-of-detail tables would have to do at least.
    const double readFile = bestSeconds(
        [&] {
            std::ifstream in(report, std::ios::binary);
            std::vector<char> all(static_cast<std::size_t>(fileBytes));
            in.read(all.data(), static_cast<std::streamsize>(all.size()));
        },
        3);
    const std::string name =
        "report.open_" + s.target + "_" + std::to_string(s.openSteps) + "_steps";
    printResult(name + ".wall_time", open, "s", readFile);
    printResult(name + ".peak_memory", static_cast<double>(peak), "bytes", fileBytes);
}

} // namespace

void runReportBenchmarks(const Options& options) {
    const Sizes sizes =
        options.quick ? Sizes{"tiles:16", 2000, 500, 2000} : Sizes{"mk2", 20000, 5000, 20000};
    ScratchDir dir;
    openLargeReport(sizes, dir.path);
    writeThroughput(sizes, dir.path);
    captureOverhead(sizes, dir.path);
}

} // namespace tessera::bench
