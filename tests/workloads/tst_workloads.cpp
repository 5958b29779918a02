// Every workload verifies against its host reference on every preset and a
// small target, and records the same cycles whatever the thread count.
#include "engine/core/Error.h"
#include "engine/record/Recorder.h"
#include "engine/workloads/Workload.h"

#include <QtTest>

using namespace tessera;

class TestWorkloads : public QObject {
    Q_OBJECT

private slots:
    void verifies_data() {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("target");
        for (const workloads::Workload* w : workloads::all()) {
            for (const char* target : {"tiles:4", "tiles:16", "mk1", "mk2", "bow"}) {
                const QByteArray row = QByteArray::fromStdString(w->name()) + "@" + target;
                QTest::newRow(row.constData())
                    << QString::fromStdString(w->name()) << QString(target);
            }
        }
    }
    void verifies() {
        QFETCH(QString, workload);
        QFETCH(QString, target);
        record::InMemoryRecorder rec;
        EngineOptions options;
        options.recorder = &rec;
        const auto result = workloads::run(workloads::find(workload.toStdString()),
                                           Target::preset(target.toStdString()), {}, options);
        QVERIFY2(result.verification.passed, result.verification.detail.c_str());
        QCOMPARE(rec.verifications.size(), std::size_t{1});
        QVERIFY(rec.verifications[0].passed);
        QVERIFY(!rec.compiled.outOfMemory);
        // The run's cycles are the sum of its executed steps' cycles.
        std::uint64_t sum = 0;
        for (const auto& s : rec.steps) {
            sum += s.cycles;
            QCOMPARE(s.cycles, rec.compiled.programSteps[s.programStep.value()].totalCycles);
        }
        QCOMPARE(result.cycles, sum);
        QCOMPARE(rec.runEnds.back().cycles, sum);
        QVERIFY(sum > 0);
    }

    void halfPrecisionVerifies_data() {
        QTest::addColumn<QString>("workload");
        QTest::newRow("matmul") << "matmul";
        QTest::newRow("elementwise") << "elementwise";
        QTest::newRow("reduce") << "reduce";
    }
    void halfPrecisionVerifies() {
        QFETCH(QString, workload);
        const auto result = workloads::run(workloads::find(workload.toStdString()),
                                           Target::preset("tiles:16"), {{"type", "half"}}, {});
        QVERIFY2(result.verification.passed, result.verification.detail.c_str());
    }

    void deterministicAcrossThreadCounts() {
        for (const workloads::Workload* w : workloads::all()) {
            record::InMemoryRecorder one, four;
            EngineOptions a, b;
            a.threads = 1;
            a.recorder = &one;
            b.threads = 4;
            b.recorder = &four;
            const auto target = Target::preset("tiles:16");
            const auto ra = workloads::run(*w, target, {}, a);
            const auto rb = workloads::run(*w, target, {}, b);
            QCOMPARE(ra.cycles, rb.cycles);
            QCOMPARE(ra.verification.maxAbsError, rb.verification.maxAbsError);
            QCOMPARE(one.steps.size(), four.steps.size());
            for (std::size_t i = 0; i < one.steps.size(); ++i) {
                QCOMPARE(one.steps[i].programStep, four.steps[i].programStep);
                QCOMPARE(one.steps[i].cycles, four.steps[i].cycles);
            }
            QCOMPARE(one.compiled.totalMemoryBytes, four.compiled.totalMemoryBytes);
        }
    }

    // elementwise's `grain` changes the tile mapping (docs/workloads): input
    // `a` (n floats) goes on ceil(n / grain) tiles at most, whole grains each.
    void elementwiseGrainChangesTheMapping() {
        auto tilesOfA = [](const std::string& grain) {
            record::InMemoryRecorder rec;
            EngineOptions options;
            options.recorder = &rec;
            const auto result =
                workloads::run(workloads::find("elementwise"), Target::preset("tiles:16"),
                               {{"n", "4096"}, {"grain", grain}}, options);
            if (!result.verification.passed) {
                qFatal("elementwise grain=%s failed verification", grain.c_str());
            }
            for (const auto& v : rec.compiled.variables) {
                if (v.name == "a") {
                    return v.bytesByTile;
                }
            }
            qFatal("no variable a");
        };
        const auto fine = tilesOfA("8");
        const auto coarse = tilesOfA("1024");
        QCOMPARE(fine.size(), std::size_t(16));  // 4096 / 8 grains over every tile
        QCOMPARE(coarse.size(), std::size_t(4)); // 4 grains of 1024: 4 tiles
        for (const auto& [tile, bytes] : coarse) {
            QCOMPARE(bytes, std::uint64_t(1024 * 4)); // a whole grain of floats per tile
        }
        try {
            workloads::run(workloads::find("elementwise"), Target::preset("tiles:4"),
                           {{"grain", "0"}}, {});
            QFAIL("grain 0 was accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("'grain'"), e.what());
        }
    }

    void badParametersAreNamed() {
        try {
            workloads::run(workloads::find("matmul"), Target::preset("tiles:4"), {{"q", "1"}}, {});
            QFAIL("an unknown parameter was accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("'q'"), e.what());
        }
        try {
            workloads::run(workloads::find("matmul"), Target::preset("tiles:4"), {{"m", "zero"}},
                           {});
            QFAIL("a bad value was accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("'m'"), e.what());
        }
        try {
            workloads::find("nope");
            QFAIL("an unknown workload was found");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("matmul"), e.what()); // lists the known ones
        }
    }

    void multiIpuTargetsExchangeOverLinksAndSyncGlobally() {
        Target target = Target::preset("tiles:8");
        target.set("numIPUs", "2");
        for (const workloads::Workload* w : workloads::all()) {
            record::InMemoryRecorder rec;
            EngineOptions options;
            options.recorder = &rec;
            const auto result = workloads::run(*w, target, {}, options);
            QVERIFY2(result.verification.passed,
                     (w->name() + ": " + result.verification.detail).c_str());
            QCOMPARE(rec.compiled.target.numIPUs, 2u);
            QCOMPARE(rec.compiled.tileMemory.size(), std::size_t{16});
        }
        // matmul spreads over both IPUs: its block copies cross the links.
        record::InMemoryRecorder rec;
        EngineOptions options;
        options.recorder = &rec;
        workloads::run(workloads::find("matmul"), target, {}, options);
        bool crossing = false;
        for (const auto& s : rec.compiled.programSteps) {
            if (s.crossesIpus) {
                crossing = true;
                QCOMPARE(s.syncCycles, std::uint64_t{target.globalSyncCycles});
            } else if (s.kind == record::ProgramKind::Execute) {
                QCOMPARE(s.syncCycles, std::uint64_t{target.ipuSyncCycles});
            }
        }
        QVERIFY(crossing);
    }

    void stressMakesTheRequestedSteps() {
        record::InMemoryRecorder rec;
        EngineOptions options;
        options.recorder = &rec;
        const auto result = workloads::run(workloads::find("stress"), Target::preset("tiles:8"),
                                           {{"steps", "400"}}, options);
        QVERIFY(result.verification.passed);
        QCOMPARE(rec.steps.size(), std::size_t{400});
        QCOMPARE(rec.compiled.programSteps.size(), std::size_t{4});
    }
};

QTEST_APPLESS_MAIN(TestWorkloads)
#include "tst_workloads.moc"
