// The compare panes' table models against numbers computed independently
// from the two reports (reports::ReportReader: summaries, tile memory,
// program steps and executed steps, step tiles, variable placement), never
// through reports/Compare: totals, per-tile memory, steps, liveness and
// variables of three real pairs (two sizes, mk1 against mk2, a change of
// tile mapping), QAbstractItemModelTester on every table, and bad input.
#include "CompareFixtures.h"
#include "views/common/Colors.h"
#include "views/compare/CompareData.h"
#include "views/compare/models/CompareTables.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QFile>
#include <QGuiApplication>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::testing;

namespace {

using Fill = void (*)(CompareTableModel&, const std::shared_ptr<const CompareData>&);

} // namespace

class TestCompareModels : public QObject {
    Q_OBJECT

private slots:
    void modelsPassTheTester();
    void totalsMatchTheSummaries_data();
    void totalsMatchTheSummaries();
    void stepsMatchTheReports();
    void livenessMatchesStepTiles();
    void tilesMatchTileMemory();
    void mappingChangeShowsInVariables();
    void differentTargetsSayWhatIsNotCompared();
    void badInputIsAnError();
};

void TestCompareModels::modelsPassTheTester() {
    const auto data = loadPair(sizesPair());
    for (const Fill fill : {Fill(fillTotals), Fill(fillSteps), Fill(fillComputeSets),
                            Fill(fillLiveness), Fill(fillTiles), Fill(fillVariables)}) {
        CompareTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        fill(model, data);
        QVERIFY(model.rowCount() > 0);
        fill(model, nullptr);
        QCOMPARE(model.rowCount(), 0);
        fill(model, data);
    }
}

void TestCompareModels::totalsMatchTheSummaries_data() {
    addRealPairRows();
}

void TestCompareModels::totalsMatchTheSummaries() {
    QFETCH(QString, baseline);
    QFETCH(QString, comparison);
    const auto data = loadPair({baseline, comparison});
    const reports::Summary b = reports::ReportReader(baseline.toStdString()).summary();
    const reports::Summary c = reports::ReportReader(comparison.toStdString()).summary();
    CompareTableModel model;
    fillTotals(model, data);
    auto check = [&](const char* key, std::uint64_t vb, std::uint64_t vc) {
        const QList<int> rows = rowsWith(model, "Figure", key);
        QCOMPARE(rows.size(), 1);
        const int r = rows.front();
        QCOMPARE(number(model, r, "Baseline"), qlonglong(vb));
        QCOMPARE(number(model, r, "Comparison"), qlonglong(vc));
        QCOMPARE(number(model, r, "Δ"), qlonglong(vc) - qlonglong(vb));
        const QVariant percent = cell(model, r, "Δ%");
        if (vb != 0) {
            QVERIFY(std::fabs(percent.toDouble() - 100.0 * (double(vc) - double(vb)) / double(vb)) <
                    1e-9);
        }
        // A regression (growth of cycles, time or bytes) is coloured as worse.
        const CompareTone tone = model.toneAt(r, model.columnOf("Δ"));
        QCOMPARE(tone, vc > vb   ? CompareTone::Worse
                       : vc < vb ? CompareTone::Better
                                 : CompareTone::Neutral);
    };
    check("cycles", b.cycles.total, c.cycles.total);
    check("compute", b.cycles.compute, c.cycles.compute);
    check("exchange", b.cycles.exchange, c.cycles.exchange);
    check("sync", b.cycles.sync, c.cycles.sync);
    check("memory", b.memory.totalBytes, c.memory.totalBytes);
    check("peak-tile-memory", b.memory.peakTileBytes, c.memory.peakTileBytes);
    check("tiles-over-capacity", b.memory.tilesOverCapacity, c.memory.tilesOverCapacity);
    const auto ns = [](const reports::Summary& s) {
        return static_cast<std::uint64_t>(
            std::llround(double(s.cycles.total) * 1e9 / s.target.clockHz));
    };
    check("time-ns", ns(b), ns(c));
    // Counts (even when they change) are neither better nor worse.
    const int steps = rowsWith(model, "Figure", "program-steps").front();
    QCOMPARE(number(model, steps, "Baseline"), qlonglong(b.program.steps));
    QCOMPARE(model.toneAt(steps, model.columnOf("Δ")), CompareTone::Neutral);
    const int vertices = rowsWith(model, "Figure", "vertices").front();
    QCOMPARE(number(model, vertices, "Δ"),
             qlonglong(c.program.vertices) - qlonglong(b.program.vertices));
    QCOMPARE(model.toneAt(vertices, model.columnOf("Δ")), CompareTone::Neutral);
}

