// GUI and CLI agree on every number: `tessera-cli diff --json` is run on real
// pairs and every row of every list (totals, steps, compute sets, liveness,
// tiles, variables) is compared, cell by cell, with what the compare panes'
// models hold, in the same order.
#include "CompareFixtures.h"
#include "views/compare/CompareData.h"
#include "views/compare/models/CompareTables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cmath>

using namespace tessera;
using namespace tessera::views;
using namespace tessera::testing;

namespace {

QJsonObject runCliDiff(const ReportPair& pair) {
    QProcess cli;
    cli.start(TESSERA_CLI_PATH, {"diff", pair.baseline, pair.comparison, "--json"});
    if (!cli.waitForFinished(120000) || cli.exitStatus() != QProcess::NormalExit) {
        qFatal("tessera-cli diff did not finish");
    }
    if (cli.exitCode() != 0) {
        qFatal("tessera-cli diff failed: %s", cli.readAllStandardError().constData());
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(cli.readAllStandardOutput(), &error);
    if (!doc.isObject()) {
        qFatal("tessera-cli diff --json: %s", qPrintable(error.errorString()));
    }
    return doc.object();
}

// Column name in the model -> key of a number object in the JSON rows.
using Quantities = QList<QPair<QString, QString>>;
// Column name in the model -> key of a text field in the JSON rows.
using Texts = QList<QPair<QString, QString>>;

void compareRows(const CompareTableModel& model, const QJsonArray& rows, const Texts& texts,
                 const Quantities& quantities) {
    QCOMPARE(model.rowCount(), rows.size());
    for (int r = 0; r < model.rowCount(); ++r) {
        const QJsonObject row = rows[r].toObject();
        for (const auto& [column, key] : texts) {
            const QJsonValue v = row.value(key);
            const QString expected = v.isDouble() ? QString::number(v.toInteger()) : v.toString();
            QCOMPARE(cell(model, r, column).toString(), expected);
        }
        for (const auto& [column, key] : quantities) {
            const QJsonObject q = row.value(key).toObject();
            QVERIFY2(!q.isEmpty(), qPrintable(key));
            QCOMPARE(number(model, r, column + " (baseline)"), q.value("baseline").toInteger());
            QCOMPARE(number(model, r, column + " (comparison)"), q.value("comparison").toInteger());
            QCOMPARE(number(model, r, column + " Δ"), q.value("delta").toInteger());
            if (model.columnOf(column + " Δ%") >= 0) {
                const QVariant p = cell(model, r, column + " Δ%");
                QCOMPARE(p.isNull(), q.value("percent").isNull());
                if (!p.isNull()) {
                    QVERIFY(std::fabs(p.toDouble() - q.value("percent").toDouble()) <=
                            1e-6 * std::max(1.0, std::fabs(p.toDouble())));
                }
            }
        }
    }
}

} // namespace

class TestCompareCli : public QObject {
    Q_OBJECT

private slots:
    void guiAndCliAgree_data();
    void guiAndCliAgree();
};

void TestCompareCli::guiAndCliAgree_data() {
    addRealPairRows();
}

void TestCompareCli::guiAndCliAgree() {
    QFETCH(QString, baseline);
    QFETCH(QString, comparison);
    const auto data = loadPair({baseline, comparison});
    const QJsonObject json = runCliDiff({baseline, comparison});
    QCOMPARE(json.value("tiles_comparable").toBool(), data->diff.tilesComparable);
    QCOMPARE(json.value("notes").toArray().size(), qsizetype(data->diff.notes.size()));

    CompareTableModel totals;
    fillTotals(totals, data);
    const QJsonObject jt = json.value("totals").toObject();
    QCOMPARE(totals.rowCount(), jt.size());
    for (int r = 0; r < totals.rowCount(); ++r) {
        const QString key = cell(totals, r, "Figure").toString();
        const QJsonObject f = jt.value(key).toObject();
        QVERIFY2(!f.isEmpty(), qPrintable(key));
        QCOMPARE(number(totals, r, "Baseline"), f.value("baseline").toInteger());
        QCOMPARE(number(totals, r, "Comparison"), f.value("comparison").toInteger());
        QCOMPARE(number(totals, r, "Δ"), f.value("delta").toInteger());
    }

    CompareTableModel steps, sets, liveness, tiles, variables;
    fillSteps(steps, data);
    compareRows(
        steps, json.value("steps").toObject().value("rows").toArray(),
        {{"Step", "name"}, {"Kind", "kind"}, {"Change", "change"}, {"Identity", "identity"}},
        {{"Cycles", "cycles"},
         {"Per execution", "cycles_per_execution"},
         {"Executions", "executions"},
         {"Compute", "compute"},
         {"Exchange", "exchange"},
         {"Sync", "sync"}});
    fillComputeSets(sets, data);
    compareRows(sets, json.value("compute_sets").toObject().value("rows").toArray(),
                {{"Compute set", "identity"}, {"Change", "change"}},
                {{"Cycles", "cycles"},
                 {"Compute", "compute"},
                 {"Vertices", "vertices"},
                 {"Executions", "executions"}});
    fillLiveness(liveness, data);
    compareRows(liveness, json.value("liveness").toObject().value("rows").toArray(),
                {{"Step", "name"}, {"Change", "change"}, {"Identity", "identity"}},
                {{"Live bytes", "bytes"},
                 {"Largest tile", "max_tile_bytes"},
                 {"Live variables", "live_variables"}});
    fillTiles(tiles, data);
    compareRows(tiles, json.value("tiles").toObject().value("rows").toArray(), {{"Tile", "tile"}},
                {{"Total", "total"},
                 {"Always-live", "always_live"},
                 {"Not-always-live", "not_always_live"},
                 {"Gaps", "gaps"}});
    fillVariables(variables, data);
    compareRows(variables, json.value("variables").toObject().value("rows").toArray(),
                {{"Variable", "identity"}, {"Change", "change"}},
                {{"Bytes", "bytes"}, {"Tiles", "tiles"}});
    QVERIFY(steps.rowCount() > 0);
}

QTEST_MAIN(TestCompareCli)
#include "tst_compare_cli.moc"
