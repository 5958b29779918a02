// One ReportSource shared by worker threads, as the panes share it (timeline
// frames, liveness curves, a step's tiles) while the GUI thread reads too:
// every answer equals a reference read on one thread by a ReportReader of
// its own. Plain std::threads, no Qt event loop, so installer/test.sh runs it
// under ThreadSanitizer (preset tsan), where a data race fails the test.
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/data/ReportSource.h"

#include <QtTest>

#include <thread>
#include <vector>

using namespace tessera;
using namespace tessera::views;

namespace {

// What the threads read: each step's compute cycles per tile, each tile's
// memory block count, and the first run's executed step ids.
struct Answers {
    std::vector<std::vector<std::uint32_t>> computeCycles; // by step position
    std::vector<std::size_t> blocks;                       // by tile
    std::vector<std::uint32_t> executed;                   // program step per sequence
    bool operator==(const Answers&) const = default;
};

Answers reference(const reports::ReportReader& reader) {
    Answers a;
    for (const auto& s : reader.programSteps()) {
        a.computeCycles.push_back(reader.stepTiles(s.id).computeCycles);
    }
    for (std::uint32_t t = 0; t < reader.target().numTiles; ++t) {
        a.blocks.push_back(reader.memoryBlocks(record::TileId{t}).size());
    }
    const auto run = reader.runs().front();
    for (const auto& e : reader.executedSteps(run.id, 0, run.steps)) {
        a.executed.push_back(e.programStep.value());
    }
    return a;
}

// The same through a shared ReportSource, visiting steps in the order
// `stride` gives, so threads ask for different things at the same moment.
Answers throughSource(const ReportSource& source, const std::vector<std::uint32_t>& stepIds,
                      std::uint32_t tiles, const reports::RunEntry& run, std::size_t stride) {
    Answers a;
    a.computeCycles.resize(stepIds.size());
    for (std::size_t i = 0, p = 0; i < stepIds.size(); ++i, p = (p + stride) % stepIds.size()) {
        a.computeCycles[p] = source.stepTiles(record::StepId{stepIds[p]})->computeCycles;
    }
    for (std::uint32_t t = 0; t < tiles; ++t) {
        a.blocks.push_back(source.memoryBlocks(record::TileId{t}).size());
    }
    for (const auto& e : source.executedSteps(run.id, 0, run.steps)) {
        a.executed.push_back(e.programStep.value());
    }
    return a;
}

} // namespace

class TestReportSourceThreads : public QObject {
    Q_OBJECT

private slots:
    void reportSourceSharedByThreads() {
        const QString path = testing::capturedReport("mlp-train");
        const reports::ReportReader reader(path.toStdString());
        const Answers expected = reference(reader);
        QVERIFY(expected.computeCycles.size() > 4);
        std::vector<std::uint32_t> stepIds;
        for (const auto& s : reader.programSteps()) {
            stepIds.push_back(s.id.value());
        }
        const ReportSource source(path.toStdString());
        constexpr std::size_t kThreads = 4;
        std::vector<Answers> got(kThreads);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < kThreads; ++i) {
            // Strides 1, 2, 3, 5 (coprime with most step counts) ...
            const std::size_t stride = i == 3 ? 5 : i + 1;
            threads.emplace_back([&, i, stride] {
                got[i] = throughSource(source, stepIds, reader.target().numTiles,
                                       reader.runs().front(), stride);
            });
        }
        for (auto& t : threads) {
            t.join();
        }
        for (std::size_t i = 0; i < kThreads; ++i) {
            // ... but a stride that shares a factor with the step count skips
            // steps: compare only what the thread read.
            for (std::size_t s = 0; s < expected.computeCycles.size(); ++s) {
                if (!got[i].computeCycles[s].empty()) {
                    QCOMPARE(got[i].computeCycles[s], expected.computeCycles[s]);
                }
            }
            QCOMPARE(got[i].blocks, expected.blocks);
            QCOMPARE(got[i].executed, expected.executed);
        }
        QVERIFY(!got[0].computeCycles.back().empty()); // stride 1 read every step
    }
};

QTEST_MAIN(TestReportSourceThreads)
#include "tst_report_source_threads.moc"
