// The Memory and Summary panes' tile tables and data, without the GUI.
// TileMemoryModel, MemoryBlocksModel and the memory plot run on the
// hand-built report of MemoryFixtures.h (four tiles, every figure chosen
// there): rows, raw values, sort order and colours are compared with literal
// values worked out in the comments, under QAbstractItemModelTester. The
// Summary's insights still run on captured reports, against the report's
// stored summary (written by the report writer, not by the views).
#include "MemoryFixtures.h"
#include "ModelRows.h"
#include "ReportFixtures.h"
#include "VariablesFixture.h"
#include "reports/ReportReader.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/MemoryBlocksModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/SummaryInsights.h"
#include "views/models/TileMemoryModel.h"
#include "views/panes/memory/MemoryPlotData.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

using namespace tessera;
using namespace tessera::views;
using testing::columnTexts;
using testing::rowTexts;

class TestMemoryModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void tileMemoryRows();
    void tileMemorySort_data();
    void tileMemorySort();
    void memoryBlocksOfATile();
    void plotDataSumsToTileTotals();
    void summaryInsights();
    void histogramBins();

private:
    LoadedReport load(const QString& path) {
        LoadedReport r = ReportLoader::loadNow(path);
        if (!r.error.isEmpty()) {
            qFatal("cannot load %s: %s", qPrintable(path), qPrintable(r.error));
        }
        return r;
    }
    QTemporaryDir dir_;
    LoadedReport hand_; // MemoryFixtures.h's report, written and read back
    QString matmul_, mlp_, oom_;
};

void TestMemoryModels::initTestCase() {
    QVERIFY(dir_.isValid());
    const QString path = dir_.filePath("hand.tsr");
    testing::writeHandBuiltMemoryReport(path.toStdString());
    hand_ = load(path);
    matmul_ = testing::capturedReport("matmul");
    mlp_ = testing::capturedReport("mlp-train");
    oom_ = testing::outOfMemoryReport();
}

