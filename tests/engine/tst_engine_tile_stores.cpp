// The tiles' host memory (runtime/HostLayout.h, runtime/TileStores.h): where
// each block lands, worked out by hand on hand-built plans; which blocks a
// run never touches; and the stores themselves: zero at first, blocks that
// share bytes on the tile sharing them on the host, the others apart.
#include "engine/compiler/Compiled.h"
#include "engine/runtime/HostLayout.h"
#include "engine/runtime/TileStores.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace tessera;
using compiler::BlockId;

namespace {

constexpr std::uint64_t kHugePage = 2ull << 20;

compiler::DataBlock block(std::uint32_t tile, std::uint32_t offset, std::uint32_t bytes,
                          VariableId var = VariableId(0u)) {
    compiler::DataBlock b;
    b.tile = TileId(tile);
    b.var = var;
    b.storeOffset = offset;
    b.bytes = bytes;
    return b;
}

// Tile 0: A [0, 100) and B [64, 164) share bytes (a pool), C [300, 340),
// D [200, 280) set apart, E empty. Tile 1: F [8, 40), G [0, 1000) set apart.
struct TwoTiles {
    compiler::CompiledGraph compiled;
    enum : BlockId { A, B, C, D, E, F, G };
    std::vector<std::uint8_t> apart{0, 0, 0, 1, 0, 0, 1};

    TwoTiles() {
        for (const auto& b :
             {block(0, 0, 100), block(0, 64, 100), block(0, 300, 40), block(0, 200, 80),
              block(0, 120, 0), block(1, 8, 32), block(1, 0, 1000)}) {
            compiled.blocks.push_back(b);
        }
        compiled.storeBytes = {340, 1000};
    }
};

} // namespace

class TestTileStores : public QObject {
    Q_OBJECT

private slots:
    void usedBlocksKeepTheirSharingAndLineOffsetsWithTheGapsSqueezedOut() {
        const TwoTiles t;
        const runtime::HostLayout l = runtime::layOutHostMemory(t.compiled, t.apart);
        // Tile 0's first stretch [0, 164) at 0: A at 0, B at 64. C's stretch
        // [300, 340) goes at the first offset >= 164 that is 300 mod 64 (44):
        // 172. Tile 1's F [8, 40) at the first >= 212 that is 8 mod 64: 264.
        QCOMPARE(l.blockOffset[TwoTiles::A], std::uint64_t{0});
        QCOMPARE(l.blockOffset[TwoTiles::B], std::uint64_t{64});
        QCOMPARE(l.blockOffset[TwoTiles::C], std::uint64_t{172});
        QCOMPARE(l.blockOffset[TwoTiles::F], std::uint64_t{264});
        QCOMPARE(l.usedBytes, std::uint64_t{296});
        QCOMPARE(l.blockOffset[TwoTiles::E], std::uint64_t{0});
        // Set apart from the next huge page on, in block order: D (200 mod 64
        // = 8) at 2 MiB + 8, then G (0 mod 64) at the first line after D's
        // end (2 MiB + 88): 2 MiB + 128.
        QCOMPARE(l.blockOffset[TwoTiles::D], kHugePage + 8);
        QCOMPARE(l.blockOffset[TwoTiles::G], kHugePage + 128);
        QCOMPARE(l.totalBytes, kHugePage + 128 + 1000);
    }

    void nothingApartNothingAfterTheStores() {
        TwoTiles t;
        t.apart.assign(t.apart.size(), 0);
        const runtime::HostLayout l = runtime::layOutHostMemory(t.compiled, t.apart);
        // Tile 0: [0, 164) at 0, D's [200, 280) at the first >= 164 that is
        // 8 mod 64 (200), C's [300, 340) at the first >= 280 that is 44 mod
        // 64 (300). Tile 1: G and F share [0, 1000): at the first >= 340 that
        // is 0 mod 64 (384), F 8 into it.
        QCOMPARE(l.blockOffset[TwoTiles::D], std::uint64_t{200});
        QCOMPARE(l.blockOffset[TwoTiles::C], std::uint64_t{300});
        QCOMPARE(l.blockOffset[TwoTiles::G], std::uint64_t{384});
        QCOMPARE(l.blockOffset[TwoTiles::F], std::uint64_t{392});
        QCOMPARE(l.usedBytes, std::uint64_t{1384});
        QCOMPARE(l.totalBytes, l.usedBytes);
    }

    void storesAreZeroSharedWhereTheTileSharesAndApartElsewhere() {
        const TwoTiles t;
        const TileStores stores(runtime::layOutHostMemory(t.compiled, t.apart));
        QCOMPARE(stores.usedBytes(), std::uint64_t{296});
        const auto& blocks = t.compiled.blocks;
        for (BlockId b = 0; b < blocks.size(); ++b) {
            QVERIFY(std::all_of(stores.block(b), stores.block(b) + blocks[b].bytes,
                                [](std::byte x) { return x == std::byte{0}; }));
            if (blocks[b].bytes > 0) {
                QCOMPARE(reinterpret_cast<std::uintptr_t>(stores.block(b)) % 64,
                         std::uintptr_t{blocks[b].storeOffset % 64});
            }
        }
        // A's last 36 bytes are B's first, as on the tile.
        std::fill(stores.block(TwoTiles::A), stores.block(TwoTiles::A) + 100, std::byte{7});
        QVERIFY(std::all_of(stores.block(TwoTiles::B), stores.block(TwoTiles::B) + 36,
                            [](std::byte x) { return x == std::byte{7}; }));
        QCOMPARE(stores.block(TwoTiles::B)[36], std::byte{0});
        // G shares F's bytes on tile 1, but is set apart: F's writes stay F's.
        std::fill(stores.block(TwoTiles::F), stores.block(TwoTiles::F) + 32, std::byte{9});
        QVERIFY(std::all_of(stores.block(TwoTiles::G), stores.block(TwoTiles::G) + 1000,
                            [](std::byte x) { return x == std::byte{0}; }));
        std::fill(stores.block(TwoTiles::D), stores.block(TwoTiles::D) + 80, std::byte{5});
        std::fill(stores.block(TwoTiles::G), stores.block(TwoTiles::G) + 1000, std::byte{6});
        QVERIFY(std::all_of(stores.block(TwoTiles::D), stores.block(TwoTiles::D) + 80,
                            [](std::byte x) { return x == std::byte{5}; }));
        QCOMPARE(stores.block(TwoTiles::C)[0], std::byte{0});
        QCOMPARE(stores.block(TwoTiles::F)[0], std::byte{9});
    }

