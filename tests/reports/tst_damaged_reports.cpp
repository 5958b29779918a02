// Every damage class issue 19 found by stack (ReportDamage.h), through the
// reader and through tessera-cli: each read either works or throws one
// ReportError line naming the file and the damaged table or column; the
// structural checks at open name what they found; the CLI exits 0 or 2 with
// one line, never crashes or hangs.
#include "SmallProgram.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"
#include "tests/reports/ReportDamage.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace tessera;
using namespace tessera::reports;
namespace fs = std::filesystem;

namespace {

// Every query a pane or the CLI makes, each on its own so one damaged part
// does not hide another: the ReportError lines, in order. Anything other
// than a ReportError escapes and fails the test.
struct Reading {
    bool opened = false;
    std::vector<std::string> problems; // what the structural checks found at open
    std::vector<std::string> errors;   // every ReportError, open and queries
};

Reading readEverything(const fs::path& file) {
    Reading out;
    auto query = [&](const std::function<void()>& f) {
        try {
            f();
        } catch (const ReportError& e) {
            out.errors.push_back(e.what());
        }
    };
    query([&] {
        const ReportReader r(file);
        out.opened = true;
        out.problems = r.problems();
        query([&] { r.summary(); });
        query([&] { r.memoryCategories(); });
        query([&] { r.codelets(); });
        query([&] {
            for (const auto& v : r.variables()) {
                r.variableTiles(v.id);
            }
        });
        query([&] { r.computeSets(); });
        query([&] { r.vertexCounts(); });
        query([&] { r.tileMemory(); });
        for (std::uint32_t t = 0; t < r.target().numTiles; ++t) {
            query([&] { r.memoryBlocks(record::TileId{t}); });
        }
        query([&] { r.programNodes(); });
        query([&] { r.variableAccesses(); });
        query([&] { r.verifications(); });
        std::vector<ProgramStepEntry> steps;
        query([&] { steps = r.programSteps(); });
        for (const auto& s : steps) {
            query([&] { r.stepTiles(s.id); });
            query([&] { r.liveVariables(s.id); });
        }
        std::vector<RunEntry> runs;
        query([&] { runs = r.runs(); });
        for (const auto& run : runs) {
            query([&] { r.executedSteps(run.id, 0, 1u << 20); });
            query([&] {
                for (const auto& l : r.lodLevels(run.id)) {
                    r.lodBuckets(run.id, l.level, 0, 1u << 20);
                }
            });
        }
    });
    return out;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& what) {
    for (const std::string& l : lines) {
        if (l.find(what) != std::string::npos) {
            return true;
        }
    }
    return false;
}

struct Run {
    int exitCode = -1; // -3: crashed, -2: timed out
    QString err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TESSERA_CLI_PATH), args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.exitCode = -2;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class DamagedReports : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    fs::path good_;

