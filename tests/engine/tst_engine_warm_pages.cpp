// Tile-store pages faulted in while the engine compiles (runtime/WarmPages.h):
// memory taken from a WarmPages is zero, 2 MiB aligned and writable; its
// first pages, up to what the stores' used bytes need, are already in memory
// (mincore) and the rest are not; which graphs get one (none, and no error,
// without address space for it); and an engine whose
// stores start on such pages computes what the host computes.
#include "engine/core/LargeArray.h"
#include "engine/core/Sanitizers.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Mapping.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/HostLayout.h"
#include "engine/runtime/TileStores.h"
#include "engine/runtime/WarmPages.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

using namespace tessera;
using runtime::WarmPages;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kPage = 4096;

// Waits (up to a minute) until `warm` has faulted in all it was asked for.
bool waitUntilFaulted(const WarmPages& warm, std::size_t bytes) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (warm.faultedBytes() < bytes) {
        if (std::chrono::steady_clock::now() > until) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

// Of [p, p + bytes), how many 4 KiB pages are in memory.
std::size_t residentPages(const std::byte* p, std::size_t bytes) {
    const std::size_t pages = (bytes + kPage - 1) / kPage;
    std::vector<unsigned char> in(pages);
    if (mincore(const_cast<std::byte*>(p), bytes, in.data()) != 0) {
        return ~std::size_t{0};
    }
    return static_cast<std::size_t>(
        std::count_if(in.begin(), in.end(), [](unsigned char c) { return (c & 1) != 0; }));
}

bool allZero(const std::byte* p, std::size_t bytes) {
    return std::all_of(p, p + bytes, [](std::byte b) { return b == std::byte{0}; });
}

} // namespace

