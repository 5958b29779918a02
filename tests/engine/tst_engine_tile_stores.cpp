// TileStores: each tile's store is zero at first, on a 64-byte boundary,
// writable and disjoint from every other; a tile of size 0 has none.
#include "engine/runtime/TileStores.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace tessera;

class TestTileStores : public QObject {
    Q_OBJECT

private slots:
    void storesAreZeroAlignedAndDisjoint() {
        const std::vector<std::uint64_t> bytes{100, 0, 1, 4096, 65, 0, 300000};
        TileStores stores(bytes);
        QVERIFY(stores[1] == nullptr);
        QVERIFY(stores[5] == nullptr);
        for (std::size_t t = 0; t < bytes.size(); ++t) {
            if (bytes[t] == 0) {
                continue;
            }
            QVERIFY(stores[t] != nullptr);
            QCOMPARE(reinterpret_cast<std::uintptr_t>(stores[t]) % 64, std::uintptr_t{0});
            QVERIFY(std::all_of(stores[t], stores[t] + bytes[t],
                                [](std::byte b) { return b == std::byte{0}; }));
        }
        // Each store filled with its own tile number: no other store sees it.
        for (std::size_t t = 0; t < bytes.size(); ++t) {
            std::fill(stores[t], stores[t] + bytes[t], std::byte(t + 1));
        }
        for (std::size_t t = 0; t < bytes.size(); ++t) {
            QVERIFY(std::all_of(stores[t], stores[t] + bytes[t],
                                [&](std::byte b) { return b == std::byte(t + 1); }));
        }
    }
    void noStoresNoMapping() {
        TileStores stores(std::vector<std::uint64_t>{0, 0});
        QVERIFY(stores[0] == nullptr);
        QVERIFY(stores[1] == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestTileStores)
#include "tst_engine_tile_stores.moc"
