// LargeArray: arrays from kLargeArrayBytes on 2 MiB-aligned mappings advised
// for transparent huge pages, ending at their last small page; smaller ones
// (and all under sanitizers) on the heap.
// Contents survive growth, copies and moves across the threshold.
#include "engine/core/LargeArray.h"

#include <sys/mman.h>

#include <QtTest>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The smaps entry of the mapping that starts at p: its size in kB and
// whether the kernel may back it with huge pages.
struct MappingFacts {
    bool found = false;
    std::size_t sizeKb = 0;
    bool thpEligible = false;
};

MappingFacts factsOfMappingAt(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    MappingFacts facts;
    bool inIt = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> begin >> dash >> end && dash == '-') {
            if (facts.found) {
                break;
            }
            inIt = begin == reinterpret_cast<std::uintptr_t>(p);
            facts.found = inIt;
            continue;
        }
        if (inIt && line.rfind("Size:", 0) == 0) {
            facts.sizeKb = std::stoul(line.substr(5));
        }
        if (inIt && line.rfind("THPeligible:", 0) == 0) {
            facts.thpEligible = std::stoi(line.substr(12)) == 1;
        }
    }
    return facts;
}

bool thpAvailable() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(f, modes);
    return !modes.empty() && modes.find("[never]") == std::string::npos;
}

} // namespace

class TestLargeArray : public QObject {
    Q_OBJECT

private slots:
    void hugeMappingsAreAlignedWritableAndAdvised_data() {
        QTest::addColumn<std::size_t>("bytes");
        QTest::newRow("one byte") << std::size_t{1};
        QTest::newRow("just under 2 MiB") << 2 * kMiB - 1;
        QTest::newRow("2 MiB") << 2 * kMiB;
        QTest::newRow("just over 2 MiB") << 2 * kMiB + 1;
        QTest::newRow("5 MiB and 3 bytes") << 5 * kMiB + 3;
    }
    void hugeMappingsAreAlignedWritableAndAdvised() {
        QFETCH(std::size_t, bytes);
        auto* p = static_cast<unsigned char*>(detail::mapHugePages(bytes));
        QCOMPARE(reinterpret_cast<std::uintptr_t>(p) % (2 * kMiB), std::uintptr_t{0});
        for (std::size_t i = 0; i < bytes; ++i) {
            p[i] = static_cast<unsigned char>(i * 7 + 1);
        }
        for (std::size_t i = 0; i < bytes; ++i) {
            QCOMPARE(p[i], static_cast<unsigned char>(i * 7 + 1));
        }
        const MappingFacts facts = factsOfMappingAt(p);
        QVERIFY(facts.found);
        // Mapped to its last small page (a neighbouring mapping may have
        // merged into it, never a smaller one).
        const std::size_t pages = (bytes + 4095) / 4096 * 4096;
        QVERIFY(facts.sizeKb * 1024 >= pages);
        // Huge pages for the whole 2 MiB extents it has.
        if (thpAvailable() && bytes >= 2 * kMiB) {
            QVERIFY(facts.thpEligible);
        }
        detail::unmapHugePages(p, bytes);
        unsigned char resident = 0;
        QCOMPARE(mincore(p, 4096, &resident), -1); // gone: not mapped any more
        QCOMPARE(errno, ENOMEM);
    }

    void thresholdChoosesThePath() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QVERIFY(!usesOwnMapping(kLargeArrayBytes)); // the sanitizer checks heap bounds
#else
        QVERIFY(!usesOwnMapping(kLargeArrayBytes - 1));
        QVERIFY(usesOwnMapping(kLargeArrayBytes));
#endif
        QVERIFY(!usesOwnMapping(64));
    }

    void vectorsKeepTheirContentsAcrossTheThreshold() {
        // 24-byte elements, grown one at a time from empty to 12 MiB: every
        // reallocation below and above the threshold and past whole 2 MiB extents.
        struct Region {
            std::uint32_t var;
            std::size_t begin, end;
        };
        const std::size_t n = 12 * kMiB / sizeof(Region);
        LargeVector<Region> grown;
        for (std::size_t i = 0; i < n; ++i) {
            grown.push_back({static_cast<std::uint32_t>(i % 97), i, i * 3 + 1});
        }
        auto matches = [&](const LargeVector<Region>& v) {
            if (v.size() != n) {
                return false;
            }
            for (std::size_t i = 0; i < n; ++i) {
                if (v[i].var != i % 97 || v[i].begin != i || v[i].end != i * 3 + 1) {
                    return false;
                }
            }
            return true;
        };
        QVERIFY(matches(grown));
        LargeVector<Region> copy = grown;
        QVERIFY(matches(copy));
        LargeVector<Region> moved = std::move(copy);
        QVERIFY(matches(moved));
        moved.resize(10);
        moved.shrink_to_fit();
        QCOMPARE(moved.size(), std::size_t{10});
        QCOMPARE(moved[9].end, std::size_t{28});
        moved = grown;
        QVERIFY(matches(moved));
    }

    void sumsOverAHugeArrayMatchTheHost() {
        LargeVector<std::uint64_t> v(3 * kMiB / sizeof(std::uint64_t) + 5);
        std::iota(v.begin(), v.end(), std::uint64_t{1});
        const std::uint64_t n = v.size();
        QCOMPARE(std::accumulate(v.begin(), v.end(), std::uint64_t{0}), n * (n + 1) / 2);
    }

    void impossibleSizesAreRefused() {
        LargeArrayAllocator<std::uint64_t> allocator;
        QVERIFY_THROWS_EXCEPTION(std::bad_array_new_length,
                                 (void)allocator.allocate(std::size_t(-1) / 4));
    }
};

QTEST_APPLESS_MAIN(TestLargeArray)
#include "tst_engine_large_array.moc"
