// The Summary pane rendered offscreen on captured reports: the totals it
// shows equal the report's (read independently with reports::ReportReader),
// the cycle split, the histogram's bars and range, the fullest tiles (and
// that clicking one selects it), the out-of-memory report's status and
// overflow, and that big reports (stress on mk2, mlp-train) render.
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/common/Colors.h"
#include "views/common/Export.h"
#include "views/common/Format.h"
#include "views/common/ProportionBar.h"
#include "views/common/Selection.h"
#include "views/data/ReportLoader.h"
#include "views/models/SummaryInsights.h"
#include "views/panes/SummaryPane.h"
#include "views/panes/memory/MemoryHistogramPlot.h"

#include <QDir>
#include <QLabel>
#include <QTableWidget>
#include <QtTest>

#include <numeric>

using namespace tessera;
using namespace tessera::views;

namespace {

QString out(const QString& name) {
    return QDir(TESSERA_TEST_OUTPUT_DIR).filePath(name);
}

struct Shown {
    std::unique_ptr<SummaryPane> pane;
    Selection selection;
    LoadedReport report;
    reports::Summary summary; // read independently
    QString text(const char* name) const {
        auto* label = pane->findChild<QLabel*>(name);
        if (!label) {
            qFatal("no label %s", name);
        }
        return label->text();
    }
};

std::unique_ptr<Shown> show(const QString& path, QSize size = {1400, 900}) {
    auto s = std::make_unique<Shown>();
    s->report = ReportLoader::loadNow(path);
    if (!s->report.error.isEmpty()) {
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(s->report.error));
    }
    s->summary = reports::ReportReader(path.toStdString()).summary();
    s->pane = std::make_unique<SummaryPane>();
    s->pane->resize(size);
    s->pane->setSelection(&s->selection);
    s->pane->setReport(s->report.data, s->report.source);
    s->pane->show();
    if (!QTest::qWaitForWindowExposed(s->pane.get())) {
        qWarning("window not exposed");
    }
    QCoreApplication::processEvents();
    return s;
}

} // namespace

class TestSummaryPane : public QObject {
    Q_OBJECT

private slots:
    void totals();
    void histogram();
    void fullestTilesSelect();
    void outOfMemory();
    void darkPalette();
    void bigReports_data();
    void bigReports();
    void noReport();
};

void TestSummaryPane::totals() {
    auto s = show(testing::capturedReport("matmul"));
    const auto& sum = s->summary;
    QCOMPARE(s->pane->paneName(), QString("summary"));
    QCOMPARE(s->text("totalCycles"), formatCount(sum.cycles.total));
    QVERIFY(
        s->text("totalTime").contains(formatCyclesAsTime(sum.cycles.total, sum.target.clockHz)));
    QCOMPARE(s->text("totalMemory"), formatBytes(sum.memory.totalBytes));
    QCOMPARE(s->text("targetName"), QString::fromStdString(sum.target.name));
    QCOMPARE(s->text("targetBytesPerTile"), formatBytes(sum.target.bytesPerTile));
    QVERIFY(s->text("targetTiles").startsWith(formatCount(sum.target.tiles)));
    QCOMPARE(s->text("memoryStatus"), QString("Fits in memory"));
    QCOMPARE(s->text("workload"), QString("matmul"));
    QCOMPARE(s->text("summaryHeading"), QString("matmul"));
    QVERIFY(s->text("fullestTile").endsWith("%"));
    if (sum.verification) {
        QCOMPARE(s->text("verification"),
                 sum.verification->passed ? QString("Passed") : QString("Failed"));
    }
    // The cycle split: compute, exchange, sync in proportion.
    const auto& segments = s->pane->cycleSplit()->segments();
    QCOMPARE(segments.size(), 3);
    QCOMPARE(segments[0].value, static_cast<double>(sum.cycles.compute));
    QCOMPARE(segments[1].value, static_cast<double>(sum.cycles.exchange));
    QCOMPARE(segments[2].value, static_cast<double>(sum.cycles.sync));
    const QImage image = s->pane->grab().toImage();
    const auto* bar = s->pane->cycleSplit();
    const QRect compute = s->pane->cycleSplit()->segmentRect(0);
    if (compute.width() > 4) {
        const QPoint p =
            bar->mapTo(s->pane.get(), QPoint(compute.left() + 2, compute.center().y()));
        QCOMPARE(image.pixelColor(p), phaseColor(Phase::Compute));
    }
    QVERIFY(image.save(out("summary_matmul.png")));
}

void TestSummaryPane::histogram() {
    auto s = show(testing::capturedReport("matmul"));
    const auto& data = *s->report.data;
    MemoryHistogramPlot* plot = s->pane->histogram();
    const MemoryHistogram expected = computeInsights(data).histogram;
    QCOMPARE(plot->bars()->data()->size(), static_cast<int>(expected.counts.size()));
    double tiles = 0;
    for (auto it = plot->bars()->data()->constBegin(); it != plot->bars()->data()->constEnd();
         ++it) {
        tiles += it->value;
    }
    QCOMPARE(tiles, static_cast<double>(data.tileMemory.size()));
    QCOMPARE(plot->xAxis->range().lower, static_cast<double>(expected.lower));
    QVERIFY(plot->xAxis->range().lower <=
            static_cast<double>(computeInsights(data).fullest.back().bytes));
    QVERIFY(plot->xAxis->range().upper >= static_cast<double>(s->summary.memory.peakTileBytes));
    QCOMPARE(plot->xAxis->range().upper, expected.upper());
    QVERIFY(plot->yAxis->range().upper >=
            *std::max_element(expected.counts.begin(), expected.counts.end()));
    QCOMPARE(plot->capacityLine()->visible(), expected.capacityInRange);
    QVERIFY(plot->grab().save(out("summary_histogram_matmul.png")));
}

