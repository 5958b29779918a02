// The background loaders (ReportLoader, CompareLoader) hand their result to
// the GUI thread once, complete, and a new load replaces one in progress.
// Every answer is compared with a reference read on the test's thread.
// Also run under ThreadSanitizer (preset tsan): the hand-overs go through
// views/common/HandOver.h, which TSan sees.
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/compare/CompareLoader.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <QSignalSpy>
#include <QtTest>

#include <functional>
#include <vector>

using namespace tessera;
using namespace tessera::views;

namespace {

// How many times `work` opens each of `paths` (Linux inotify IN_OPEN; closes
// are watched too because inotify merges identical events in a row).
std::vector<int> opensDuring(const std::vector<QString>& paths, const std::function<void()>& work) {
    const int fd = inotify_init1(IN_NONBLOCK);
    std::vector<int> watches;
    for (const QString& p : paths) {
        watches.push_back(inotify_add_watch(fd, p.toLocal8Bit().constData(), IN_OPEN | IN_CLOSE));
    }
    work();
    std::vector<int> opens(paths.size(), 0);
    alignas(inotify_event) char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) {
        for (char* at = buffer; at < buffer + n;) {
            const auto* event = reinterpret_cast<const inotify_event*>(at);
            for (std::size_t i = 0; i < watches.size(); ++i) {
                opens[i] += event->wd == watches[i] && (event->mask & IN_OPEN) ? 1 : 0;
            }
            at += sizeof(inotify_event) + event->len;
        }
    }
    close(fd);
    return opens;
}

} // namespace

class TestBackgroundLoaders : public QObject {
    Q_OBJECT

private slots:
    // A background load hands over its result once, on the GUI thread, and
    // what it hands over is what the file holds.
    void loaderHandsOverOnTheGuiThread() {
        const QString path = testing::capturedReport("matmul");
        const reports::ReportReader reader(path.toStdString());
        ReportLoader loader;
        bool onGuiThread = true;
        LoadedReport result;
        int handed = 0;
        connect(&loader, &ReportLoader::finished, this, [&](const LoadedReport& r) {
            onGuiThread = onGuiThread && QThread::currentThread() == thread();
            result = r;
            ++handed;
        });
        loader.load(path);
        QVERIFY(QTest::qWaitFor([&] { return handed > 0 && !loader.isLoading(); }, 60000));
        QTest::qWait(50); // nothing more arrives
        QCOMPARE(handed, 1);
        QVERIFY(onGuiThread);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QVERIFY(result.data && result.source);
        QCOMPARE(result.data->programSteps.size(), reader.programSteps().size());
        QCOMPARE(result.data->variables.size(), reader.variables().size());
        const reports::ProgramStepEntry first = reader.programSteps().front();
        QCOMPARE(result.source->stepTiles(first.id)->computeCycles,
                 reader.stepTiles(first.id).computeCycles);
    }

    // Loading again before the first load finished: only the second result
    // arrives (the first is cancelled), and it is complete.
    void secondLoadReplacesTheFirst() {
        const QString first = testing::capturedReport("mlp-train");
        const QString second = testing::capturedReport("matmul");
        const reports::ReportReader reader(second.toStdString());
        ReportLoader loader;
        std::vector<LoadedReport> handed;
        connect(&loader, &ReportLoader::finished, this,
                [&](const LoadedReport& r) { handed.push_back(r); });
        loader.load(first);
        loader.load(second);
        QVERIFY(QTest::qWaitFor([&] { return !loader.isLoading() && !handed.empty(); }, 60000));
        QTest::qWait(50);
        QVERIFY(!handed.empty());
        const LoadedReport& last = handed.back();
        QVERIFY2(last.error.isEmpty(), qPrintable(last.error));
        QVERIFY(last.data);
        QCOMPARE(QString::fromStdString(last.data->path.string()), second);
        QCOMPARE(last.data->programSteps.size(), reader.programSteps().size());
    }

    // The compare loader: both reports and their diff on one worker, handed
    // over on the GUI thread; the same diff as a comparison made here.
    void compareLoaderHandsOverOnTheGuiThread() {
        const QString baseline = testing::capturedReport("matmul", "tiles:16", {{"m", "64"}});
        const QString comparison = testing::capturedReport("matmul", "tiles:16", {{"m", "128"}});
        const LoadedComparison expected = CompareLoader::loadNow(baseline, comparison);
        QVERIFY2(expected.error.isEmpty(), qPrintable(expected.error));
        CompareLoader loader;
        bool onGuiThread = true;
        std::vector<LoadedComparison> handed;
        connect(&loader, &CompareLoader::finished, this, [&](const LoadedComparison& r) {
            onGuiThread = onGuiThread && QThread::currentThread() == thread();
            handed.push_back(r);
        });
        loader.load(baseline, comparison);
        QVERIFY(QTest::qWaitFor([&] { return !loader.isLoading() && !handed.empty(); }, 60000));
        QTest::qWait(50);
        QCOMPARE(handed.size(), std::size_t{1});
        QVERIFY(onGuiThread);
        QVERIFY2(handed[0].error.isEmpty(), qPrintable(handed[0].error));
        const reports::ReportDiff& got = handed[0].data->diff;
        const reports::ReportDiff& want = expected.data->diff;
        QCOMPARE(got.steps.size(), want.steps.size());
        QVERIFY(!got.steps.empty());
        for (std::size_t i = 0; i < got.steps.size(); ++i) {
            QCOMPARE(got.steps[i].identity, want.steps[i].identity);
            QCOMPARE(got.steps[i].cycles.delta(), want.steps[i].cycles.delta());
        }
    }

    // Loading opens each report once (one reader serves the data, the source
    // and a comparison's snapshot): as many opens of the file as one reader makes.
    void eachReportIsOpenedOnce() {
        const QString baseline = testing::capturedReport("matmul", "tiles:16", {{"m", "64"}});
        const QString comparison = testing::capturedReport("matmul", "tiles:16", {{"m", "128"}});
        const int perReader = opensDuring({baseline}, [&] {
            const reports::ReportReader reader(baseline.toStdString());
            QVERIFY(!reader.info().path.empty());
        })[0];
        QVERIFY(perReader >= 1);
        LoadedReport single;
        QCOMPARE(opensDuring({baseline}, [&] { single = ReportLoader::loadNow(baseline); }),
                 std::vector<int>{perReader});
        QVERIFY2(single.error.isEmpty(), qPrintable(single.error));
        LoadedComparison both;
        QCOMPARE(opensDuring({baseline, comparison},
                             [&] { both = CompareLoader::loadNow(baseline, comparison); }),
                 (std::vector<int>{perReader, perReader}));
        QVERIFY2(both.error.isEmpty(), qPrintable(both.error));
        // The sources still answer from their readers.
        QVERIFY(!both.data->baselineView.source->stepExecutions().empty());
        QVERIFY(!both.data->comparisonView.source->stepExecutions().empty());
    }
};

QTEST_MAIN(TestBackgroundLoaders)
#include "tst_background_loaders.moc"
