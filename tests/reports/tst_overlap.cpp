// ReportReader::notAlwaysLiveOverlap on the hand-built Memory report: the
// expected figures are derived by hand from the blocks in MemoryFixtures.h.
#include "../views/MemoryFixtures.h"
#include "reports/ReportReader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using namespace tessera::reports;

class TestOverlap : public QObject {
    Q_OBJECT

private slots:
    void overlapPerTile() {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("hand.tsr").toStdString();
        testing::writeHandBuiltMemoryReport(path);
        const ReportReader reader(path);
        const auto overlap = reader.notAlwaysLiveOverlap();
        // Tile 0: [300,420) and [300,380) share 80 bytes, each counts them
        // (160); alone: [380,420) 40 + [420,500) 80 = 120. The constant at
        // [300,330) is not a not-always-live block and does not count.
        // Tile 1: no not-always-live blocks, left out.
        // Tile 2: three blocks on the same 50 bytes: 150 overlapped.
        // Tile 3: one 64-byte block, alone.
        const std::vector<TileOverlap> expected = {{0, 120, 160}, {2, 0, 150}, {3, 64, 0}};
        QCOMPARE(overlap.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(overlap[i].tile, expected[i].tile);
            QCOMPARE(overlap[i].notOverlappedBytes, expected[i].notOverlappedBytes);
            QCOMPARE(overlap[i].overlappedBytes, expected[i].overlappedBytes);
        }
        // Every not-always-live block byte is counted once, either way.
        const auto record = testing::handBuiltMemoryRecord();
        for (const auto& o : overlap) {
            std::uint64_t sum = 0;
            for (const auto& b : record.memoryBlocks) {
                if (b.tile.value() == o.tile &&
                    b.category == record::MemoryCategory::NotAlwaysLiveVariable) {
                    sum += b.bytes;
                }
            }
            QCOMPARE(o.notOverlappedBytes + o.overlappedBytes, sum);
        }
    }
};

QTEST_GUILESS_MAIN(TestOverlap)
#include "tst_overlap.moc"
