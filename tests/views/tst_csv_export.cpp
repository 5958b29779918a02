// CSV export writes what a spreadsheet needs (issue 15, defect 7): numeric
// columns as raw numbers (not "6,258" or "4.3 KiB") with their unit in the
// header, text columns as shown, and rows in the order the table shows them.
// A hand-built report's tile table, sorted through a proxy as a view sorts
// it, is checked against values written here; then a pane's export target
// is checked to be the table as the user sorted it.
#include "ReportFixtures.h"
#include "views/common/Export.h"
#include "views/common/Format.h"
#include "views/data/ReportLoader.h"
#include "views/models/ModelRoles.h"
#include "views/models/TileMemoryModel.h"
#include "views/models/VariablesModel.h"
#include "views/panes/MemoryPane.h"

#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include <algorithm>

using namespace tessera;
using namespace tessera::views;

namespace {

std::shared_ptr<ReportData> threeTiles() {
    auto data = std::make_shared<ReportData>();
    data->target.numTiles = 3;
    data->target.tilesPerIpu = 3;
    data->target.bytesPerTile = 10000;
    const std::uint64_t totals[] = {6258, 4403, 9999};
    for (std::uint32_t t = 0; t < 3; ++t) {
        reports::TileMemoryEntry e;
        e.tile = record::TileId{static_cast<std::uint32_t>(t)};
        e.totalIncludingGaps = totals[t];
        e.totalExcludingGaps = totals[t] - 10 * t;
        e.gapBytes = 10 * t;
        data->tileMemory.push_back(e);
    }
    return data;
}

// One CSV line's fields (RFC 4180 quoting; no field spans lines here).
QStringList fields(const QString& line) {
    QStringList out{QString()};
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            out.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            out << QString();
        } else {
            out.back() += c;
        }
    }
    return out;
}

} // namespace

class TestCsvExport : public QObject {
    Q_OBJECT

private slots:
    void rawNumbersUnitsAndDisplayOrder() {
        const auto data = threeTiles();
        TileMemoryModel model;
        model.setReport(data);
        // What the table shows is formatted for people...
        QCOMPARE(model.index(0, TileMemoryModel::Total).data().toString(), formatBytes(6258));
        QSortFilterProxyModel shown;
        shown.setSourceModel(&model);
        shown.setSortRole(kSortRole);
        shown.sort(TileMemoryModel::Total, Qt::DescendingOrder);

        // ...the CSV has numbers, units in the header, rows as sorted: 2, 0, 1.
        const QStringList lines = toCsv(&shown).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        const QStringList header = lines[0].split(',');
        QCOMPARE(header[TileMemoryModel::Tile], QStringLiteral("Tile"));
        QCOMPARE(header[TileMemoryModel::Total], QStringLiteral("Total (bytes)"));
        QCOMPARE(header[TileMemoryModel::Gaps], QStringLiteral("Gaps (bytes)"));
        QCOMPARE(header[TileMemoryModel::Used], QStringLiteral("Used (fraction of capacity)"));
        const int expectedTiles[] = {2, 0, 1};
        const std::uint64_t totals[] = {6258, 4403, 9999};
        for (int r = 0; r < 3; ++r) {
            const QStringList f = lines[r + 1].split(',');
            const int t = expectedTiles[r];
            QCOMPARE(f[TileMemoryModel::Tile].toInt(), t);
            QCOMPARE(f[TileMemoryModel::Total], QString::number(totals[t]));
            QCOMPARE(f[TileMemoryModel::Free], QString::number(10000 - totals[t]));
            QCOMPARE(f[TileMemoryModel::Gaps], QString::number(10 * t));
            QCOMPARE(f[TileMemoryModel::Used].toDouble(), double(totals[t]) / 10000.0);
        }
    }

    void paneExportsTheTableAsShown() {
        const views::LoadedReport report =
            ReportLoader::loadNow(testing::capturedReport("matmul", "tiles:16"));
        QVERIFY(report.data != nullptr);
        MemoryPane pane;
        pane.resize(1400, 900);
        pane.setReport(report.data, report.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTableView* view = pane.variablesView();
        view->sortByColumn(VariablesModel::Bytes, Qt::DescendingOrder);
        const auto targets = pane.exportTargets();
        const auto it = std::find_if(targets.begin(), targets.end(),
                                     [](const ExportTarget& t) { return t.name == "variables"; });
        QVERIFY(it != targets.end());
        QCOMPARE(it->model, view->model());
        const QStringList lines = toCsv(it->model).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(fields(lines[0])[VariablesModel::Bytes], QStringLiteral("Bytes (bytes)"));
        std::vector<std::uint64_t> bytes;
        for (const auto& v : report.data->variables) {
            bytes.push_back(v.totalBytes);
        }
        std::sort(bytes.rbegin(), bytes.rend());
        // Rows follow the view: the biggest variables first, as integers.
        QCOMPARE(lines.size(), qsizetype(bytes.size() + 1));
        for (int r = 1; r < lines.size(); ++r) {
            QCOMPARE(fields(lines[r])[VariablesModel::Bytes],
                     QString::number(bytes[std::size_t(r - 1)]));
        }
    }
};

QTEST_MAIN(TestCsvExport)
#include "tst_csv_export.moc"
