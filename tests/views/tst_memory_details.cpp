// The Memory pane's Details, Vertices and Exchanges models on the hand-built
// report of MemoryFixtures.h: every expected figure is summed by hand from
// the fixture's per-tile values (see the comments), and the Exchanges' sort
// order written out, under QAbstractItemModelTester.
#include "MemoryFixtures.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/MemoryDetailsModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/TileExchangesModel.h"
#include "views/models/TileVerticesModel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>

#include <stdexcept>

using namespace tessera;
using namespace tessera::views;

namespace {

// The raw bytes of a details row in value column `column` (1-based).
QVariant value(const MemoryDetailsModel& m, const QStringList& path, int column) {
    const QModelIndex row = m.find(path);
    if (!row.isValid()) {
        return QString("no row " + path.join(" / "));
    }
    return m.index(row.row(), column, row.parent()).data(kSortRole);
}

quint64 bytes(const MemoryDetailsModel& m, const QStringList& path, int column) {
    return value(m, path, column).toULongLong();
}

const QStringList kIncluding = {"Memory including gaps"};
const QStringList kExcluding = {"Memory excluding gaps"};
const QStringList kRegions = {"Memory including gaps", "By memory region"};
const QStringList kAlone = {"Memory excluding gaps", "By data type", "Not overlapped"};
const QStringList kShared = {"Memory excluding gaps", "By data type", "Overlapped"};
const QStringList kCategory = {"Memory excluding gaps", "By category"};
const QStringList kLiveness = {"Memory excluding gaps", "By liveness"};

} // namespace

