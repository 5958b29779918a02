// The Memory and Summary panes' item models and data, without the GUI:
// QAbstractItemModelTester on every model, row counts equal the report's
// (read independently with reports::ReportReader), sorting on raw values,
// filtering, per-tile sums and the address layout of one tile's blocks.
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/common/Export.h"
#include "views/data/ReportLoader.h"
#include "views/data/ReportSource.h"
#include "views/models/MemoryBlocksModel.h"
#include "views/models/ModelRoles.h"
#include "views/models/SummaryInsights.h"
#include "views/models/TileMemoryModel.h"
#include "views/models/VariablesModel.h"
#include "views/panes/memory/MemoryPlotData.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <numeric>

using namespace tessera;
using namespace tessera::views;

namespace {

// A CSV line's fields: commas inside double quotes do not split ("" is a quote).
QStringList csvFields(const QString& line) {
    QStringList fields{QString()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields << QString();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

} // namespace

class TestMemoryModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void variablesModelMatchesReport_data();
    void variablesModelMatchesReport();
    void variablesSortAndFilter();
    void tileMemoryModelMatchesReport();
    void memoryBlocksModelAndLayout();
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
    QString matmul_, mlp_, oom_;
};

void TestMemoryModels::initTestCase() {
    matmul_ = testing::capturedReport("matmul");
    mlp_ = testing::capturedReport("mlp-train");
    oom_ = testing::outOfMemoryReport();
}

void TestMemoryModels::variablesModelMatchesReport_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("matmul") << matmul_;
    QTest::newRow("mlp-train") << mlp_;
    QTest::newRow("out-of-memory") << oom_;
}

void TestMemoryModels::variablesModelMatchesReport() {
    QFETCH(QString, path);
    const LoadedReport loaded = load(path);
    const reports::ReportReader reader(path.toStdString());
    const auto variables = reader.variables();
    VariablesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(loaded.data);
    QCOMPARE(model.rowCount(), static_cast<int>(variables.size()));
    QCOMPARE(model.columnCount(), static_cast<int>(VariablesModel::ColumnCount));
    QVERIFY(model.rowCount() > 0);
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto& v = variables[static_cast<std::size_t>(r)];
        QCOMPARE(model.index(r, VariablesModel::Name).data().toString(),
                 QString::fromStdString(v.name));
        QCOMPARE(model.index(r, VariablesModel::Type).data().toString(),
                 QString::fromStdString(v.type));
        QCOMPARE(model.index(r, VariablesModel::Bytes).data(kSortRole).toULongLong(), v.totalBytes);
        QCOMPARE(model.index(r, VariablesModel::Elements).data(kSortRole).toULongLong(),
                 v.numElements);
        QCOMPARE(model.index(r, VariablesModel::Tiles).data(kSortRole).toUInt(), v.numTiles);
        QCOMPARE(model.index(r, 0).data(kIdRole).toUInt(), v.id.value());
        QCOMPARE(model.rowOfVariable(v.id), r);
    }
    // CSV export writes the numbers raw (kSortRole under a header naming the unit).
    const QStringList csv = toCsv(&model).split('\n');
    QCOMPARE(csvFields(csv[0])[VariablesModel::Bytes], QString("Bytes (bytes)"));
    QCOMPARE(csvFields(csv[1])[VariablesModel::Bytes], QString::number(variables[0].totalBytes));
}

