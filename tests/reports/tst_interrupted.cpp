// A capture that stops early never leaves a broken file at the output path:
// either nothing, or (keepIncomplete) a report that opens and says so.
#include "SmallProgram.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace tessera;
using namespace tessera::reports;
namespace fs = std::filesystem;

class Interrupted : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    record::InMemoryRecorder mem_; // one real capture, replayed in part

    static WriterOptions options(bool keepIncomplete, std::uint64_t stepsPerTransaction = 8192) {
        WriterOptions o;
        o.keepIncomplete = keepIncomplete;
        o.stepsPerTransaction = stepsPerTransaction;
        return o;
    }

    fs::path path(const char* name) const { return fs::path(dir_.path().toStdString()) / name; }

    // Feeds the compiled graph and the first `steps` steps of run 0, no more.
    void replay(record::Recorder& r, std::size_t steps) const {
        r.onCompiled(mem_.compiled);
        r.onRunBegin(mem_.runs.front());
        for (std::size_t i = 0; i < steps; ++i) {
            r.onStep(mem_.steps[i]);
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        testing::SmallProgram{}.run(mem_);
        QVERIFY(mem_.steps.size() > 100);
    }

    void destroyedWithoutFinishLeavesNoFile() {
        const fs::path out = path("dropped.tsr");
        fs::path partial;
        {
            ReportWriter writer(out, options(false, 16));
            partial = writer.partialPath();
            replay(writer, 100);
            QVERIFY(fs::exists(partial));
        }
        QVERIFY(!fs::exists(out));
        QVERIFY(!fs::exists(partial));
    }

    void exceptionDuringCaptureLeavesNoFile() {
        const fs::path out = path("thrown.tsr");
        try {
            ReportWriter writer(out);
            record::InMemoryRecorder sink;
            testing::TeeRecorder both(sink, writer);
            replay(both, 10);
            throw std::runtime_error("capture failed");
        } catch (const std::runtime_error&) {
        }
        QVERIFY(!fs::exists(out));
        QVERIFY(!fs::exists(out.string() + ".partial"));
    }

    void keepIncompleteOpensAndSaysSo() {
        const fs::path out = path("kept.tsr");
        {
            ReportWriter writer(out, options(true, 16));
            replay(writer, 100);
        }
        QVERIFY(fs::exists(out));
        QVERIFY(!fs::exists(out.string() + ".partial"));
        ReportReader reader(out, {.quickCheck = true});
        QVERIFY(!reader.info().complete);
        QVERIFY(!reader.info().incompleteReason.empty());
        const auto runs = reader.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY(!runs[0].completed);
        QCOMPARE(runs[0].steps, std::uint64_t(100));
        QVERIFY(!runs[0].error.empty());
        QCOMPARE(reader.executedSteps(0, 0, 1000).size(), std::size_t(100));
        // The LOD of the partial run is there too: 100 steps = 2 buckets + 1.
        QCOMPARE(reader.lodLevels(0).size(), std::size_t(3));
        const Summary s = reader.summary();
        QVERIFY(!s.report.complete);
        QVERIFY(formatText(s).find("INCOMPLETE") != std::string::npos);
        QVERIFY(formatJson(s).find("\"complete\": false") != std::string::npos);
    }

    void keepIncompleteBeforeCompileStillOpens() {
        const fs::path out = path("early.tsr");
        { ReportWriter writer(out, options(true)); }
        ReportReader reader(out);
        QVERIFY(!reader.info().complete);
        QCOMPARE(reader.target().numTiles, 0u);
        QCOMPARE(reader.summary().cycles.total, std::uint64_t(0));
        QVERIFY(reader.runs().empty());
    }

    void failedCaptureKeepsThePreviousReport() {
        const fs::path out = path("previous.tsr");
        {
            std::ofstream old(out);
            old << "previous contents";
        }
        {
            ReportWriter writer(out);
            replay(writer, 5);
        }
        std::ifstream in(out);
        std::string text;
        std::getline(in, text);
        QCOMPARE(text, std::string("previous contents"));
    }

    void finishReplacesAStalePartial() {
        const fs::path out = path("stale.tsr");
        {
            std::ofstream stale(out.string() + ".partial");
            stale << "left by a killed capture";
        }
        {
            ReportWriter writer(out);
            replay(writer, 5);
            writer.onRunEnd({0, 5, 0, 0, 0, 0, false, "stopped"});
            writer.finish();
        }
        QVERIFY(ReportReader(out).info().complete);
        QVERIFY(!fs::exists(out.string() + ".partial"));
    }

    void missingDirectoryIsOneLine() {
        try {
            ReportWriter writer(path("no/such/dir/x.tsr"));
            QFAIL("expected ReportError");
        } catch (const ReportError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("no such directory") != std::string::npos, e.what());
            QVERIFY(what.find('\n') == std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(Interrupted)
#include "tst_interrupted.moc"