    fs::path damaged(const testing::Damage& d) const {
        const fs::path p = fs::path(dir_.path().toStdString()) / (std::string(d.name) + ".tsr");
        fs::copy_file(good_, p, fs::copy_options::overwrite_existing);
        const std::string error = testing::applyDamage(p, d);
        if (!error.empty()) {
            qFatal("cannot damage %s: %s", d.name, error.c_str());
        }
        return p;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        good_ = fs::path(dir_.path().toStdString()) / "good.tsr";
        ReportWriter writer(good_);
        testing::SmallProgram{}.run(writer);
        writer.finish();
        const Reading r = readEverything(good_);
        QVERIFY(r.opened);
        QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors.front().c_str());
        // Two LOD levels, so the LOD damage has something to damage.
        const ReportReader reader(good_);
        QVERIFY(reader.lodLevels(reader.runs().front().id).size() >= 3);
    }

    void readerNamesTheDamage_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < testing::damageClasses().size(); ++i) {
            QTest::newRow(testing::damageClasses()[i].name) << static_cast<int>(i);
        }
    }

    // Every read works or says what is damaged, in one line naming the file.
    void readerNamesTheDamage() {
        QFETCH(int, index);
        const testing::Damage& d = testing::damageClasses()[static_cast<std::size_t>(index)];
        const fs::path file = damaged(d);
        QElapsedTimer timer;
        timer.start();
        const Reading r = readEverything(file);
        QVERIFY2(timer.elapsed() < 20000, "reading took more than 20 s");
        for (const std::string& e : r.errors) {
            QVERIFY2(e.find('\n') == std::string::npos, e.c_str());
            QVERIFY2(e.find(file.string()) != std::string::npos, e.c_str());
        }
        const std::string names = d.names;
        if (names.empty()) {
            QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors.front().c_str());
        } else {
            QVERIFY2(anyContains(r.errors, names),
                     (names + " not named; errors: " +
                      (r.errors.empty() ? std::string("none") : r.errors.front()))
                         .c_str());
        }
    }

    // The structural checks at open say what they found, and the queries of
    // the damaged part throw it, while the rest of the report reads.
    void structuralChecksAtOpen() {
        struct Case {
            const char* damage;
            const char* problem;
        };
        const Case cases[] = {
            {"program-node-own-parent", "the program tree has a cycle"},
            {"program-node-cycle", "the program tree has a cycle"},
            {"program-node-missing-parent", "names node 99999, which does not exist"},
            {"step-tiles-cut-to-3-bytes", "has 3 bytes, expected 24 (4 per tile)"},
            {"step-tiles-as-text", "is text, not a blob"},
            {"step-tiles-grown-to-1-mib", "has 1048576 bytes"},
            {"step-tiles-int64-max", "is integer, not a blob"},
            {"lod-groups-1e9", "lod_levels.groups of level 1 of run 0 is 1000000000"},
            {"lod-bucket-steps-0", "lod_levels.bucket_steps of level 1 of run 0 is 0"},
        };
        for (const Case& c : cases) {
            const testing::Damage* d = nullptr;
            for (const auto& k : testing::damageClasses()) {
                d = std::string(k.name) == c.damage ? &k : d;
            }
            QVERIFY(d != nullptr);
            const fs::path file = damaged(*d);
            const ReportReader reader(file); // opens: the rest of the report is readable
            QVERIFY2(anyContains(reader.problems(), c.problem),
                     (std::string(c.damage) + ": " +
                      (reader.problems().empty() ? "no problem" : reader.problems().front()))
                         .c_str());
            QVERIFY(!reader.summary().target.name.empty());
            QVERIFY(!reader.tileMemory().empty());
            QVERIFY(!reader.variables().empty());
        }
        // user_version 0 and -1 are refused like a newer major version.
        for (const char* name : {"user-version-0", "user-version-minus-1"}) {
            for (const auto& k : testing::damageClasses()) {
                if (std::string(k.name) == name) {
                    const fs::path file = damaged(k);
                    QVERIFY_THROWS_EXCEPTION(ReportError, ReportReader{file});
                }
            }
        }
    }

    // A sound report has no problems (the checks cost no false alarms).
    void soundReportHasNoProblems() { QVERIFY(ReportReader(good_).problems().empty()); }

    void cliSaysOneLine_data() { readerNamesTheDamage_data(); }

    // summary, diff and export: exit 0, or exit 2 with one line naming the
    // damaged table; never a crash or a hang.
    void cliSaysOneLine() {
        QFETCH(int, index);
        const testing::Damage& d = testing::damageClasses()[static_cast<std::size_t>(index)];
        const QString file = QString::fromStdString(damaged(d).string());
        const QString out = dir_.filePath(QStringLiteral("trace-%1.json").arg(d.name));
        const std::string names = d.names;
        const QString table = QString::fromStdString(names.substr(0, names.find('.')));
        bool failedNamingIt = false;
        for (const QStringList& args :
             {QStringList{"summary", file}, QStringList{"diff", file, file, "--json"},
              QStringList{"export", file, "--format", "chrome-trace", "-o", out}}) {
            const Run r = cli(args);
            const QString what = args.join(' ') + ": " + r.err;
            QVERIFY2(r.exitCode == 0 || r.exitCode == 2, qPrintable(what));
            if (r.exitCode == 2) {
                QVERIFY2(r.err.count('\n') == 1 && r.err.startsWith("tessera-cli: error: "),
                         qPrintable(what));
                QVERIFY2(!table.isEmpty() && r.err.contains(table), qPrintable(what));
                failedNamingIt = true;
            }
        }
        // What the CLI reads of a report (not the memory blocks, nor the LOD
        // buckets of a report this small), it refuses when damaged.
        if (!names.empty() && !names.starts_with("memory_blocks") &&
            !names.starts_with("lod_buckets")) {
            QVERIFY2(failedNamingIt, "no command said the report is damaged");
        }
    }
};

QTEST_GUILESS_MAIN(DamagedReports)
#include "tst_damaged_reports.moc"
