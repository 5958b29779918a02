// LargeArray: arrays from kLargeArrayBytes on 2 MiB-aligned mappings advised
// for transparent huge pages, ending at their last small page; smaller ones
// (and all under sanitizers) on the heap.
// Contents survive growth, copies and moves across the threshold; growing a
// mapping moves its pages; edits match std::vector's.
#include "engine/core/LargeArray.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <QtTest>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
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

constexpr std::size_t kPage = 4096;

// Pages of [p, p + pages * kPage) (p page aligned) the kernel has present.
std::size_t residentPages(const void* p, std::size_t pages) {
    std::vector<unsigned char> in(pages);
    if (mincore(const_cast<void*>(p), pages * kPage, in.data()) != 0) {
        return 0;
    }
    return static_cast<std::size_t>(
        std::count_if(in.begin(), in.end(), [](unsigned char c) { return (c & 1) != 0; }));
}

// Whether this kernel maps pages ahead on request (Linux 5.14), asked here
// independently of the library's own probe.
bool kernelKnowsPopulateWrite() {
#ifdef MADV_POPULATE_WRITE
    void* page = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    const bool known = page != MAP_FAILED && madvise(page, kPage, MADV_POPULATE_WRITE) == 0;
    if (page != MAP_FAILED) {
        munmap(page, kPage);
    }
    return known;
#else
    return false;
#endif
}

// 1 MiB reserved: its own mapping with no whole 2 MiB extent, so small
// pages. False where arrays are on the heap (sanitizer builds).
bool reserveMappedMiB(LargeVector<std::uint64_t>& v) {
    v.reserve(kMiB / sizeof(std::uint64_t));
    return usesOwnMapping(v.capacity() * sizeof(std::uint64_t));
}