void TestSummaryPane::fullestTilesSelect() {
    auto s = show(testing::capturedReport("matmul"));
    QTableWidget* table = s->pane->fullestTiles();
    QCOMPARE(table->rowCount(), 5);
    QCOMPARE(table->item(0, 0)->text(), QString("Tile %1").arg(s->summary.memory.peakTile));
    QCOMPARE(table->item(0, 1)->text(), formatBytes(s->summary.memory.peakTileBytes));
    const auto second = idFromVariant<record::TileId>(table->item(1, 0)->data(Qt::UserRole));
    const QRect cell = table->visualItemRect(table->item(1, 1));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(s->selection.tile(), second);
}

void TestSummaryPane::outOfMemory() {
    auto s = show(testing::outOfMemoryReport());
    const auto& sum = s->summary;
    QVERIFY(sum.memory.outOfMemory);
    QCOMPARE(s->text("memoryStatus"), QString("Out of memory"));
    QCOMPARE(s->text("memoryStatusValue").contains("out of memory"), true);
    QVERIFY(s->text("tilesOverCapacity").contains(formatCount(sum.memory.tilesOverCapacity)));
    const SummaryInsights in = computeInsights(*s->report.data);
    QVERIFY(in.worst.overflow > 0);
    QVERIFY(s->text("worstOverflow").contains(QString("tile %1").arg(in.worst.tile.value())));
    QVERIFY(s->text("worstOverflow").contains(formatBytes(in.worst.overflow).toHtmlEscaped()));
    QVERIFY(s->text("memoryStatusDetail").contains(formatBytes(in.worst.overflow)));
    // The fullest tile is over capacity: its overflow is listed.
    QTableWidget* table = s->pane->fullestTiles();
    QCOMPARE(table->rowCount(), 4);
    QCOMPARE(table->item(0, 3)->text(),
             formatBytes(s->report.data->tileMemory[sum.memory.peakTile].overflowBytes));
    // The histogram reaches past the capacity, which is marked.
    QVERIFY(s->pane->histogram()->capacityLine()->visible());
    QCOMPARE(s->pane->histogram()->capacityLine()->point1->coords().x(),
             static_cast<double>(sum.target.bytesPerTile));
    QVERIFY(s->pane->grab().save(out("summary_oom.png")));
    // Exports: the page and histogram as images, the tables as CSV.
    QStringList names;
    for (const ExportTarget& t : s->pane->exportTargets()) {
        names << t.name;
        if (t.widget) {
            QVERIFY(exportPng(t.widget, out("summary_export_" + t.name + ".png")));
        }
        if (t.model) {
            QCOMPARE(toCsv(t.model).count('\n'), t.model->rowCount() + 1);
        }
    }
    QCOMPARE(names.size(), 5);
    QVERIFY(names.contains("fullest-tiles"));
}

void TestSummaryPane::darkPalette() {
    auto s = show(testing::capturedReport("mlp-train"));
    s->pane->setPalette(views::darkPalette());
    QCoreApplication::processEvents();
    const QImage image = s->pane->grab().toImage();
    QVERIFY(image.pixelColor(4, 4).lightness() < 80);
    QVERIFY(image.save(out("summary_mlp_train_dark.png")));
}

void TestSummaryPane::bigReports_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("stress-mk2") << testing::capturedReport("stress", "mk2",
                                                           {{"steps", "8"}, {"phases", "4"}});
    QTest::newRow("mlp-train") << testing::capturedReport("mlp-train");
}

void TestSummaryPane::bigReports() {
    QFETCH(QString, path);
    auto s = show(path);
    const auto& data = *s->report.data;
    QCOMPARE(s->text("totalCycles"), formatCount(s->summary.cycles.total));
    QCOMPARE(s->pane->fullestTiles()->rowCount(),
             static_cast<int>(std::min<std::size_t>(5, data.tileMemory.size())));
    double tiles = 0;
    for (auto it = s->pane->histogram()->bars()->data()->constBegin();
         it != s->pane->histogram()->bars()->data()->constEnd(); ++it) {
        tiles += it->value;
    }
    QCOMPARE(tiles, static_cast<double>(data.tileMemory.size()));
    QVERIFY(s->pane->grab().save(out(QString("summary_%1.png").arg(QTest::currentDataTag()))));
}

void TestSummaryPane::noReport() {
    SummaryPane pane;
    pane.resize(900, 600);
    pane.setReport(nullptr, nullptr);
    QCOMPARE(pane.findChild<QLabel*>("summaryHeading")->text(), QString("No report"));
    QVERIFY(!pane.grab().isNull());
}

QTEST_MAIN(TestSummaryPane)
#include "tst_summary_pane.moc"
