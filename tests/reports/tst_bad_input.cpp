// Every file that is not a readable report gives one clear ReportError line,
// never a crash: missing, directory, text, empty, truncated, garbled, an SQLite
// database of another kind, a newer major schema version.
#include "SmallProgram.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"
#include "tests/reports/SqlEdit.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace tessera;
using namespace tessera::reports;
namespace fs = std::filesystem;

namespace {

// Opens `file` and runs every query; returns the ReportError text, or "" when
// everything succeeded. Any other exception fails the test.
std::string openAndQuery(const fs::path& file) {
    try {
        ReportReader r(file);
        r.summary();
        r.memoryCategories();
        r.codelets();
        for (const auto& v : r.variables()) {
            r.variableTiles(v.id);
        }
        r.computeSets();
        r.vertexCounts();
        r.tileMemory();
        r.memoryBlocks(record::TileId{0u});
        r.programNodes();
        for (const auto& s : r.programSteps()) {
            r.stepTiles(s.id);
            r.liveVariables(s.id);
        }
        for (const auto& run : r.runs()) {
            r.executedSteps(run.id, 0, run.steps);
            for (const auto& l : r.lodLevels(run.id)) {
                r.lodBuckets(run.id, l.level, 0, run.steps);
            }
        }
        r.verifications();
        return "";
    } catch (const ReportError& e) {
        return e.what();
    }
}

} // namespace

class BadInput : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    fs::path good_;

    fs::path path(const std::string& name) const {
        return fs::path(dir_.path().toStdString()) / name;
    }

    fs::path copyOfGood(const std::string& name) const {
        const fs::path p = path(name);
        fs::copy_file(good_, p, fs::copy_options::overwrite_existing);
        return p;
    }

    // Opening fails with one line that names the file and contains `expected`.
    static void expectError(const fs::path& file, const std::string& expected) {
        try {
            ReportReader reader(file);
            QFAIL(("opened " + file.string() + " without error").c_str());
        } catch (const ReportError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(expected) != std::string::npos,
                     (what + " / expected: " + expected).c_str());
            QVERIFY2(what.find(file.string()) != std::string::npos, what.c_str());
            QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        good_ = path("good.tsr");
        ReportWriter writer(good_);
        testing::SmallProgram{}.run(writer);
        writer.finish();
        QVERIFY(fs::file_size(good_) > 8 * 4096);
        QCOMPARE(openAndQuery(good_), std::string());
    }

    void missingFile() { expectError(path("missing.tsr"), "no such file"); }

    void directory() { expectError(fs::path(dir_.path().toStdString()), "is a directory"); }

    void textFile() {
        const fs::path p = path("notes.tsr");
        std::ofstream(p) << "These are not the cycles you are looking for.\n"
                         << std::string(200, 'x') << "\n";
        expectError(p, "not a Tessera report: file is not a database");
    }

    void shortBinaryFile() {
        const fs::path p = path("short.tsr");
        std::ofstream(p, std::ios::binary) << "SQLite format 3";
        expectError(p, "file is not a database");
    }

    void emptyFile() {
        const fs::path p = path("empty.tsr");
        std::ofstream{p};
        expectError(p, "empty");
    }

    void truncatedReport() {
        const fs::path p = copyOfGood("half.tsr");
        fs::resize_file(p, fs::file_size(p) / 2);
        expectError(p, "truncated or corrupt");
    }

    void sqliteDatabaseThatIsNotAReport() {
        const fs::path p = path("other.db");
        testing::sqlExec(p, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ada');");
        expectError(p, "not a Tessera report");
    }

    void reportIdentityWithoutMeta() {
        const fs::path p = path("nometa.db");
        testing::sqlExec(p, "PRAGMA application_id = 1414746962; CREATE TABLE x (y);");
        expectError(p, "not a Tessera report (no meta table)");
    }

    void newerMajorVersion() {
        const fs::path p = copyOfGood("future.tsr");
        testing::sqlExec(p, "PRAGMA user_version = 2000; UPDATE meta SET value = '2.0' WHERE key = "
                            "'schema_version';");
        expectError(p, "schema version 2.0 is newer than this Tessera reads (1.x)");
        // The meta table alone is enough to tell.
        const fs::path q = copyOfGood("future-meta.tsr");
        testing::sqlExec(q, "UPDATE meta SET value = '3.1' WHERE key = 'schema_version';");
        expectError(q, "schema version 3.1 is newer");
    }

    void newerMinorVersionOpens() {
        const fs::path p = copyOfGood("minor.tsr");
        testing::sqlExec(p, "PRAGMA user_version = 1007; UPDATE meta SET value = '1.7' WHERE key = "
                            "'schema_version';"
                            " CREATE TABLE added_later (x INTEGER);"
                            " INSERT INTO meta (key, value) VALUES ('added_later', 'yes');");
        QCOMPARE(openAndQuery(p), std::string());
        QCOMPARE(ReportReader(p).info().schemaMinor, 7);
    }

    // A 1.0 report has no step_variable_access table: it opens and reports
    // no accesses; a damaged access code is one clear line.
    void olderMinorVersionWithoutAccesses() {
        QVERIFY(!ReportReader(copyOfGood("current.tsr")).variableAccesses().empty());
        const fs::path p = copyOfGood("v1_0.tsr");
        testing::sqlExec(p, "PRAGMA user_version = 1000; UPDATE meta SET value = '1.0' WHERE key = "
                            "'schema_version'; DROP TABLE step_variable_access;");
        QCOMPARE(openAndQuery(p), std::string());
        QVERIFY(ReportReader(p).variableAccesses().empty());
        const fs::path q = copyOfGood("bad-access.tsr");
        testing::sqlExec(q, "UPDATE step_variable_access SET access = 9;");
        QVERIFY_THROWS_EXCEPTION(ReportError, ReportReader(q).variableAccesses());
    }

    // Pages overwritten in the middle: every query either works or throws
    // ReportError; SQLite's corruption errors come out as one line.
    void garbledPages() {
        const auto size = fs::file_size(good_);
        int errors = 0;
        for (int i = 1; i <= 12; ++i) {
            const fs::path p = copyOfGood("garbled" + std::to_string(i) + ".tsr");
            {
                std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
                f.seekp(static_cast<std::streamoff>(size * i / 13));
                for (int b = 0; b < 3000; ++b) {
                    f.put(static_cast<char>((b * 37 + i * 11) & 0xff));
                }
            }
            const std::string what = openAndQuery(p);
            QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
            errors += what.empty() ? 0 : 1;
        }
        QVERIFY(errors > 0); // most of the file is tables the queries read
    }
};

QTEST_GUILESS_MAIN(BadInput)
#include "tst_bad_input.moc"
