// A real capture (the workload library on the engine) that fails midway with
// an exception: with keepIncomplete the report opens and says it is
// incomplete, with the run's error and the steps recorded before the
// failure; without it nothing is left behind. (tst_cli kills a capture with
// SIGKILL, which no exception handler sees.)
#include "SmallProgram.h"
#include "engine/workloads/Workload.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <stdexcept>

using namespace tessera;
using namespace tessera::reports;
namespace fs = std::filesystem;

namespace {

// Forwards records and throws on step `failAt`, as a failing capture would.
class FailingRecorder : public record::Recorder {
public:
    FailingRecorder(record::Recorder& inner, std::uint64_t failAt)
        : inner_(inner)
        , failAt_(failAt) {}
    void onCompiled(const record::CompiledRecord& r) override { inner_.onCompiled(r); }
    void onRunBegin(const record::RunBeginRecord& r) override { inner_.onRunBegin(r); }
    void onStep(const record::StepExecutionRecord& r) override {
        if (r.sequence == failAt_) {
            throw std::runtime_error("simulated failure at step " + std::to_string(failAt_));
        }
        inner_.onStep(r);
    }
    void onRunEnd(const record::RunEndRecord& r) override { inner_.onRunEnd(r); }
    void onVerification(const record::VerificationRecord& r) override { inner_.onVerification(r); }

private:
    record::Recorder& inner_;
    std::uint64_t failAt_;
};

} // namespace

class CaptureException : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    // Captures `stress` with 20000 steps, failing at step 3000.
    void failingCapture(const fs::path& out, bool keepIncomplete) {
        WriterOptions options;
        options.workload = "stress";
        options.keepIncomplete = keepIncomplete;
        options.stepsPerTransaction = 1024;
        ReportWriter writer(out, options);
        FailingRecorder failing(writer, 3000);
        EngineOptions engine;
        engine.recorder = &failing;
        engine.threads = 2;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, workloads::run(workloads::find("stress"),
                                                                    Target::preset("tiles:8"),
                                                                    {{"steps", "20000"}}, engine));
        QVERIFY(fs::exists(writer.partialPath()));
        QVERIFY(!fs::exists(out));
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void keepIncompleteOpensAndIsMarked() {
        const fs::path out = fs::path(dir_.path().toStdString()) / "kept.tsr";
        failingCapture(out, true);
        QVERIFY(fs::exists(out));
        QVERIFY(!fs::exists(out.string() + ".partial"));
        const ReportReader reader(out, {.quickCheck = true});
        QVERIFY(!reader.info().complete);
        QVERIFY(!reader.info().incompleteReason.empty());
        QCOMPARE(reader.info().workload, std::string("stress"));
        QCOMPARE(reader.target().numTiles, 8u);
        const auto runs = reader.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY(!runs[0].completed);
        QCOMPARE(runs[0].steps, std::uint64_t(3000));
        QVERIFY2(runs[0].error.find("simulated failure at step 3000") != std::string::npos,
                 runs[0].error.c_str());
        QCOMPARE(reader.executedSteps(0, 0, 1 << 20).size(), std::size_t(3000));
        QVERIFY(reader.lodLevels(0).size() >= 2);
        const Summary s = reader.summary();
        QVERIFY(!s.report.complete);
        QCOMPARE(s.runs.incomplete, std::uint64_t(1));
        QVERIFY(s.cycles.total > 0);
        QVERIFY(!s.verification.has_value()); // it never got that far
    }

    void withoutKeepIncompleteNothingIsLeft() {
        const fs::path out = fs::path(dir_.path().toStdString()) / "dropped.tsr";
        failingCapture(out, false);
        QVERIFY(!fs::exists(out));
        QVERIFY(!fs::exists(out.string() + ".partial"));
    }
};

QTEST_GUILESS_MAIN(CaptureException)
#include "tst_capture_exception.moc"
