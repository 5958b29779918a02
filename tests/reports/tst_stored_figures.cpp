// Figures stored at write time (schema 1.2, issues 16 and 17): executions per
// program step and run, and not-always-live bytes summed over tiles. A report
// is written from records built by hand, so every expected value is counted
// here from the steps the test feeds the writer. Also: the column lists of
// reports/Tables.h are the tables' real columns, a 1.1 report (without the
// stored figures) opens and yields the same figures computed from its rows,
// damaged stored counts are named, and a newer major version is refused.
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"
#include "reports/Schema.h"
#include "reports/Tables.h"
#include "tests/reports/SqlEdit.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <map>
#include <numeric>
#include <string>
#include <vector>

using namespace tessera;
using namespace tessera::reports;

namespace {

constexpr std::uint32_t kTiles = 4;

// Not-always-live bytes of each program step on tiles 0..3.
const std::vector<std::vector<std::uint32_t>> kLiveBytes = {
    {10, 20, 30, 40}, {0, 0, 0, 0}, {7, 0, 0, 1000}};

record::CompiledRecord compiled() {
    record::CompiledRecord c;
    c.target.name = "hand";
    c.target.tilesPerIPU = kTiles;
    c.target.bytesPerTile = 1024;
    c.target.clockHz = 1e9;
    record::ProgramNodeRecord root;
    root.id = record::ProgramNodeId{0u};
    root.kind = record::ProgramKind::Sequence;
    c.programNodes.push_back(root);
    for (std::uint32_t s = 0; s < kLiveBytes.size(); ++s) {
        record::ProgramNodeRecord n;
        n.id = record::ProgramNodeId{static_cast<std::uint32_t>(s + 1)};
        n.parent = record::ProgramNodeId{0u};
        n.kind = record::ProgramKind::Execute;
        n.step = record::StepId{static_cast<std::uint32_t>(s)};
        c.programNodes.push_back(n);
        record::ProgramStepRecord p;
        p.id = record::StepId{static_cast<std::uint32_t>(s)};
        p.node = record::ProgramNodeId{static_cast<std::uint32_t>(s + 1)};
        p.name = "step" + std::to_string(s);
        p.computePhaseCycles = 100 * (s + 1);
        p.totalCycles = p.computePhaseCycles;
        p.computeCycles.assign(kTiles, static_cast<std::uint32_t>(p.computePhaseCycles));
        p.notAlwaysLiveBytes = kLiveBytes[s];
        c.programSteps.push_back(p);
    }
    return c;
}

// Program steps executed by each run, in order.
const std::vector<std::vector<std::uint32_t>> kRuns = {{0, 1, 0, 2, 0}, {1, 1}};

void write(const std::string& path) {
    ReportWriter writer(path);
    writer.onCompiled(compiled());
    for (std::uint32_t r = 0; r < kRuns.size(); ++r) {
        writer.onRunBegin({r, 0, 0});
        std::uint64_t cycle = 0;
        for (std::uint64_t seq = 0; seq < kRuns[r].size(); ++seq) {
            const std::uint32_t step = kRuns[r][seq];
            writer.onStep({r, seq, record::StepId{step}, cycle, 100 * (step + 1)});
            cycle += 100 * (step + 1);
        }
        writer.onRunEnd({r, kRuns[r].size(), cycle, 0, 0, 0, true, {}});
    }
    writer.finish();
}

// Rows of a query, each row's integer columns joined by commas.
std::vector<std::string> rows(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* q = nullptr;
    std::vector<std::string> out;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) == SQLITE_OK) {
        while (sqlite3_step(q) == SQLITE_ROW) {
            std::string row;
            for (int c = 0; c < sqlite3_column_count(q); ++c) {
                row += (c ? "," : "") +
                       std::string(reinterpret_cast<const char*>(sqlite3_column_text(q, c)));
            }
            out.push_back(row);
        }
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return out;
}

// Executions per step over all runs, counted from kRuns.
std::map<std::uint32_t, std::uint64_t> expectedExecutions() {
    std::map<std::uint32_t, std::uint64_t> out;
    for (const auto& run : kRuns) {
        for (const std::uint32_t step : run) {
            ++out[step];
        }
    }
    return out;
}

void checkFigures(const ReportReader& reader) {
    QVERIFY(reader.problems().empty());
    const auto expected = expectedExecutions();
    const auto got = reader.stepExecutions();
    QCOMPARE(got.size(), expected.size());
    for (const auto& [step, count] : got) {
        QCOMPARE(count, expected.at(step.value()));
    }
    // Hand sums: 10+20+30+40, 0, 7+1000.
    const std::vector<std::uint64_t> sums = {100, 0, 1007};
    const auto steps = reader.programSteps();
    QCOMPARE(steps.size(), sums.size());
    for (const auto& s : steps) {
        QCOMPARE(s.notAlwaysLiveBytesSum, sums.at(s.id.value()));
        QCOMPARE(s.notAlwaysLiveBytesSum,
                 std::accumulate(kLiveBytes[s.id.value()].begin(), kLiveBytes[s.id.value()].end(),
                                 std::uint64_t{0}));
    }
}

} // namespace