void TestMemoryModels::variablesSortAndFilter() {
    const LoadedReport loaded = load(mlp_);
    VariablesModel model;
    model.setReport(loaded.data);
    VariablesFilterModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.sort(VariablesModel::Bytes, Qt::DescendingOrder);
    QCOMPARE(proxy.rowCount(), model.rowCount());
    for (int r = 1; r < proxy.rowCount(); ++r) {
        QVERIFY(proxy.index(r - 1, VariablesModel::Bytes).data(kSortRole).toULongLong() >=
                proxy.index(r, VariablesModel::Bytes).data(kSortRole).toULongLong());
    }
    proxy.sort(VariablesModel::Bytes, Qt::AscendingOrder);
    for (int r = 1; r < proxy.rowCount(); ++r) {
        QVERIFY(proxy.index(r - 1, VariablesModel::Bytes).data(kSortRole).toULongLong() <=
                proxy.index(r, VariablesModel::Bytes).data(kSortRole).toULongLong());
    }
    // The name filter narrows to the variables whose name contains the text.
    const QString name = model.index(0, VariablesModel::Name).data().toString();
    const QString part = name.left(std::max<qsizetype>(2, name.size() - 1)).toUpper();
    int expected = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        expected += model.index(r, VariablesModel::Name)
                        .data()
                        .toString()
                        .contains(part, Qt::CaseInsensitive);
    }
    proxy.setNameFilter(part);
    QCOMPARE(proxy.rowCount(), expected);
    QVERIFY(proxy.rowCount() >= 1);
    QVERIFY(proxy.rowCount() < model.rowCount());
    proxy.setNameFilter("no variable is called this");
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setNameFilter(QString());
    // The kind filter keeps one kind.
    proxy.setKindFilter(static_cast<int>(VariableKind::Constant));
    int constants = 0;
    for (const auto& v : loaded.data->variables) {
        constants += v.isConstant ? 1 : 0;
    }
    QCOMPARE(proxy.rowCount(), constants);
    for (int r = 0; r < proxy.rowCount(); ++r) {
        QCOMPARE(proxy.index(r, VariablesModel::Kind).data().toString(), QString("constant"));
    }
    proxy.setKindFilter(-1);
    QCOMPARE(proxy.rowCount(), model.rowCount());
}

void TestMemoryModels::tileMemoryModelMatchesReport() {
    const LoadedReport loaded = load(oom_);
    const reports::ReportReader reader(oom_.toStdString());
    const auto tiles = reader.tileMemory();
    const auto categories = reader.memoryCategories();
    TileMemoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(loaded.data);
    QCOMPARE(model.rowCount(), static_cast<int>(tiles.size()));
    QCOMPARE(model.columnCount(),
             TileMemoryModel::FirstCategory + static_cast<int>(categories.size()));
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto& t = tiles[static_cast<std::size_t>(r)];
        QCOMPARE(model.index(r, TileMemoryModel::Tile).data().toUInt(), t.tile.value());
        QCOMPARE(model.index(r, TileMemoryModel::Total).data(kSortRole).toULongLong(),
                 t.totalIncludingGaps);
        QCOMPARE(model.index(r, TileMemoryModel::Overflow).data(kSortRole).toULongLong(),
                 t.overflowBytes);
        for (std::size_t c = 0; c < categories.size(); ++c) {
            QCOMPARE(model.index(r, TileMemoryModel::FirstCategory + static_cast<int>(c))
                         .data(kSortRole)
                         .toULongLong(),
                     t.bytesByCategory[categories[c].id]);
        }
    }
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(kSortRole);
    proxy.sort(TileMemoryModel::Total, Qt::DescendingOrder);
    const auto summary = reader.summary();
    QCOMPARE(proxy.index(0, TileMemoryModel::Total).data(kSortRole).toULongLong(),
             summary.memory.peakTileBytes);
    QVERIFY(summary.memory.outOfMemory);
}