// Appends i * 3 for i = 0, 1, ... past three mapping windows; returns the count.
std::size_t appendPastThreeWindows(LargeVector<std::uint64_t>& v) {
    const std::size_t n = (3 * kMapAheadBytes + 5000) / sizeof(std::uint64_t);
    for (std::size_t i = 0; i < n; ++i) {
        v.push_back(i * 3);
    }
    return n;
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
        LargeVector<std::uint64_t> v;
        QVERIFY_THROWS_EXCEPTION(std::length_error, v.reserve(std::size_t(-1) / 4));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)v.at(0));
    }

    void grownMappingsStayAlignedAndAdvised() {
        // Grown from 3 MiB to 24 MiB: each mapping moved into a larger one.
        LargeVector<std::uint64_t> v(3 * kMiB / sizeof(std::uint64_t));
        std::iota(v.begin(), v.end(), std::uint64_t{0});
        while (v.size() < 24 * kMiB / sizeof(std::uint64_t)) {
            v.push_back(v.size());
        }
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (v[i] != i) {
                QFAIL(qPrintable(QString("element %1 is %2").arg(i).arg(v[i])));
            }
        }
        if (usesOwnMapping(v.capacity() * sizeof(std::uint64_t))) {
            QCOMPARE(reinterpret_cast<std::uintptr_t>(v.data()) % (2 * kMiB), std::uintptr_t{0});
            const MappingFacts facts = factsOfMappingAt(v.data());
            QVERIFY(facts.found);
            if (thpAvailable()) {
                QVERIFY(facts.thpEligible);
            }
        }
    }

    void lastExtentTakesHugePagesWhenNearlyFull_data() {
        QTest::addColumn<std::size_t>("bytes");
        QTest::addColumn<bool>("wholeExtents");
        // The whole last extent adds at most an eighth: 7.9 MiB -> 8 MiB.
        QTest::newRow("7.9 MiB") << 8 * kMiB - kMiB / 10 << true;
        // It would add 1 MiB to 5 MiB: the tail stays on small pages.
        QTest::newRow("5 MiB") << 5 * kMiB << false;
    }
    void lastExtentTakesHugePagesWhenNearlyFull() {
        QFETCH(std::size_t, bytes);
        QFETCH(bool, wholeExtents);
        if (!thpAvailable() || !usesOwnMapping(bytes)) {
            QSKIP("no transparent huge pages, or arrays on the heap (sanitizer)");
        }
        auto* p = static_cast<unsigned char*>(detail::mapHugePages(bytes));
        rusage before{}, after{};
        getrusage(RUSAGE_SELF, &before);
        std::memset(p, 1, bytes);
        getrusage(RUSAGE_SELF, &after);
        const long faults = after.ru_minflt - before.ru_minflt;
        detail::unmapHugePages(p, bytes);
        // Four huge pages, or the whole ones and 256 small ones for the tail.
        const QString seen = QString::number(faults) + " faults";
        if (wholeExtents) {
            QVERIFY2(faults < 64, qPrintable(seen));
        } else {
            QVERIFY2(faults >= 256, qPrintable(seen));
        }
    }

    void growingMovesPagesWithoutWritingThem() {
        // 64 MiB written, then room for twice as much: the pages move to the
        // new mapping by their page tables (a copy would fault in every new
        // page, 32 huge or 16384 small ones).
        LargeVector<std::uint64_t> v(64 * kMiB / sizeof(std::uint64_t), 7);
        if (!usesOwnMapping(v.capacity() * sizeof(std::uint64_t))) {
            QSKIP("arrays are on the heap in this build (sanitizer)");
        }
        rusage before{}, after{};
        getrusage(RUSAGE_SELF, &before);
        v.reserve(2 * v.capacity());
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(after.ru_minflt - before.ru_minflt < 4,
                 qPrintable(QString::number(after.ru_minflt - before.ru_minflt) + " faults"));
        QVERIFY(std::all_of(v.begin(), v.end(), [](std::uint64_t x) { return x == 7; }));
    }

    void libraryProbeAgreesWithTheKernel() {
        // A wrong probe switches mapping ahead off for good, silently.
        QCOMPARE(kernelMapsAhead(), kernelKnowsPopulateWrite());
    }

    void mappingAheadKeepsContentsAndMapsEveryPage() {
        // 64 fresh pages, the first and last holding data; the range to be
        // written starts and ends inside those two.
        constexpr std::size_t pages = 64;
        auto* p = static_cast<unsigned char*>(mmap(nullptr, pages * kPage, PROT_READ | PROT_WRITE,
                                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        QVERIFY(p != MAP_FAILED);
        for (std::size_t i = 0; i < kPage; ++i) {
            p[i] = static_cast<unsigned char>(i * 7);
            p[(pages - 1) * kPage + i] = static_cast<unsigned char>(i * 13);
        }
        QCOMPARE(residentPages(p, pages), std::size_t{2});
        mapForWriting(p + 100, pages * kPage - 200);
        for (std::size_t i = 0; i < kPage; ++i) {
            QCOMPARE(p[i], static_cast<unsigned char>(i * 7));
            QCOMPARE(p[(pages - 1) * kPage + i], static_cast<unsigned char>(i * 13));
        }
        if (kernelKnowsPopulateWrite()) {
            QCOMPARE(residentPages(p, pages), pages);
        }
        QCOMPARE(std::count(p + kPage, p + (pages - 1) * kPage, 0),
                 static_cast<std::ptrdiff_t>((pages - 2) * kPage));
        // Memory that cannot be written is left alone, without a fault.
        QVERIFY(mprotect(p, pages * kPage, PROT_READ) == 0);
        mapForWriting(p, pages * kPage);
        QCOMPARE(p[kPage - 1], static_cast<unsigned char>((kPage - 1) * 7));
        munmap(p, pages * kPage);
    }

    void appendingMapsAtMostAWindowAhead() {
        // Appended to past three windows of a 1 MiB reservation.
        LargeVector<std::uint64_t> v;
        if (!reserveMappedMiB(v)) {
            QSKIP("arrays are on the heap in this build (sanitizer)");
        }
        const std::size_t n = appendPastThreeWindows(v);
        const std::size_t pages = kMiB / kPage;
        const std::size_t written = (n * sizeof(std::uint64_t) + kPage - 1) / kPage;
        const std::size_t resident = residentPages(v.data(), pages);
        QVERIFY(resident >= written);
        QVERIFY2(resident <= written + kMapAheadBytes / kPage,
                 qPrintable(QString::number(resident - written) + " pages beyond the end"));
        if (kernelKnowsPopulateWrite()) {
            QVERIFY2(resident > written, "nothing mapped ahead of the end");
        }
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(v[i], i * 3);
        }
    }

    void refillingAfterClearMapsNothingAgain() {
        // Pages once mapped stay present through clear(): a scratch array
        // refilled for every copy must not ask the kernel again each time.
        // The pages are dropped behind its back here, so a second mapping
        // would show as present pages beyond what the refill wrote.
        LargeVector<std::uint64_t> v;
        if (!reserveMappedMiB(v)) {
            QSKIP("arrays are on the heap in this build (sanitizer)");
        }
        appendPastThreeWindows(v);
        v.clear();
        QVERIFY(madvise(v.data(), kMiB, MADV_DONTNEED) == 0);
        QCOMPARE(residentPages(v.data(), kMiB / kPage), std::size_t{0});
        const std::size_t again = (kMapAheadBytes + 100) / sizeof(std::uint64_t);
        for (std::size_t i = 0; i < again; ++i) {
            v.push_back(i * 5);
        }
        const std::size_t written = (again * sizeof(std::uint64_t) + kPage - 1) / kPage;
        QCOMPARE(residentPages(v.data(), kMiB / kPage), written);
        QCOMPARE(v[again - 1], (again - 1) * 5);
    }

    void resizingMappedFirstIsAResize() {
        // As std::vector::resize: kept elements, value-initialised new ones,
        // shrinking.
        std::vector<std::uint64_t> v = {4, 5, 6};
        const std::size_t n = 64 * kPage / sizeof(std::uint64_t);
        resizeMappedFirst(v, n);
        QCOMPARE(v.size(), n);
        QCOMPARE(v[0] + v[1] + v[2], std::uint64_t{15});
        QVERIFY(std::all_of(v.begin() + 3, v.end(), [](std::uint64_t x) { return x == 0; }));
        resizeMappedFirst(v, 2);
        QCOMPARE(v, (std::vector<std::uint64_t>{4, 5}));
    }

    void growingByAFewIsAmortised() {
        // A graph grows its arrays a vertex's fields at a time: each of
        // push_back, resize and insert must reallocate geometrically.
        LargeVector<std::uint64_t> pushed, resized, inserted;
        int moves[3] = {0, 0, 0};
        const std::uint64_t three[3] = {1, 2, 3};
        for (std::size_t i = 0; i < 300000; ++i) {
            const std::size_t before[3] = {pushed.capacity(), resized.capacity(),
                                           inserted.capacity()};
            pushed.push_back(i);
            resized.resize(resized.size() + 3);
            inserted.insert(inserted.end(), three, three + 3);
            moves[0] += pushed.capacity() != before[0];
            moves[1] += resized.capacity() != before[1];
            moves[2] += inserted.capacity() != before[2];
        }
        for (int m : moves) {
            QVERIFY2(m <= 24,
                     qPrintable(QString::number(m) + " reallocations")); // log2(900000) = 20
        }
    }

    void editsMatchAStdVector() {
        // The same edits on both, the standard one the reference; elements
        // taken from the array itself while it grows, inserts from itself.
        // Inserts and erases land within the last kNear elements: what they
        // shift is the same code at any distance, and shifting the whole
        // array each time made this test 45 s of ASan's memmove.
        constexpr std::size_t kNear = 1024;
        auto nearEnd = [](std::size_t size, std::uint32_t r) {
            return size - std::min<std::size_t>(size, r % kNear);
        };
        LargeVector<std::uint32_t> large;
        std::vector<std::uint32_t> want;
        std::uint32_t seed = 12345;
        auto next = [&] { return seed = seed * 1103515245u + 12345u; };
        for (int step = 0; step < 200000; ++step) {
            const std::uint32_t r = next() >> 8;
            switch (r % 8) {
            case 0:
            case 1:
            case 2:
                large.push_back(r);
                want.push_back(r);
                break;
            case 3:
                if (!want.empty()) {
                    const std::size_t i = r % want.size();
                    large.push_back(large[i]);
                    want.push_back(want[i]);
                }
                break;
            case 4:
                if (!want.empty()) {
                    const std::size_t i = r % want.size(),
                                      n = std::min<std::size_t>(want.size() - i, r % 37);
                    const std::size_t at = nearEnd(want.size(), next());
                    large.insert(large.begin() + at, large.begin() + i, large.begin() + i + n);
                    const std::vector<std::uint32_t> piece(want.begin() + i, want.begin() + i + n);
                    want.insert(want.begin() + at, piece.begin(), piece.end());
                }
                break;
            case 5:
                if (!want.empty()) {
                    const std::size_t i = std::min(nearEnd(want.size(), next()), want.size() - 1),
                                      n = std::min<std::size_t>(want.size() - i, r % 29);
                    large.erase(large.begin() + i, large.begin() + i + n);
                    want.erase(want.begin() + i, want.begin() + i + n);
                }
                break;
            case 6:
                large.resize(want.size() + r % 50, r);
                want.resize(want.size() + r % 50, r);
                break;
            default:
                large.emplace_back(r ^ 1u);
                want.emplace_back(r ^ 1u);
                break;
            }
        }
        // Past the heap and through mapped growth past a whole 2 MiB extent.
        QVERIFY(want.size() * sizeof(std::uint32_t) > (std::size_t{2} << 20));
        QCOMPARE(large.size(), want.size());
        QVERIFY(std::equal(large.begin(), large.end(), want.begin(), want.end()));
        const LargeVector<std::uint32_t> copied(want.begin(), want.end());
        QVERIFY(copied == large);
        large.shrink_to_fit();
        QCOMPARE(large.capacity(), large.size());
        QVERIFY(copied == large);
    }
};

QTEST_APPLESS_MAIN(TestLargeArray)
#include "tst_engine_large_array.moc"