class TestMemoryDetails : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString path = dir_.filePath("hand.tsr");
        testing::writeHandBuiltMemoryReport(path.toStdString());
        loaded_ = ReportLoader::loadNow(path);
        QVERIFY2(loaded_.error.isEmpty(), qPrintable(loaded_.error));
        QCOMPARE(loaded_.data->tileMemory.size(), std::size_t{4});
    }

    void detailsAllTiles() {
        MemoryDetailsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setReport(loaded_.data, loaded_.data->tileOverlap);
        QCOMPARE(m.columnCount(), 2);
        QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QString("All tiles"));
        QCOMPARE(m.rowCount(), 2);
        // Including gaps: 550 + 488 + 200 + 1200; excluding: 538 + 482 + 196 + 1148.
        QCOMPARE(bytes(m, kIncluding, 1), 2438ull);
        QCOMPARE(m.index(0, 1).data().toString(), QString("2,438 B"));
        QCOMPARE(bytes(m, kExcluding, 1), 2364ull);
        // Regions clip at 600 and 400 bytes; tile 3 overflows by 200.
        QCOMPARE(bytes(m, kRegions + QStringList{"non-interleaved"}, 1), 550ull + 488 + 200 + 600);
        QCOMPARE(bytes(m, kRegions + QStringList{"interleaved"}, 1), 400ull);
        QCOMPARE(bytes(m, kRegions + QStringList{"Overflowed"}, 1), 200ull);
        QCOMPARE(bytes(m, kIncluding + QStringList{"Gaps"}, 1), 12ull + 6 + 4 + 52);
        // Grouping rows have no value.
        QVERIFY(!value(m, kRegions, 1).isValid());
        QCOMPARE(m.index(m.find(kRegions).row(), 1, m.find(kIncluding)).data().toString(),
                 QString());
        // By category: the report's names, one row each.
        QCOMPARE(m.rowCount(m.find(kCategory)), 10);
        QCOMPARE(bytes(m, kCategory + QStringList{"Not-always-live variables"}, 1),
                 200ull + 0 + 50 + 64);
        QCOMPARE(bytes(m, kCategory + QStringList{"Always-live variables"}, 1),
                 100ull + 300 + 0 + 700);
        // By data type: always-live variables plus the unshared not-always-live
        // bytes (120, 0, 0, 64); overlapped: 160 on tile 0, 150 on tile 2.
        QCOMPARE(bytes(m, kAlone + QStringList{"Variables"}, 1), 1100ull + 184);
        QCOMPARE(bytes(m, kShared + QStringList{"Variables"}, 1), 310ull);
        QCOMPARE(bytes(m, kAlone + QStringList{"Constants"}, 1), 30ull + 0 + 0 + 100);
        QCOMPARE(bytes(m, kAlone + QStringList{"Control code"}, 1), 4ull * 64);
        QCOMPARE(bytes(m, kAlone + QStringList{"Vertex state"}, 1), 20ull + 8 + 12 + 40);
        QCOMPARE(bytes(m, kAlone + QStringList{"Vector-list descriptors"}, 1), 10ull + 4 + 0 + 20);
        QCOMPARE(bytes(m, kAlone + QStringList{"Host exchange code"}, 1), 8ull + 0 + 0 + 8);
        QCOMPARE(bytes(m, kAlone + QStringList{"Stack"}, 1), 4ull * 40);
        // By liveness: excluding gaps minus the pool; the pool; the pool unshared.
        QCOMPARE(bytes(m, kLiveness + QStringList{"Always live"}, 1), 338ull + 482 + 146 + 1084);
        QCOMPARE(bytes(m, kLiveness + QStringList{"Not always live (peak)"}, 1), 314ull);
        QCOMPARE(bytes(m, kLiveness + QStringList{"Not always live (without sharing)"}, 1),
                 280ull + 0 + 150 + 64);
    }

    void detailsPerTile() {
        MemoryDetailsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setReport(loaded_.data, loaded_.data->tileOverlap);
        m.setTiles({0, 3});
        QCOMPARE(m.columnCount(), 3);
        QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QString("Tile 0"));
        QCOMPARE(m.headerData(2, Qt::Horizontal).toString(), QString("Tile 3"));
        QCOMPARE(bytes(m, kIncluding, 1), 550ull);
        QCOMPARE(bytes(m, kIncluding, 2), 1200ull);
        QCOMPARE(bytes(m, kRegions + QStringList{"non-interleaved"}, 2), 600ull);
        QCOMPARE(bytes(m, kRegions + QStringList{"Overflowed"}, 1), 0ull);
        QCOMPARE(bytes(m, kRegions + QStringList{"Overflowed"}, 2), 200ull);
        QCOMPARE(bytes(m, kAlone + QStringList{"Variables"}, 1), 100ull + 120);
        QCOMPARE(bytes(m, kAlone + QStringList{"Variables"}, 2), 700ull + 64);
        QCOMPARE(bytes(m, kShared + QStringList{"Variables"}, 1), 160ull);
        QCOMPARE(bytes(m, kShared + QStringList{"Variables"}, 2), 0ull);
        // Tile 1 has no not-always-live blocks (the query leaves it out): zero.
        m.setTiles({1});
        QCOMPARE(m.columnCount(), 2);
        QCOMPARE(bytes(m, kAlone + QStringList{"Variables"}, 1), 300ull);
        QCOMPARE(bytes(m, kShared + QStringList{"Variables"}, 1), 0ull);
    }

    void detailsSumManyTilesAndMissingOverlap() {
        // Twelve tiles (the four, three times): more than kMaxTileColumns
        // selected sum into one column.
        auto big = std::make_shared<ReportData>(*loaded_.data);
        for (int copy = 0; copy < 2; ++copy) {
            for (std::uint32_t t = 0; t < 4; ++t) {
                auto e = loaded_.data->tileMemory[t];
                e.tile = record::TileId{
                    static_cast<std::uint32_t>(static_cast<std::uint32_t>(big->tileMemory.size()))};
                big->tileMemory.push_back(e);
            }
        }
        MemoryDetailsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setReport(big, std::nullopt);
        m.setTiles({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        QCOMPARE(m.columnCount(), 2);
        QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QString("10 tiles (sum)"));
        QCOMPARE(bytes(m, kIncluding, 1), 2ull * 2438 + 550 + 488);
        // Without the overlap query the overlap rows say so, the rest stand.
        QCOMPARE(m.index(0, 1, m.find(kShared)).data().toString(), QString("n/a"));
        QVERIFY(!value(m, kShared + QStringList{"Variables"}, 1).isValid());
        QCOMPARE(bytes(m, kAlone + QStringList{"Stack"}, 1), 10ull * 40);
        m.setTiles({0, 1, 2, 3, 4, 5, 6, 7});
        QCOMPARE(m.columnCount(), 1 + MemoryDetailsModel::kMaxTileColumns);
    }

    void vertices() {
        TileVerticesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setReport(loaded_.data);
        // All tiles: AddVertex 4 + 2 + 5 vertices, 64 + 32 + 80 bytes; ReduceVertex 1 + 3, 24 + 72.
        QCOMPARE(m.rowCount(), 2);
        auto check = [&](int row, const QString& name, quint64 count, quint64 state, quint64 sets) {
            QCOMPARE(m.index(row, TileVerticesModel::Codelet).data().toString(), name);
            QCOMPARE(m.index(row, TileVerticesModel::Vertices).data(kSortRole).toULongLong(),
                     count);
            QCOMPARE(m.index(row, TileVerticesModel::StateBytes).data(kSortRole).toULongLong(),
                     state);
            QCOMPARE(m.index(row, TileVerticesModel::ComputeSets).data(kSortRole).toULongLong(),
                     sets);
        };
        check(0, "AddVertex", 11, 176, 1);
        check(1, "ReduceVertex", 4, 96, 1);
        m.setTiles({0, 2});
        QCOMPARE(m.rowCount(), 2);
        check(0, "AddVertex", 4, 64, 1);
        check(1, "ReduceVertex", 4, 96, 1);
        m.setTiles({1});
        QCOMPARE(m.rowCount(), 1);
        check(0, "AddVertex", 2, 32, 1);
        QCOMPARE(m.index(0, TileVerticesModel::Vertices).data().toString(), QString("2"));
    }

    void exchanges() {
        TileExchangesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto source = loaded_.source;
        m.setReport(loaded_.data, [source](record::StepId s) { return source->stepTiles(s); });
        QCOMPARE(m.rowCount(), 0); // nothing until tiles are given
        auto check = [&](int row, const QString& name, const QString& kind, quint64 in,
                         quint64 out) {
            QCOMPARE(m.index(row, TileExchangesModel::Step).data().toString(), name);
            QCOMPARE(m.index(row, TileExchangesModel::Kind).data().toString(), kind);
            QCOMPARE(m.index(row, TileExchangesModel::BytesIn).data(kSortRole).toULongLong(), in);
            QCOMPARE(m.index(row, TileExchangesModel::BytesOut).data(kSortRole).toULongLong(), out);
        };
        m.setTiles({});
        QCOMPARE(m.rowCount(), 2);
        check(0, "add", "Execute", 10 + 30, 20 + 5);
        check(1, "copy", "Copy", 100 + 200, 150 + 150);
        m.setTiles({0, 2});
        QCOMPARE(m.rowCount(), 2);
        check(0, "add", "Execute", 10 + 30, 0);
        check(1, "copy", "Copy", 100, 150);
        m.setTiles({3});
        check(0, "add", "Execute", 0, 5);
        check(1, "copy", "Copy", 0, 150);
        QVERIFY(m.error().isEmpty());
        // A step that fails to read is named, the others still shown.
        m.setReport(loaded_.data, [source](record::StepId s) {
            if (s == record::StepId{1u}) {
                throw std::runtime_error("step 1 is damaged");
            }
            return source->stepTiles(s);
        });
        m.setTiles({1});
        QCOMPARE(m.rowCount(), 1);
        check(0, "add", "Execute", 0, 20);
        QCOMPARE(m.error(), QString("step 1 is damaged"));
    }

    // The Kind column sorts in record::ProgramKind's order (Execute 1, Copy 6,
    // StreamToDevice 7, StreamToHost 8), not on the names: by name "Copy"
    // would come before "Execute". Two stream copies join the fixture's
    // "add" (Execute) and "copy" (Copy); ties keep program order.
    void exchangesSortInKindOrder_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<Qt::SortOrder>("order");
        QTest::addColumn<QStringList>("steps");
        QTest::newRow("kind ascending") << int(TileExchangesModel::Kind) << Qt::AscendingOrder
                                        << QStringList{"add", "copy", "fromHost", "toHost"};
        QTest::newRow("kind descending") << int(TileExchangesModel::Kind) << Qt::DescendingOrder
                                         << QStringList{"toHost", "fromHost", "copy", "add"};
        // Received: add 40, copy 300, toHost 0, fromHost 1,024 (as text
        // "1.0 KiB" would sort before "300 B").
        QTest::newRow("received ascending")
            << int(TileExchangesModel::BytesIn) << Qt::AscendingOrder
            << QStringList{"toHost", "add", "copy", "fromHost"};
        // Program order (the step id), whatever the names.
        QTest::newRow("step descending") << int(TileExchangesModel::Step) << Qt::DescendingOrder
                                         << QStringList{"fromHost", "toHost", "copy", "add"};
    }

    void exchangesSortInKindOrder() {
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, order);
        QFETCH(QStringList, steps);
        auto data = std::make_shared<ReportData>(*loaded_.data);
        auto stream = [&](std::uint32_t id, record::ProgramKind kind, const char* name,
                          std::uint64_t in, std::uint64_t out) {
            reports::ProgramStepEntry s;
            s.id = record::StepId{id};
            s.kind = kind;
            s.name = name;
            s.bytesInSum = in;
            s.bytesOutSum = out;
            data->programSteps.push_back(s);
        };
        stream(2, record::ProgramKind::StreamToHost, "toHost", 0, 64);
        stream(3, record::ProgramKind::StreamToDevice, "fromHost", 1024, 0);
        TileExchangesModel m;
        // All tiles come from the stored sums: no step's arrays are read.
        m.setReport(data, [](record::StepId) -> std::shared_ptr<const reports::StepTiles> {
            throw std::runtime_error("arrays read for all tiles");
        });
        m.setTiles({});
        QVERIFY(m.error().isEmpty());
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&m);
        proxy.setSortRole(kSortRole);
        proxy.sort(column, order);
        QStringList shown, kinds;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            shown << proxy.index(r, TileExchangesModel::Step).data().toString();
        }
        QCOMPARE(shown, steps);
        // Kinds read as reports store them.
        proxy.sort(TileExchangesModel::Kind, Qt::AscendingOrder);
        for (int r = 0; r < proxy.rowCount(); ++r) {
            kinds << proxy.index(r, TileExchangesModel::Kind).data().toString();
        }
        QCOMPARE(kinds, (QStringList{"Execute", "Copy", "StreamCopyToDevice", "StreamCopyToHost"}));
    }

private:
    QTemporaryDir dir_;
    LoadedReport loaded_;
};

QTEST_MAIN(TestMemoryDetails)
#include "tst_memory_details.moc"