void TestCompareModels::stepsMatchTheReports() {
    const ReportPair pair = sizesPair();
    const auto data = loadPair(pair);
    const auto b = stepFigures(pair.baseline);
    const auto c = stepFigures(pair.comparison);
    CompareTableModel model;
    fillSteps(model, data);
    int checked = 0;
    qlonglong previous = std::numeric_limits<qlonglong>::max();
    for (int r = 0; r < model.rowCount(); ++r) {
        const std::string name = cell(model, r, "Step").toString().toStdString();
        const QString change = cell(model, r, "Change").toString();
        if (change != "added" && b.at(name).count == 1) {
            QCOMPARE(number(model, r, "Cycles (baseline)"), qlonglong(b.at(name).cycles));
            QCOMPARE(number(model, r, "Executions (baseline)"), qlonglong(b.at(name).executions));
            ++checked;
        }
        if (change != "removed" && c.at(name).count == 1) {
            QCOMPARE(number(model, r, "Cycles (comparison)"), qlonglong(c.at(name).cycles));
        }
        // The largest regression first.
        const qlonglong delta = number(model, r, "Cycles Δ");
        QVERIFY(delta <= previous);
        previous = delta;
    }
    QVERIFY(checked > 3);
    // A bigger matmul costs more: the first row is a regression, coloured so.
    QVERIFY(number(model, 0, "Cycles Δ") > 0);
    QCOMPARE(model.toneAt(0, model.columnOf("Cycles Δ")), CompareTone::Worse);
    QCOMPARE(
        model.index(0, model.columnOf("Cycles Δ")).data(Qt::ForegroundRole).value<QBrush>().color(),
        worseColor(QGuiApplication::palette()));
}

void TestCompareModels::livenessMatchesStepTiles() {
    const ReportPair pair = sizesPair();
    const auto data = loadPair(pair);
    const auto b = stepFigures(pair.baseline);
    const auto c = stepFigures(pair.comparison);
    CompareTableModel model;
    fillLiveness(model, data);
    int checked = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const std::string name = cell(model, r, "Step").toString().toStdString();
        if (b.count(name) && c.count(name) && b.at(name).count == 1 && c.at(name).count == 1 &&
            cell(model, r, "Change").toString() != "added") {
            QCOMPARE(number(model, r, "Live bytes (baseline)"), qlonglong(b.at(name).liveBytes));
            QCOMPARE(number(model, r, "Live bytes (comparison)"), qlonglong(c.at(name).liveBytes));
            QCOMPARE(number(model, r, "Live bytes Δ"),
                     qlonglong(c.at(name).liveBytes) - qlonglong(b.at(name).liveBytes));
            ++checked;
        }
    }
    QVERIFY(checked > 3);
}