// Per tile, from MemoryFixtures.h's category bytes (capacity 1,000 bytes,
// 4 tiles per IPU):
//   tile  total   without gaps         gaps  always-live     NAL peak  free  overflow  used
//   0      550    538 (100+200+...+40)  12   538 - 200 = 338  200      450     0       55%
//   1      488    482                    6   482              0        512     0       48.8%
//   2      200    196                    4   196 - 50 = 146   50       800     0       20%
//   3     1200   1148                   52   1148 - 64 = 1084 64         0   200      120%
void TestMemoryModels::tileMemoryRows() {
    TileMemoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setReport(hand_.data);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), TileMemoryModel::FirstCategory + 10);
    // Raw: tile, IPU, the figures above, used as a fraction, then the ten
    // categories in MemoryCategory order as the fixture lists them.
    QCOMPARE(rowTexts(model, kSortRole),
             (QStringList{
                 "0 | 0 | 550 | 538 | 12 | 338 | 200 | 450 | 0 | 0.55 | "
                 "100 | 200 | 30 | 20 | 10 | 50 | 16 | 8 | 64 | 40",
                 "1 | 0 | 488 | 482 | 6 | 482 | 0 | 512 | 0 | 0.488 | "
                 "300 | 0 | 0 | 8 | 4 | 50 | 16 | 0 | 64 | 40",
                 "2 | 0 | 200 | 196 | 4 | 146 | 50 | 800 | 0 | 0.2 | "
                 "0 | 50 | 0 | 12 | 0 | 30 | 0 | 0 | 64 | 40",
                 "3 | 0 | 1200 | 1148 | 52 | 1084 | 64 | 0 | 200 | 1.2 | "
                 "700 | 64 | 100 | 40 | 20 | 80 | 32 | 8 | 64 | 40",
             }));
    // Shown: bytes from 1,024 up in KiB with one decimal (1200 / 1024 = 1.17,
    // 1148 / 1024 = 1.12, 1084 / 1024 = 1.06).
    QCOMPARE(rowTexts(model).at(3).section(" | ", 0, 9),
             QString("3 | 0 | 1.2 KiB | 1.1 KiB | 52 B | 1.1 KiB | 64 B | 0 B | 200 B | 120.0%"));
    QCOMPARE(columnTexts(model, TileMemoryModel::Used),
             (QStringList{"55.0%", "48.8%", "20.0%", "120.0%"}));
    QCOMPARE(columnTexts(model, 0, kIdRole), (QStringList{"0", "1", "2", "3"}));
    // The Used swatch is heatColor(used) on the ramp #440154 #3b528b #21908d
    // #5dc963 #fde725 (stops at 0, .25, .5, .75, 1), rounded per channel:
    //   0.55: 0.2 of the way from #21908d to #5dc963 = (45, 155.4, 132.6)
    //   0.488: 0.952 from #3b528b to #21908d = (34.2, 141.0, 140.9)
    //   0.2: 0.8 from #440154 to #3b528b = (60.8, 65.8, 128)
    //   1.2: clamped to 1, the last stop.
    QCOMPARE(columnTexts(model, TileMemoryModel::Used, Qt::DecorationRole),
             (QStringList{"#2d9b85", "#228d8d", "#3d4280", "#fde725"}));
    QVERIFY(!model.index(0, TileMemoryModel::Total).data(Qt::DecorationRole).isValid());
    // Over capacity (tile 3 only): Overflow and Used in the capacity line's red.
    for (int column = 0; column < TileMemoryModel::FirstCategory; ++column) {
        const bool red = column == TileMemoryModel::Overflow || column == TileMemoryModel::Used;
        QCOMPARE(columnTexts(model, column, Qt::ForegroundRole),
                 (QStringList{"", "", "", red ? "#b2182b" : ""}));
    }
    // Category headers: the report's names, each with its category's colour.
    QCOMPARE(model.headerData(TileMemoryModel::FirstCategory, Qt::Horizontal).toString(),
             QString("always-live variables"));
    QCOMPARE(model.headerData(TileMemoryModel::FirstCategory + 9, Qt::Horizontal).toString(),
             QString("stack"));
    QCOMPARE(
        model.headerData(TileMemoryModel::FirstCategory + 1, Qt::Horizontal, Qt::DecorationRole)
            .value<QColor>(),
        QColor("#ff7f0e"));
    QCOMPARE(model.headerData(TileMemoryModel::Used, Qt::Horizontal, kUnitRole).toString(),
             QString("fraction of capacity"));
    QCOMPARE(model.index(1, TileMemoryModel::Free).data(Qt::ToolTipRole).toString(),
             QString("512 bytes"));
    model.setReport(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

// The tiles table as the pane sorts it (a QSortFilterProxyModel on
// kSortRole): the tiles in the order the figures of the table above give.
void TestMemoryModels::tileMemorySort_data() {
    QTest::addColumn<int>("column");
    QTest::addColumn<Qt::SortOrder>("order");
    QTest::addColumn<QStringList>("tiles");
    // 1200, 550, 488, 200 (as text "488 B" and "550 B" would lead).
    QTest::newRow("total descending")
        << int(TileMemoryModel::Total) << Qt::DescendingOrder << QStringList{"3", "0", "1", "2"};
    QTest::newRow("total ascending")
        << int(TileMemoryModel::Total) << Qt::AscendingOrder << QStringList{"2", "1", "0", "3"};
    // 0, 450, 512, 800.
    QTest::newRow("free ascending")
        << int(TileMemoryModel::Free) << Qt::AscendingOrder << QStringList{"3", "0", "1", "2"};
    // 200, 0, 50, 64: 200, 64, 50, 0.
    QTest::newRow("not-always-live descending")
        << int(TileMemoryModel::NotAlwaysLivePeak) << Qt::DescendingOrder
        << QStringList{"0", "3", "2", "1"};
    // Gaps 12, 6, 4, 52.
    QTest::newRow("gaps ascending")
        << int(TileMemoryModel::Gaps) << Qt::AscendingOrder << QStringList{"2", "1", "0", "3"};
    // Constants (category 2): 30, 0, 0, 100; ties in tile order.
    QTest::newRow("constants descending") << TileMemoryModel::FirstCategory + 2
                                          << Qt::DescendingOrder << QStringList{"3", "0", "1", "2"};
}

void TestMemoryModels::tileMemorySort() {
    QFETCH(int, column);
    QFETCH(Qt::SortOrder, order);
    QFETCH(QStringList, tiles);
    TileMemoryModel model;
    model.setReport(hand_.data);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(kSortRole);
    proxy.sort(column, order);
    QCOMPARE(columnTexts(proxy, TileMemoryModel::Tile), tiles);
}

// Tile 0's blocks of MemoryFixtures.h, each given an owner of
// VariablesFixture.h's varied variables, and four more blocks past them (one
// per other owner kind), laid out from base 0x1000:
//   offset  bytes  category          owner
//     0     100    always-live       variable 0 (layer1/matmul/weights, always live)
//   300      30    constant          variable 5 (controlId)
//   300     120    not-always-live   variable 1 (layer1/matmul/out, steps 1-3)
//   300      80    not-always-live   variable 2 (layer1/relu/out, step 2)
//   420      80    not-always-live   variable 42 (none such)
//   500      50    vertex code       codelet 0 (AddVertex)
//   560      16    internal exchange step 1 (copy)
//   576      20    vertex state      vertex 7
//   596      64    control code      none
// Rows by address, larger first at one address: the three at 300 share their
// addresses with each other (2 sharers each); [420, 500) only touches them.
void TestMemoryModels::memoryBlocksOfATile() {
    using record::MemoryCategory;
    auto data = std::make_shared<ReportData>(*hand_.data);
    data->variables = testing::variedVariablesReport()->variables;
    std::vector<record::MemoryBlockRecord> blocks;
    for (const auto& b : testing::handBuiltMemoryRecord().memoryBlocks) {
        if (b.tile == record::TileId{0u}) {
            blocks.push_back(b);
        }
    }
    QCOMPARE(blocks.size(), std::size_t{5});
    const std::uint32_t variables[] = {0, 5, 1, 2, 42};
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        blocks[i].setOwner(record::BlockOwner(record::VariableId{variables[i]}));
    }
    auto block = [&](MemoryCategory category, std::uint32_t offset, std::uint32_t bytes,
                     record::BlockOwner owner) {
        record::MemoryBlockRecord b;
        b.tile = record::TileId{0u};
        b.category = category;
        b.address = testing::kHandBase + offset;
        b.bytes = bytes;
        b.setOwner(owner);
        blocks.push_back(b);
    };
    block(MemoryCategory::VertexCode, 500, 50, record::BlockOwner(record::CodeletId{0u}));
    block(MemoryCategory::InternalExchangeCode, 560, 16, record::BlockOwner(record::StepId{1u}));
    block(MemoryCategory::VertexInstanceState, 576, 20, record::BlockOwner(record::VertexId{7u}));
    block(MemoryCategory::ControlCode, 596, 64, {});
    const TileMemoryLayout layout =
        layoutTileMemory(record::TileId{0u}, blocks, testing::kHandBase);
    MemoryBlocksModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLayout(data, layout);
    // Addresses in hex: 0x1000 + 300 = 0x112c, + 420 = 0x11a4, + 500 = 0x11f4, ...
    QCOMPARE(
        rowTexts(model),
        (QStringList{
            "0x1000 | 0x1064 | 100 B | always-live variables | layer1/matmul/weights | always | 0",
            "0x112c | 0x11a4 | 120 B | not-always-live variables | layer1/matmul/out | "
            "steps 1–3 | 2",
            "0x112c | 0x117c | 80 B | not-always-live variables | layer1/relu/out | step 2 | 2",
            "0x112c | 0x114a | 30 B | constants | controlId | always | 2",
            "0x11a4 | 0x11f4 | 80 B | not-always-live variables | variable 42 | always | 0",
            "0x11f4 | 0x1226 | 50 B | vertex code | AddVertex | always | 0",
            "0x1230 | 0x1240 | 16 B | internal exchange code | step 1 (copy) | always | 0",
            "0x1240 | 0x1254 | 20 B | vertex instance state | vertex 7 | always | 0",
            "0x1254 | 0x1294 | 64 B | control code | control code | always | 0",
        }));
    // Raw addresses in decimal: 0x1000 = 4096, + 300 = 4396.
    QCOMPARE(rowTexts(model, kSortRole).at(3),
             QString("4396 | 4426 | 30 | constants | controlId | always | 2"));
    // The category's swatch (categoryColor).
    QCOMPARE(columnTexts(model, MemoryBlocksModel::Category, Qt::DecorationRole),
             (QStringList{"#d62728", "#ff7f0e", "#ff7f0e", "#bcbd22", "#ff7f0e", "#1f77b4",
                          "#17becf", "#9467bd", "#8c564b"}));
    // Lanes: the three at 300 take lanes 0, 1, 2 of 3; gaps [100, 300) and [550, 560).
    QCOMPARE(layout.blocks[3].lane, 2);
    QCOMPARE(layout.blocks[3].lanes, 3);
    QCOMPARE(layout.gaps.size(), std::size_t{2});
    QCOMPARE(layout.gaps[0].address, std::uint64_t{testing::kHandBase + 100});
    QCOMPARE(layout.gaps[0].bytes, std::uint64_t{200});
    QCOMPARE(layout.gaps[1].bytes, std::uint64_t{10});
    QCOMPARE(layout.end, std::uint64_t{testing::kHandBase + 660});
    // Sorted as the pane sorts (kSortRole): sizes as numbers, ties in address order.
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(kSortRole);
    proxy.sort(MemoryBlocksModel::Size, Qt::DescendingOrder);
    QCOMPARE(
        columnTexts(proxy, MemoryBlocksModel::Owner),
        (QStringList{"layer1/matmul/out", "layer1/matmul/weights", "layer1/relu/out", "variable 42",
                     "control code", "AddVertex", "controlId", "vertex 7", "step 1 (copy)"}));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

// Each tile's bars stack to its total including gaps (550, 488, 200, 1,200
// bytes, as above) in every mode; without gaps there is no gap series; tile
// 3's 200 bytes over capacity are the last region series.
void TestMemoryModels::plotDataSumsToTileTotals() {
    const std::vector<double> totals = {550, 488, 200, 1200};
    for (auto mode :
         {MemoryPlotMode::ByCategory, MemoryPlotMode::ByRegion, MemoryPlotMode::ByLiveness}) {
        const MemoryPlotData plot = buildMemoryPlotData(*hand_.data, mode, true);
        QCOMPARE(plot.keys.size(), qsizetype{4});
        QVERIFY(!plot.series.empty());
        for (std::size_t t = 0; t < totals.size(); ++t) {
            double sum = 0;
            for (const auto& s : plot.series) {
                QCOMPARE(s.values.size(), qsizetype{4});
                sum += s.values[static_cast<qsizetype>(t)];
            }
            QCOMPARE(sum, totals[t]);
        }
    }
    const MemoryPlotData noGaps =
        buildMemoryPlotData(*hand_.data, MemoryPlotMode::ByCategory, false);
    for (const auto& s : noGaps.series) {
        QVERIFY(s.name != "gaps");
    }
    const MemoryPlotData regions = buildMemoryPlotData(*hand_.data, MemoryPlotMode::ByRegion, true);
    QCOMPARE(regions.series.back().name, QString("overflow"));
    QCOMPARE(regions.series.back().values, (QList<double>{0, 0, 0, 200}));
}

void TestMemoryModels::summaryInsights() {
    for (const QString& path : {matmul_, oom_, mlp_}) {
        const LoadedReport loaded = load(path);
        const reports::ReportReader reader(path.toStdString());
        const auto summary = reader.summary();
        const SummaryInsights in = computeInsights(*loaded.data);
        QCOMPARE(in.fullest.size(), std::min<std::size_t>(5, summary.target.tiles));
        QCOMPARE(in.fullest.front().tile.value(), summary.memory.peakTile);
        QCOMPARE(in.fullest.front().bytes, summary.memory.peakTileBytes);
        for (std::size_t i = 1; i < in.fullest.size(); ++i) {
            QVERIFY(in.fullest[i - 1].bytes >= in.fullest[i].bytes);
        }
        QCOMPARE(in.tilesOverCapacity, summary.memory.tilesOverCapacity);
        QCOMPARE(in.totalBytes, summary.memory.totalBytes);
        const auto binned =
            std::accumulate(in.histogram.counts.begin(), in.histogram.counts.end(), 0ULL);
        QCOMPARE(binned, static_cast<unsigned long long>(summary.target.tiles));
        std::uint64_t vertices = 0;
        for (const auto& c : in.codelets) {
            vertices += c.vertices;
            QVERIFY(!c.name.empty());
        }
        QCOMPARE(vertices, summary.program.vertices);
        for (std::size_t i = 1; i < in.alwaysLive.size(); ++i) {
            QVERIFY(in.alwaysLive[i - 1]->totalBytes >= in.alwaysLive[i]->totalBytes);
            QVERIFY(in.alwaysLive[i]->alwaysLive || in.alwaysLive[i]->isConstant);
        }
        if (summary.memory.outOfMemory) {
            QVERIFY(in.worst.overflow > 0);
            QVERIFY(in.histogram.capacityInRange);
        }
    }
}

void TestMemoryModels::histogramBins() {
    const MemoryHistogram h = binMemory({0, 100, 200, 1000}, 4000);
    QCOMPARE(h.counts.size(), std::size_t(8));
    QVERIFY(!h.capacityInRange);
    QVERIFY(h.upper() >= 1000);
    QCOMPARE(h.counts.front(), 2ULL); // 0 and 100 in the first bin of 126 bytes
    QCOMPARE(h.counts.back(), 1ULL);
    // Tiles that all use a similar amount: the bins start near the emptiest.
    const MemoryHistogram spread = binMemory({1000, 1100, 1200}, 100000);
    QCOMPARE(spread.lower, 992ULL);
    QVERIFY(spread.upper() > 1200);
    QCOMPARE(spread.counts.front(), 1ULL);
    QCOMPARE(spread.counts.back(), 1ULL);
    const MemoryHistogram full = binMemory(std::vector<std::uint64_t>(100, 3000), 4000);
    QCOMPARE(full.counts.size(), std::size_t(40));
    QVERIFY(full.capacityInRange);
    QVERIFY(full.upper() >= 4000);
}

QTEST_GUILESS_MAIN(TestMemoryModels)
#include "tst_memory_models.moc"
