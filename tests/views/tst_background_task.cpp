// BackgroundTask: work runs on the pool, its result (or what it threw) comes
// back once on the owner's thread, and a newer start() replaces an older one.
// Also run under ThreadSanitizer (preset tsan), which checks the hand-overs.
#include "views/common/BackgroundTask.h"
#include "views/common/HandOver.h"

#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <vector>

using namespace tessera::views;

namespace {

struct Sum {
    std::vector<int> values;
    long long total = 0;
    QThread* thread = nullptr;
};

} // namespace

class TestBackgroundTask : public QObject {
    Q_OBJECT

private slots:
    void resultComesBackFromAWorker() {
        BackgroundTask<Sum> task;
        QSignalSpy finished(&task.watcher(), &QFutureWatcher<void>::finished);
        std::vector<int> input(100000);
        std::iota(input.begin(), input.end(), 1); // 1..100000
        task.start([input] {
            Sum s;
            s.values = input;
            for (int v : input) {
                s.total += v;
            }
            s.thread = QThread::currentThread();
            return s;
        });
        QVERIFY(finished.wait(10000));
        const Sum s = task.take();
        QCOMPARE(s.total, 100000LL * 100001LL / 2); // Gauss
        QCOMPARE(s.values.size(), input.size());
        QVERIFY(s.thread != QThread::currentThread());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, task.take()); // once only
    }

    void whatTheWorkThrowsTakeThrows() {
        BackgroundTask<int> task;
        QSignalSpy finished(&task.watcher(), &QFutureWatcher<void>::finished);
        task.start([]() -> int { throw std::runtime_error("unreadable"); });
        QVERIFY(finished.wait(10000));
        try {
            task.take();
            QFAIL("take() returned");
        } catch (const std::runtime_error& e) {
            QCOMPARE(QString(e.what()), QString("unreadable"));
        }
    }

    // The first task is still blocked when the second starts: only the
    // second's result is delivered, and finished() comes once for it.
    void aNewerStartReplacesAnOlderOne() {
        BackgroundTask<int> task;
        QSignalSpy finished(&task.watcher(), &QFutureWatcher<void>::finished);
        std::atomic<bool> release{false};
        task.start([&release] {
            while (!release.load()) {
                QThread::msleep(1);
            }
            return 1;
        });
        task.start([] { return 2; });
        QVERIFY(finished.wait(10000));
        QCOMPARE(task.take(), 2);
        release.store(true);
        QTest::qWait(100); // the first finishes now: nothing more arrives
        QCOMPARE(finished.count(), 1);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, task.take());
        // The first job reads `release` on this frame: it must be done before
        // the frame goes (ThreadSanitizer saw the next test reuse it).
        QThreadPool::globalInstance()->waitForDone();
    }

    // A port runs what another thread posts on its own thread, in order.
    void aPortRunsPostedCallsOnItsThread() {
        HandOverPort port;
        std::vector<int> seen;
        std::vector<QThread*> threads;
        QThread* poster = QThread::create([&port, &seen, &threads] {
            for (int i = 0; i < 5; ++i) {
                port.post([i, &seen, &threads] {
                    seen.push_back(i);
                    threads.push_back(QThread::currentThread());
                });
            }
        });
        poster->start();
        QVERIFY(poster->wait(10000));
        delete poster;
        QTRY_COMPARE(seen.size(), std::size_t{5});
        QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3, 4}));
        for (QThread* t : threads) {
            QCOMPARE(t, QThread::currentThread());
        }
    }
};

QTEST_GUILESS_MAIN(TestBackgroundTask)
#include "tst_background_task.moc"