class TestWarmPages : public QObject {
    Q_OBJECT

private slots:
    void takenMemoryStartsWithTheFaultedPagesItKeeps() {
        WarmPages warm(8 * kMiB + 12345); // whole huge pages: 8 MiB
        QVERIFY(waitUntilFaulted(warm, 8 * kMiB));
        QCOMPARE(warm.faultedBytes(), 8 * kMiB);
        // Keep 3 MiB: two whole huge pages (4 MiB) move; 6 MiB + 100 asked.
        const std::size_t bytes = 6 * kMiB + 100;
        std::byte* p = warm.take(bytes, 3 * kMiB);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(p) % (2 * kMiB), std::uintptr_t{0});
        QCOMPARE(residentPages(p, 4 * kMiB), 4 * kMiB / kPage);
        QCOMPARE(residentPages(p + 4 * kMiB, bytes - 4 * kMiB), std::size_t{0});
        QVERIFY(allZero(p, bytes));
        std::iota(reinterpret_cast<unsigned char*>(p), reinterpret_cast<unsigned char*>(p + bytes),
                  static_cast<unsigned char>(7));
        QCOMPARE(static_cast<unsigned>(p[bytes - 1]), unsigned((7 + bytes - 1) % 256));
        detail::unmapHugePages(p, bytes);
    }

    void nothingMovesBeyondWhatWasAskedFor() {
        WarmPages warm(8 * kMiB);
        QVERIFY(waitUntilFaulted(warm, 8 * kMiB));
        // 3 MiB asked, all of it to keep: one whole huge page fits.
        std::byte* p = warm.take(3 * kMiB, 3 * kMiB);
        QCOMPARE(residentPages(p, 2 * kMiB), 2 * kMiB / kPage);
        QCOMPARE(residentPages(p + 2 * kMiB, kMiB), std::size_t{0});
        QVERIFY(allZero(p, 3 * kMiB));
        detail::unmapHugePages(p, 3 * kMiB);
    }

    void lessThanAHugePageStartsNothing() {
        WarmPages warm(2 * kMiB - 1);
        QCOMPARE(warm.faultedBytes(), std::size_t{0});
        std::byte* p = warm.take(kMiB, kMiB);
        QCOMPARE(residentPages(p, kMiB), std::size_t{0});
        QVERIFY(allZero(p, kMiB));
        detail::unmapHugePages(p, kMiB);
    }

    // The stores' used bytes start on the warm pages; the blocks set apart
    // after them do not.
    void tileStoresUseThemForTheBytesARunTouches() {
        runtime::HostLayout layout;
        layout.blockOffset = {0, 5 * kMiB, 8 * kMiB};
        layout.usedBytes = 5 * kMiB + 64;
        layout.totalBytes = 9 * kMiB;
        WarmPages warm(16 * kMiB);
        QVERIFY(waitUntilFaulted(warm, 16 * kMiB));
        TileStores stores(layout, &warm);
        // roundUp(used, 2 MiB) = 6 MiB moved; the apart block at 8 MiB is fresh.
        QCOMPARE(residentPages(stores.block(0), 6 * kMiB), 6 * kMiB / kPage);
        QCOMPARE(residentPages(stores.block(2), kMiB), std::size_t{0});
        QVERIFY(allZero(stores.block(0), 9 * kMiB));
    }

    void graphsGetThemForTheVariablesNoCopyWrites() {
        Graph small(Target::preset("mk2"));
        small.addVariable(Type::Float, {(runtime::kWarmPagesFrom - 4) / 4}, "under");
        QVERIFY(WarmPages::forGraph(small, {program::Sequence()}) == nullptr);

        Graph big(Target::preset("mk2"));
        const Tensor a = big.addVariable(Type::Float, {runtime::kWarmPagesFrom / 4}, "a");
        const Tensor b = big.addVariable(Type::Float, {runtime::kWarmPagesFrom / 4}, "b");
        std::unique_ptr<WarmPages> warm = WarmPages::forGraph(big, {program::Sequence()});
        QVERIFY(warm != nullptr);
        // With b written by a Copy, a alone is at the threshold.
        program::Sequence copy;
        copy.add(program::Copy(a, b));
        QVERIFY(WarmPages::forGraph(big, {copy}) != nullptr);
        // Copied the other way as well: nothing is left to warm.
        program::Sequence both;
        both.add(program::Copy(a, b));
        both.add(program::Copy(b, a));
        QVERIFY(WarmPages::forGraph(big, {program::Sequence(), both}) == nullptr);
    }

    // Without address space for the reservation an engine gets no warm
    // pages, and no error: in a child whose address space is capped.
    void noAddressSpaceNoWarmPagesAndNoError() {
        if (kAddressSanitizer || kThreadSanitizer) {
            QSKIP("the sanitizers reserve more address space than any cap leaves");
        }
        Graph g(Target::preset("mk2"));
        g.addVariable(Type::Float, {std::size_t{1} << 30}, "four_gib");
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const rlimit cap{std::size_t{1} << 30, std::size_t{1} << 30};
            int code = 3;
            if (setrlimit(RLIMIT_AS, &cap) == 0) {
                try {
                    code = WarmPages::forGraph(g, {program::Sequence()}) == nullptr ? 0 : 1;
                } catch (...) {
                    code = 2;
                }
            }
            _exit(code);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    // A graph above the threshold, so its engine's stores start on warm pages:
    // a host-written input, its copy and a variable nothing writes.
    void anEngineOnWarmPagesComputesWhatTheHostDoes() {
        const std::size_t n = runtime::kWarmPagesFrom / 4 + 1000;
        Graph g(Target::preset("mk2"));
        const Tensor x = g.addVariable(Type::Float, {n}, "x");
        const Tensor y = g.addVariable(Type::Float, {n}, "y");
        const Tensor z = g.addVariable(Type::Float, {1000}, "z");
        ops::mapLinearly(g, x);
        ops::mapLinearly(g, y);
        ops::mapLinearly(g, z);
        g.createHostWrite("x", x);
        g.createHostRead("y", y);
        program::Sequence prog;
        prog.add(program::Copy(x, y));
        QVERIFY(WarmPages::forGraph(g, {prog}) != nullptr);
        Engine engine(g, prog);
        std::vector<float> in(n);
        for (std::size_t i = 0; i < n; ++i) {
            in[i] = static_cast<float>(i % 1000003) * 0.5f - 3.0f;
        }
        engine.writeTensor("x", in.data(), in.data() + n);
        engine.run();
        std::vector<float> out(n, -1.0f);
        engine.readTensor("y", out.data(), out.data() + n);
        QVERIFY(out == in);
        const std::vector<float> zeros = engine.read<float>(z);
        QVERIFY(std::all_of(zeros.begin(), zeros.end(), [](float v) { return v == 0.0f; }));
    }
};

QTEST_GUILESS_MAIN(TestWarmPages)
#include "tst_engine_warm_pages.moc"
