// The report source's caches hold at most their byte bound, drop the oldest
// entries first, and keep values alive for whoever still holds them; on a
// real report, panning over many LOD ranges never holds more than the bound.
#include "ReportFixtures.h"
#include "views/data/ByteBoundedCache.h"
#include "views/data/ReportSource.h"

#include <QtTest>

#include <string>

using namespace tessera::views;

namespace {
// What a cached pointer holds, or "<none>" (no dereference of a null pointer).
std::string valueOf(const std::shared_ptr<const std::string>& p) {
    return p ? *p : std::string("<none>");
}
} // namespace

class TestByteBoundedCache : public QObject {
    Q_OBJECT

private slots:
    void evictsOldestFirstWithinTheBound() {
        ByteBoundedCache<int, std::string> cache(100);
        cache.insert(1, std::make_shared<const std::string>("one"), 40);
        cache.insert(2, std::make_shared<const std::string>("two"), 40);
        QCOMPARE(cache.bytes(), std::size_t(80));
        const auto one = cache.find(1);
        QVERIFY(one);
        cache.insert(3, std::make_shared<const std::string>("three"), 40); // 1 must go
        QCOMPARE(cache.bytes(), std::size_t(80));
        QVERIFY(!cache.find(1));
        QCOMPARE(valueOf(cache.find(2)), std::string("two"));
        QCOMPARE(valueOf(cache.find(3)), std::string("three"));
        QCOMPARE(valueOf(one), std::string("one")); // still alive for its holder
    }

    void valuesOverTheBoundAreNotKept() {
        ByteBoundedCache<int, std::string> cache(100);
        cache.insert(1, std::make_shared<const std::string>("small"), 10);
        cache.insert(2, std::make_shared<const std::string>("huge"), 101);
        QVERIFY(!cache.find(2));
        QVERIFY(cache.find(1)); // and nothing was evicted for it
        QCOMPARE(cache.size(), std::size_t(1));
    }

    // 1472 tiles: one LOD bucket holds 93 tile groups x 3 statistics, so a
    // few hundred ranges fetch far more than the bound.
    void reportSourceStaysWithinItsBound() {
        const QString path = tessera::testing::capturedReport("stress", "mk2", {{"steps", "4000"}});
        ReportSource source(path.toStdString());
        QVERIFY(source.lodLevels(0).size() >= 2);
        std::size_t fetchedBytes = 0;
        for (std::uint64_t first = 0; first < 4000; first += 7) { // distinct ranges
            const auto buckets = source.lodBuckets(0, 1, first, first + 1000);
            QVERIFY(buckets);
            for (const auto& b : *buckets) {
                fetchedBytes += sizeof(tessera::reports::GroupStats) *
                                (b.compute.size() + b.exchange.size() + b.sync.size());
            }
        }
        QVERIFY2(fetchedBytes > (40u << 20), "the test must fetch more than the bound");
        QVERIFY2(source.cachedBytes() <= (16u << 20), "the caches outgrew their bound");
        QVERIFY(source.cachedBytes() > (1u << 20)); // but they do cache
    }
};

QTEST_GUILESS_MAIN(TestByteBoundedCache)
#include "tst_byte_bounded_cache.moc"
