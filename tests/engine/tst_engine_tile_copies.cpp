// The exchange's byte copies: copyRuns and streamRuns (non-temporal stores of
// whole lines) against a byte-by-byte copy done in the test, over lists with
// every alignment, lengths around a cache line, empty copies, destinations
// that continue each other and ones that do not; and a whole program run with
// every exchange streamed against one never streamed.
#include "engine/graph/Graph.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/TileCopies.h"

#include <QObject>
#include <QTest>

#include <cstring>
#include <random>
#include <vector>

using namespace tessera;
using runtime::CopyOp;

namespace {

struct Case {
    std::vector<std::byte> source, expected;
    std::vector<CopyOp> ops; // into a destination buffer, set by run()
    std::vector<std::pair<std::size_t, std::size_t>> offsets; // destination, source
    std::vector<std::size_t> sizes;
};

// Ops writing `pieces` consecutive ranges of random lengths (0..max) from
// random source offsets, starting at destination offset `start`; every
// `breakEvery`-th op skips a gap so destinations stop continuing each other.
Case makeCase(std::mt19937& rng, std::size_t start, std::size_t pieces, std::size_t max,
              std::size_t breakEvery) {
    Case c;
    c.source.resize(4096 + max);
    for (std::byte& b : c.source) {
        b = std::byte(rng() & 0xff);
    }
    std::size_t destination = start;
    for (std::size_t i = 0; i < pieces; ++i) {
        const std::size_t bytes = rng() % (max + 1);
        const std::size_t from = rng() % 4096;
        if (breakEvery && i % breakEvery == breakEvery - 1) {
            destination += 1 + rng() % 70;
        }
        c.offsets.push_back({destination, from});
        c.sizes.push_back(bytes);
        destination += bytes;
    }
    c.expected.assign(destination + 128, std::byte{0x5a});
    for (std::size_t i = 0; i < pieces; ++i) { // the reference: byte by byte, in order
        for (std::size_t b = 0; b < c.sizes[i]; ++b) {
            c.expected[c.offsets[i].first + b] = c.source[c.offsets[i].second + b];
        }
    }
    return c;
}

std::vector<std::byte> run(Case& c, void (*copy)(const std::vector<CopyOp>&)) {
    // 64-byte aligned, so `start` fixes the destination's alignment.
    std::vector<std::byte> storage(c.expected.size() + 64, std::byte{0x5a});
    auto* base = storage.data() + (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64;
    std::fill(base, base + c.expected.size(), std::byte{0x5a});
    c.ops.clear();
    for (std::size_t i = 0; i < c.sizes.size(); ++i) {
        c.ops.push_back(
            {base + c.offsets[i].first, c.source.data() + c.offsets[i].second, c.sizes[i]});
    }
    copy(c.ops);
    return {base, base + c.expected.size()};
}

} // namespace

class TestEngineTileCopies : public QObject {
    Q_OBJECT

private slots:
    void copiesMatchAByteByByteCopy_data() {
        QTest::addColumn<int>("copier");
        QTest::newRow("copyRuns") << 0;
        QTest::newRow("streamRuns") << 1;
    }
    void copiesMatchAByteByByteCopy() {
        QFETCH(int, copier);
        const auto copy = copier ? runtime::streamRuns : runtime::copyRuns;
        std::mt19937 rng(7);
        int cases = 0;
        for (std::size_t start = 0; start < 64; start += 7) {
            for (std::size_t max : {0, 1, 15, 63, 64, 65, 130, 300}) {
                for (std::size_t breakEvery : {0, 1, 3}) {
                    Case c = makeCase(rng, start, 40, max, breakEvery);
                    const std::vector<std::byte> got = run(c, copy);
                    QVERIFY2(got == c.expected, qPrintable(QString("start %1, max %2, break %3")
                                                               .arg(start)
                                                               .arg(max)
                                                               .arg(breakEvery)));
                    ++cases;
                }
            }
        }
        QCOMPARE(cases, 10 * 8 * 3);
    }

