// The engine's ThreadPool: every index of a call runs exactly once, what the
// threads wrote is visible when the call returns, and the lowest chunk's
// error is the one rethrown; both when calls follow each other at once (the
// threads wait awake) and when they come after a pause (the threads slept).
#include "engine/runtime/ThreadPool.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace tessera;

class TestEngineThreadPool : public QObject {
    Q_OBJECT
private slots:
    void eachIndexOnceAndVisible_data();
    void eachIndexOnceAndVisible();
    void lowestChunkErrorWins();
};

void TestEngineThreadPool::eachIndexOnceAndVisible_data() {
    QTest::addColumn<unsigned>("threads");
    QTest::addColumn<bool>("pauses");
    for (unsigned threads : {1u, 2u, 3u, 5u}) {
        for (bool pauses : {false, true}) {
            QTest::addRow("%u threads%s", threads, pauses ? ", pauses" : "") << threads << pauses;
        }
    }
}

void TestEngineThreadPool::eachIndexOnceAndVisible() {
    QFETCH(unsigned, threads);
    QFETCH(bool, pauses);
    ThreadPool pool(threads);
    QCOMPARE(pool.size(), threads);
    const std::vector<std::size_t> sizes{0, 1, 2, 3, 7, 16, 41, 100, 1000};
    std::vector<std::size_t> data;                 // plain writes, read after the call
    std::vector<std::atomic<unsigned>> hits(1000); // runs of each index
    const int calls = pauses ? 60 : 3000;
    for (int call = 0; call < calls; ++call) {
        const std::size_t n = sizes[static_cast<std::size_t>(call) % sizes.size()];
        data.assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            hits[i] = 0;
        }
        pool.parallelFor(n, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                data[i] = static_cast<std::size_t>(call) * 1000 + i + 1;
                hits[i].fetch_add(1, std::memory_order_relaxed);
            }
        });
        for (std::size_t i = 0; i < n; ++i) {
            if (hits[i] != 1 || data[i] != static_cast<std::size_t>(call) * 1000 + i + 1) {
                QFAIL(
                    qPrintable(QStringLiteral("call %1 (n = %2): index %3 ran %4 time(s), holds %5")
                                   .arg(call)
                                   .arg(n)
                                   .arg(i)
                                   .arg(hits[i].load())
                                   .arg(data[i])));
            }
        }
        if (pauses) { // longer than the threads wait awake
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
}

// Chunks from index 50 on throw, each naming its first index; every chunk
// still runs, and the error of the chunk holding index 50 is rethrown.
void TestEngineThreadPool::lowestChunkErrorWins() {
    for (unsigned threads : {1u, 2u, 4u}) {
        ThreadPool pool(threads);
        for (int repeat = 0; repeat < 200; ++repeat) {
            const std::size_t n = 100;
            std::vector<std::atomic<unsigned>> hits(n);
            std::size_t firstFailing = n + 1; // begin of the rethrown chunk
            std::mutex mutex;
            std::vector<std::size_t> begins; // every chunk's
            try {
                pool.parallelFor(n, [&](std::size_t begin, std::size_t end) {
                    {
                        std::lock_guard lock(mutex);
                        begins.push_back(begin);
                    }
                    for (std::size_t i = begin; i < end; ++i) {
                        hits[i].fetch_add(1);
                    }
                    if (end > 50) {
                        throw std::runtime_error(std::to_string(begin));
                    }
                });
            } catch (const std::runtime_error& e) {
                firstFailing = std::stoul(e.what());
            }
            // The lowest chunk that threw is the one holding index 50: the
            // one with the largest begin not past 50.
            std::size_t want = 0;
            for (const std::size_t b : begins) {
                want = b <= 50 ? std::max(want, b) : want;
            }
            QCOMPARE(firstFailing, want);
            for (std::size_t i = 0; i < n; ++i) {
                QCOMPARE(hits[i].load(), 1u);
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestEngineThreadPool)
#include "tst_engine_thread_pool.moc"