void TestCompareModels::tilesMatchTileMemory() {
    const ReportPair pair = mappingPair();
    const auto data = loadPair(pair);
    const auto tb = reports::ReportReader(pair.baseline.toStdString()).tileMemory();
    const auto tc = reports::ReportReader(pair.comparison.toStdString()).tileMemory();
    CompareTableModel model;
    fillTiles(model, data);
    QCOMPARE(model.rowCount(), int(tb.size()));
    int changed = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto tile = static_cast<std::size_t>(number(model, r, "Tile"));
        QCOMPARE(number(model, r, "Total (baseline)"), qlonglong(tb[tile].totalIncludingGaps));
        QCOMPARE(number(model, r, "Total (comparison)"), qlonglong(tc[tile].totalIncludingGaps));
        QCOMPARE(number(model, r, "Total Δ"),
                 qlonglong(tc[tile].totalIncludingGaps) - qlonglong(tb[tile].totalIncludingGaps));
        QCOMPARE(number(model, r, "Always-live Δ"),
                 qlonglong(tc[tile].alwaysLiveBytes) - qlonglong(tb[tile].alwaysLiveBytes));
        changed += number(model, r, "Total Δ") != 0 ? 1 : 0;
    }
    QVERIFY(changed > 0); // a coarser mapping moves memory between tiles
}

void TestCompareModels::mappingChangeShowsInVariables() {
    const ReportPair pair = mappingPair();
    const auto data = loadPair(pair);
    auto placementOf = [](const QString& path, const std::string& name) {
        const reports::ReportReader reader(path.toStdString());
        for (const reports::VariableEntry& v : reader.variables()) {
            if (v.name == name) {
                auto tiles = reader.variableTiles(v.id);
                std::sort(tiles.begin(), tiles.end());
                return tiles;
            }
        }
        qFatal("no variable %s", name.c_str());
    };
    const auto pb = placementOf(pair.baseline, "a");
    const auto pc = placementOf(pair.comparison, "a");
    QVERIFY(pb != pc);
    CompareTableModel model;
    fillVariables(model, data);
    const QList<int> rows = rowsWith(model, "Variable", "a");
    QCOMPARE(rows.size(), 1);
    const int r = rows.front();
    QCOMPARE(cell(model, r, "Change").toString(), QString("changed"));
    QVERIFY(cell(model, r, "What changed").toString().contains("placement"));
    QCOMPARE(number(model, r, "Tiles (baseline)"), qlonglong(pb.size()));
    QCOMPARE(number(model, r, "Tiles (comparison)"), qlonglong(pc.size()));
    QCOMPARE(number(model, r, "Bytes Δ"), 0); // the same tensor, spread differently
}

void TestCompareModels::differentTargetsSayWhatIsNotCompared() {
    const auto data = loadPair(targetsPair());
    QVERIFY(!data->diff.tilesComparable);
    CompareTableModel tiles;
    fillTiles(tiles, data);
    QCOMPARE(tiles.rowCount(), 0);
    bool named = false;
    for (const std::string& note : data->diff.notes) {
        named = named ||
                (note.find("1216") != std::string::npos && note.find("1472") != std::string::npos);
    }
    QVERIFY(named);
    // Steps are still compared: the same program, all matched.
    CompareTableModel steps;
    fillSteps(steps, data);
    QVERIFY(steps.rowCount() > 0);
    QCOMPARE(rowsWith(steps, "Change", "added").size(), 0);
    QCOMPARE(rowsWith(steps, "Change", "removed").size(), 0);
}

void TestCompareModels::badInputIsAnError() {
    const QString good = sizesPair().baseline;
    const QString missing = QDir(TESSERA_TEST_OUTPUT_DIR).filePath("no-such-report.tsr");
    LoadedComparison r = CompareLoader::loadNow(good, missing);
    QVERIFY(!r.data);
    QVERIFY2(r.error.contains("no-such-report.tsr"), qPrintable(r.error));
    QVERIFY(!r.error.contains('\n'));
    const QString corrupt = QDir(TESSERA_TEST_OUTPUT_DIR).filePath("compare-corrupt.tsr");
    {
        QFile f(corrupt);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
    }
    r = CompareLoader::loadNow(good, corrupt);
    QVERIFY(!r.data);
    QVERIFY(!r.error.isEmpty());
    r = CompareLoader::loadNow(corrupt, good);
    QVERIFY(!r.data);
    QVERIFY(!r.error.isEmpty());
}

QTEST_MAIN(TestCompareModels)
#include "tst_compare_models.moc"