    void aBlockOfItsOwnSharesNoBytesButTheOthersStillDo() {
        // As TwoTiles, but B has bytes of its own. Tile 0's stretches are
        // now A's [0, 100), at 0, and C's [300, 340), at the first >= 100
        // that is 44 mod 64 (108, to 148); B after them, at the first >= 148
        // that is 0 mod 64 (192, to 292). Tile 1's F at the first >= 292
        // that is 8 mod 64: 328, to 360.
        TwoTiles t;
        t.apart[TwoTiles::B] = runtime::kOwnBytes;
        const runtime::HostLayout l = runtime::layOutHostMemory(t.compiled, t.apart);
        QCOMPARE(l.blockOffset[TwoTiles::A], std::uint64_t{0});
        QCOMPARE(l.blockOffset[TwoTiles::C], std::uint64_t{108});
        QCOMPARE(l.blockOffset[TwoTiles::B], std::uint64_t{192});
        QCOMPARE(l.blockOffset[TwoTiles::F], std::uint64_t{328});
        QCOMPARE(l.usedBytes, std::uint64_t{360});
        const TileStores stores(runtime::layOutHostMemory(t.compiled, t.apart));
        std::fill(stores.block(TwoTiles::A), stores.block(TwoTiles::A) + 100, std::byte{7});
        QVERIFY(std::all_of(stores.block(TwoTiles::B), stores.block(TwoTiles::B) + 100,
                            [](std::byte x) { return x == std::byte{0}; }));
    }

    void noBlocksNoMapping() {
        compiler::CompiledGraph compiled;
        compiled.blocks.push_back(block(0, 0, 0));
        compiled.storeBytes = {0, 0};
        const TileStores stores(runtime::layOutHostMemory(compiled, {0}));
        QVERIFY(stores.block(0) == nullptr);
        QCOMPARE(stores.usedBytes(), std::uint64_t{0});
    }

    void runNeverTouchesReplicasNotMadeAndBuffersReadInPlace() {
        // Blocks 0-1: variables, 1 a replica not made. Buffers of step 0:
        // 2 (both gathers read in place), 3 (one gather copied), 4 (read in
        // place, but an entry reads it where it is), 5 (read in place, then
        // sent on by the scatter). Step 1 copies every gather, into buffer 6.
        compiler::CompiledGraph compiled;
        for (std::uint32_t b = 0; b < 7; ++b) {
            compiled.blocks.push_back(
                block(0, 64 * b, 16, b < 2 ? VariableId(b) : VariableId::none()));
        }
        const auto transfer = [](BlockId to, std::uint32_t offset) {
            return compiler::Transfer{{0, 0}, {to, offset}, 8};
        };
        compiler::StepPlan step0;
        for (const auto& t : {transfer(2, 0), transfer(2, 8), transfer(3, 0), transfer(3, 8),
                              transfer(4, 0), transfer(5, 0)}) {
            step0.gather.push_back(t);
        }
        step0.scatter.push_back({{5, 0}, {0, 0}, 8});
        for (const auto& e : {compiler::FieldEntryPlan{0, 2, 2}, compiler::FieldEntryPlan{8, 2, 2},
                              compiler::FieldEntryPlan{0, 3, 2}, compiler::FieldEntryPlan{8, 4, 2},
                              compiler::FieldEntryPlan{0, 5, 2}}) {
            step0.entries.push_back(e);
        }
        compiler::StepPlan step1;
        step1.gather.push_back(transfer(6, 0));
        compiled.steps.push_back(std::move(step0));
        compiled.steps.push_back(std::move(step1));
        std::vector<runtime::InPlaceReads> inPlace(2);
        inPlace[0].copy = {0, 0, 1, 0, 0, 0};
        inPlace[0].redirects = {{0, {0, 0}}, {1, {0, 8}}, {2, {0, 0}}, {4, {0, 0}}};
        runtime::SharedReplicas replicas;
        replicas.notMade = {1};
        QCOMPARE(runtime::blocksPlacedApart(compiled, replicas, inPlace),
                 (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 0, 0}));
        // A replica made and read by other tiles (block 0) keeps bytes of its own.
        runtime::SharedReplicas::Step readsReplica;
        readsReplica.remoteReads = {0};
        replicas.steps.emplace_back(compiler::StepId(1u), readsReplica);
        QCOMPARE(runtime::blocksPlacedApart(compiled, replicas, inPlace),
                 (std::vector<std::uint8_t>{runtime::kOwnBytes, 1, 1, 0, 0, 0, 0}));
    }
};

QTEST_GUILESS_MAIN(TestTileStores)
#include "tst_engine_tile_stores.moc"