    // A line written whole from one op and lines assembled from several, in
    // one range: bytes outside the ops stay as they were.
    void streamingLeavesBytesAroundTheRangeAlone() {
        std::vector<std::byte> source(256);
        for (std::size_t i = 0; i < source.size(); ++i) {
            source[i] = std::byte(i);
        }
        alignas(64) std::byte destination[384];
        std::memset(destination, 0xee, sizeof destination);
        // From offset 3: 100 bytes, then 5, then 150: 255 bytes ending at 258.
        runtime::streamRuns({{destination + 3, source.data(), 100},
                             {destination + 103, source.data() + 200, 5},
                             {destination + 108, source.data() + 10, 150}});
        for (std::size_t i = 0; i < sizeof destination; ++i) {
            std::byte want{0xee};
            if (i >= 3 && i < 103) {
                want = source[i - 3];
            } else if (i >= 103 && i < 108) {
                want = source[200 + i - 103];
            } else if (i >= 108 && i < 258) {
                want = source[10 + i - 108];
            }
            QCOMPARE(destination[i], want);
        }
    }

    // A product and a sum whose exchanges move rows of a few hundred bytes:
    // the same outputs and cycles whether every exchange streams or none does.
    void aProgramComputesTheSameStreamedOrNot() {
        auto runWith = [](runtime::Streaming mode) {
            Graph graph(Target::preset("tiles:16"));
            Tensor a = graph.addVariable(Type::Float, {48, 40}, "a");
            Tensor b = graph.addVariable(Type::Float, {40, 36}, "b");
            ops::mapLinearly(graph, a, 40);
            ops::mapLinearly(graph, b, 36);
            program::Sequence prog;
            Tensor c = ops::matMul(graph, prog, a, b, "mm");
            Tensor d = ops::binary(graph, prog, "Add", c, c, "twice");
            graph.createHostWrite("a", a);
            graph.createHostWrite("b", b);
            graph.createHostRead("d", d);
            runtime::setStreaming(mode);
            Engine engine(graph, prog);
            runtime::setStreaming(runtime::Streaming::Auto);
            std::vector<float> ha(48 * 40), hb(40 * 36);
            for (std::size_t i = 0; i < ha.size(); ++i) {
                ha[i] = float(int(i % 13) - 6) * 0.25f;
            }
            for (std::size_t i = 0; i < hb.size(); ++i) {
                hb[i] = float(int(i % 7) - 3) * 0.5f;
            }
            engine.writeTensor("a", ha.data(), ha.data() + ha.size());
            engine.writeTensor("b", hb.data(), hb.data() + hb.size());
            engine.run();
            std::vector<float> hd(48 * 36);
            engine.readTensor("d", hd.data(), hd.data() + hd.size());
            // Host reference: small integers times quarters, exact in float.
            for (std::size_t r = 0; r < 48; ++r) {
                for (std::size_t col = 0; col < 36; ++col) {
                    double sum = 0;
                    for (std::size_t x = 0; x < 40; ++x) {
                        sum += double(ha[r * 40 + x]) * double(hb[x * 36 + col]);
                    }
                    if (hd[r * 36 + col] != float(2 * sum)) {
                        qWarning("d[%zu][%zu] = %g, host %g", r, col, double(hd[r * 36 + col]),
                                 2 * sum);
                        return std::make_pair(hd, std::uint64_t{0});
                    }
                }
            }
            return std::make_pair(hd, engine.cyclesSoFar());
        };
        const auto streamed = runWith(runtime::Streaming::Always);
        const auto cached = runWith(runtime::Streaming::Never);
        QVERIFY(streamed.second > 0);
        QCOMPARE(streamed.second, cached.second);
        QVERIFY(streamed.first == cached.first);
    }
};

QTEST_GUILESS_MAIN(TestEngineTileCopies)
#include "tst_engine_tile_copies.moc"
