// Figures derived once in reports/ (Figures.h, ReportReader::stepExecutions):
// literal values worked out by hand, and executions per step compared with
// a count of the StepExecutionRecords the engine handed the writer.
#include "SmallProgram.h"
#include "reports/Figures.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace tessera;
using namespace tessera::reports;

namespace {

// Counts executions per program step as the engine reports them.
class CountingRecorder : public record::Recorder {
public:
    std::map<record::StepId, std::uint64_t> executions;
    void onCompiled(const record::CompiledRecord&) override {}
    void onRunBegin(const record::RunBeginRecord&) override {}
    void onStep(const record::StepExecutionRecord& r) override { ++executions[r.programStep]; }
    void onRunEnd(const record::RunEndRecord&) override {}
    void onVerification(const record::VerificationRecord&) override {}
};

} // namespace

class TestFigures : public QObject {
    Q_OBJECT

private slots:
    void tileBalanceByHand() {
        // mean 15 of max 20 = 0.75; the all-zero case is balanced (1).
        QCOMPARE(tileBalance(15.0, 20.0), 0.75);
        QCOMPARE(tileBalance(0.0, 0.0), 1.0);
        ProgramStepEntry s;
        s.computeCyclesSum = 30; // tiles 10 and 20 of two
        s.computeCyclesMax = 20;
        QCOMPARE(tileBalance(s, 2), 0.75);
        s.computeCyclesSum = 0;
        s.computeCyclesMax = 0;
        QCOMPARE(tileBalance(s, 2), 1.0);
        QCOMPARE(tileBalance(s, 0), 1.0);
    }

    void shapeTextByHand() {
        QCOMPARE(shapeText({128, 64}), std::string("[128, 64]"));
        QCOMPARE(shapeText({7}), std::string("[7]"));
        QCOMPARE(shapeText({}), std::string("[]"));
    }

    void stepExecutionsMatchTheEngine() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("small.tsr").toStdString();
        CountingRecorder counter;
        {
            ReportWriter writer(path);
            testing::TeeRecorder tee(writer, counter);
            testing::SmallProgram{}.run(tee);
            writer.finish();
        }
        const ReportReader reader(path);
        const auto got = reader.stepExecutions();
        QCOMPARE(got.size(), counter.executions.size());
        std::uint64_t repeated = 0;
        for (const auto& [step, count] : got) {
            QCOMPARE(count, counter.executions.at(step));
            repeated = std::max(repeated, count);
        }
        // The body of the Repeat runs repeats times in each of the runs.
        const testing::SmallProgram program;
        QCOMPARE(repeated, std::uint64_t{program.repeats} * program.runs);
    }
};

QTEST_MAIN(TestFigures)
#include "tst_figures.moc"