void TestMemoryModels::memoryBlocksModelAndLayout() {
    for (const QString& path : {matmul_, mlp_}) {
        const LoadedReport loaded = load(path);
        const reports::ReportReader reader(path.toStdString());
        const auto tiles = reader.tileMemory();
        for (std::uint32_t tile : {0u, reader.summary().memory.peakTile}) {
            const auto entries = reader.memoryBlocks(record::TileId{tile});
            TileMemoryLayout layout = layoutTileMemory(
                record::TileId{tile}, loaded.source->memoryBlocks(record::TileId{tile}),
                loaded.data->target.memoryBaseAddress);
            MemoryBlocksModel model;
            QAbstractItemModelTester tester(&model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
            model.setLayout(loaded.data, layout);
            QCOMPARE(model.rowCount(), static_cast<int>(entries.size()));
            // Address order, ends and the tile's extent.
            std::uint64_t previous = 0;
            for (int r = 0; r < model.rowCount(); ++r) {
                const auto address =
                    model.index(r, MemoryBlocksModel::Address).data(kSortRole).toULongLong();
                QVERIFY(address >= previous);
                previous = address;
                QCOMPARE(model.index(r, MemoryBlocksModel::End).data(kSortRole).toULongLong(),
                         address +
                             model.index(r, MemoryBlocksModel::Size).data(kSortRole).toULongLong());
                QVERIFY(!model.index(r, MemoryBlocksModel::Owner).data().toString().isEmpty());
            }
            QCOMPARE(layout.end - layout.base, tiles[tile].totalIncludingGaps);
            // Bytes per category equal the tile's, apart from the shared pool.
            std::vector<std::uint64_t> byCategory(record::kMemoryCategoryCount, 0);
            for (const auto& b : entries) {
                byCategory[static_cast<std::size_t>(b.category)] += b.bytes;
            }
            for (std::uint32_t c = 0; c < record::kMemoryCategoryCount; ++c) {
                if (c !=
                    static_cast<std::uint32_t>(record::MemoryCategory::NotAlwaysLiveVariable)) {
                    QCOMPARE(byCategory[c], tiles[tile].bytesByCategory[c]);
                }
            }
            // Blocks that share addresses sit in different lanes.
            for (std::size_t i = 0; i < layout.blocks.size(); ++i) {
                const auto& a = layout.blocks[i];
                QVERIFY(a.lane >= 0 && a.lane < a.lanes);
                for (std::size_t j = i + 1; j < layout.blocks.size(); ++j) {
                    const auto& b = layout.blocks[j];
                    if (a.block.address < b.block.address + b.block.bytes &&
                        b.block.address < a.block.address + a.block.bytes) {
                        QVERIFY(a.lane != b.lane);
                        QVERIFY(a.sharers > 0 && b.sharers > 0);
                    }
                }
                for (const MemoryGap& g : layout.gaps) {
                    QVERIFY(g.address + g.bytes <= a.block.address ||
                            a.block.address + a.block.bytes <= g.address);
                }
            }
        }
    }
}

void TestMemoryModels::plotDataSumsToTileTotals() {
    const LoadedReport loaded = load(oom_);
    const auto& tiles = loaded.data->tileMemory;
    for (auto mode :
         {MemoryPlotMode::ByCategory, MemoryPlotMode::ByRegion, MemoryPlotMode::ByLiveness}) {
        const MemoryPlotData plot = buildMemoryPlotData(*loaded.data, mode, true);
        QCOMPARE(plot.keys.size(), static_cast<qsizetype>(tiles.size()));
        QVERIFY(!plot.series.empty());
        for (std::size_t t = 0; t < tiles.size(); ++t) {
            double sum = 0;
            for (const auto& s : plot.series) {
                QCOMPARE(s.values.size(), static_cast<qsizetype>(tiles.size()));
                sum += s.values[static_cast<qsizetype>(t)];
            }
            QCOMPARE(sum, static_cast<double>(tiles[t].totalIncludingGaps));
        }
    }
    const MemoryPlotData noGaps =
        buildMemoryPlotData(*loaded.data, MemoryPlotMode::ByCategory, false);
    for (const auto& s : noGaps.series) {
        QVERIFY(s.name != "gaps");
    }
    const MemoryPlotData regions =
        buildMemoryPlotData(*loaded.data, MemoryPlotMode::ByRegion, true);
    QCOMPARE(regions.series.back().name, QString("overflow"));
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