class TestStoredFigures : public QObject {
    Q_OBJECT

private slots:
    void init() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath("hand.tsr").toStdString();
        write(path_);
    }

    void storedPerRunAndStep() {
        // run 0 ran steps 0,1,0,2,0; run 1 ran 1,1.
        QCOMPARE(rows(path_, "SELECT run, program_step, executions FROM step_executions"
                             " ORDER BY run, program_step"),
                 (std::vector<std::string>{"0,0,3", "0,1,1", "0,2,1", "1,1,2"}));
        QCOMPARE(rows(path_, "SELECT id, steps, cycles FROM runs ORDER BY id"),
                 (std::vector<std::string>{"0,5,800", "1,2,400"}));
        const ReportReader reader(path_);
        QCOMPARE(reader.info().schemaVersion, std::string("1.2"));
        checkFigures(reader);
    }

    void executedStepsRoundTrip() {
        const ReportReader reader(path_);
        for (std::uint32_t r = 0; r < kRuns.size(); ++r) {
            const auto steps = reader.executedSteps(r, 0, 100);
            QCOMPARE(steps.size(), kRuns[r].size());
            std::uint64_t cycle = 0;
            for (std::size_t i = 0; i < steps.size(); ++i) {
                QCOMPARE(steps[i].programStep, record::StepId{kRuns[r][i]});
                QCOMPARE(steps[i].sequence, std::uint64_t{i});
                QCOMPARE(steps[i].startCycle, cycle);
                QCOMPARE(steps[i].cycles, std::uint64_t{100} * (kRuns[r][i] + 1));
                cycle += steps[i].cycles;
            }
        }
    }

    void columnListsAreTheTablesColumns() {
        for (const tables::Table* t : tables::kTables) {
            std::vector<std::string> expected;
            for (std::size_t i = 0; i < t->count; ++i) {
                expected.emplace_back(t->columns[i].name);
            }
            QCOMPARE(rows(path_, "SELECT name FROM pragma_table_info('" + std::string(t->name) +
                                     "') ORDER BY cid"),
                     expected);
        }
        // The enum and the list agree: the last enumerator is the last column.
        QCOMPARE(tables::col(tables::program_steps::Col::not_always_live_bytes_sum) + 1,
                 static_cast<int>(tables::program_steps::kTable.count));
        QCOMPARE(tables::insertSql(tables::step_executions::kTable),
                 std::string("INSERT INTO step_executions (run, program_step, executions)"
                             " VALUES (?1, ?2, ?3)"));
    }

    void version11ReportOpensWithTheFallback() {
        // What a 1.1 writer made: no stored figures.
        testing::sqlExec(path_, "DROP TABLE step_executions;"
                                " ALTER TABLE program_steps DROP COLUMN not_always_live_bytes_sum;"
                                " UPDATE meta SET value = '1.1' WHERE key = 'schema_version';"
                                " PRAGMA user_version = 1001;");
        const ReportReader reader(path_);
        QCOMPARE(reader.info().schemaMinor, 1);
        checkFigures(reader);
    }

    void damagedStoredCountIsNamed() {
        testing::sqlExec(
            path_, "UPDATE step_executions SET executions = 4 WHERE run = 0 AND program_step = 0");
        const ReportReader reader(path_);
        const auto problems = reader.problems();
        QCOMPARE(problems.size(), std::size_t{1});
        QVERIFY2(problems[0].find("step_executions of run 0 add up to 6 executions, but "
                                  "runs.steps is 5") != std::string::npos,
                 problems[0].c_str());
        QVERIFY_THROWS_EXCEPTION(ReportError, reader.stepExecutions());
    }

    void outOfRangeStoredCountIsNamed() {
        testing::sqlExec(path_, "UPDATE step_executions SET executions = 9223372036854775807");
        const ReportReader reader(path_);
        // Every run is damaged by it (the check reads all runs' rows at once).
        const auto problems = reader.problems();
        QCOMPARE(problems.size(), kRuns.size());
        for (const std::string& p : problems) {
            QVERIFY2(p.find("(step_executions.executions is 9223372036854775807") !=
                         std::string::npos,
                     p.c_str());
        }
        QVERIFY_THROWS_EXCEPTION(ReportError, reader.stepExecutions());
    }

    void newerMajorIsRefused() {
        testing::sqlExec(path_, "UPDATE meta SET value = '2.0' WHERE key = 'schema_version';"
                                " PRAGMA user_version = 2000;");
        try {
            const ReportReader reader(path_);
            QFAIL("a 2.0 report opened");
        } catch (const ReportError& e) {
            QVERIFY2(std::string(e.what()).find("newer than this Tessera reads") !=
                         std::string::npos,
                     e.what());
        }
    }

private:
    QTemporaryDir dir_;
    std::string path_;
};

QTEST_MAIN(TestStoredFigures)
#include "tst_stored_figures.moc"
