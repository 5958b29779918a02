// The column-wise value sweep of issue 19: every column of every table of a
// small real report set to NULL, -1, INT64_MAX and text, one column and one
// value at a time, each report opened in the main window (a step, a tile and
// a variable selected) and every pane rendered offscreen. No case may crash or hang (a watchdog
// names the case that does), every pane must become ready, and whatever the window says is wrong is
// one line naming the file and the damaged table. CTest runs it in shards
// (TESSERA_TEST_SHARD=K/N: every Nth column from the Kth).
#include "DamagedRendering.h"
#include "MainWindow.h"
#include "reports/ReportWriter.h"
#include "tests/reports/ReportDamage.h"
#include "tests/reports/SmallProgram.h"
#include "views/common/Selection.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <optional>

using namespace tessera;
namespace fs = std::filesystem;

namespace {

struct Shard {
    int index = 0;
    int count = 1;
};

// TESSERA_TEST_SHARD=K/N, or the whole sweep when unset; nullopt when malformed.
std::optional<Shard> shardFromEnvironment() {
    const QString text = qEnvironmentVariable("TESSERA_TEST_SHARD");
    if (text.isEmpty()) {
        return Shard{};
    }
    const QStringList parts = text.split('/');
    bool indexOk = false, countOk = false;
    const Shard shard{parts.value(0).toInt(&indexOk), parts.value(1).toInt(&countOk)};
    if (parts.size() != 2 || !indexOk || !countOk || shard.count < 1 || shard.index < 0 ||
        shard.index >= shard.count) {
        return std::nullopt;
    }
    return shard;
}

} // namespace

class ValueSweep : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        testing::installCrashHandler();
    }

    void everyColumnEveryValueEveryPane() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Small but complete: LOD levels 1 and 2, several tiles, one run.
        const fs::path base = fs::path(dir.path().toStdString()) / "base.tsr";
        {
            reports::ReportWriter writer(base);
            testing::SmallProgram{4, 70, 1}.run(writer);
            writer.finish();
        }
        QCOMPARE(QString::fromStdString(testing::allowNulls(base)), QString());
        const std::vector<testing::Column> columns = testing::reportColumns(base);
        QVERIFY(columns.size() > 100);
        const std::optional<Shard> shard = shardFromEnvironment();
        QVERIFY2(shard, "TESSERA_TEST_SHARD must be K/N with 0 <= K < N");

        gui::MainWindow window;
        window.setInteractive(false);
        window.resize(1100, 750);
        window.show();
        testing::Watchdog watchdog(std::chrono::seconds(30));
        const fs::path file = fs::path(dir.path().toStdString()) / "damaged.tsr";
        const QString path = QString::fromStdString(file.string());
        QStringList failures;
        QStringList accepted; // opened as if sound: a value the report may hold, or unread
        int cases = 0, refused = 0, flagged = 0, skipped = 0;
        QElapsedTimer timer;
        timer.start();
        // TESSERA_SWEEP_ONLY=table.column runs the cases of one column (to debug one).
        const QString only = qEnvironmentVariable("TESSERA_SWEEP_ONLY");
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const testing::Column& c = columns[i];
            if (!only.isEmpty() && only != QString::fromStdString(c.table + "." + c.column)) {
                continue;
            }
            if (only.isEmpty() &&
                static_cast<int>(i % static_cast<std::size_t>(shard->count)) != shard->index) {
                continue;
            }
            for (const std::string& value : testing::sweepValues()) {
                const std::string name = c.table + "." + c.column + " = " + value;
                fs::copy_file(base, file, fs::copy_options::overwrite_existing);
                if (!testing::setColumn(file, c, value)) {
                    ++skipped; // the database cannot hold it (an INTEGER PRIMARY KEY, a key)
                    continue;
                }
                ++cases;
                testing::nameCase(name);
                watchdog.arm();
                QString error;
                const bool opened = window.openReportNow(path, &error);
                QStringList problems = opened ? QStringList() : QStringList{error};
                if (opened) {
                    // A step, a tile and a variable picked, as a user would: the
                    // panes then read live variables, tile arrays, blocks, places.
                    window.selection()->setStep(record::StepId{1u});
                    window.selection()->setTile(record::TileId{1u});
                    window.selection()->setVariable(record::VariableId{1u});
                    const QStringList notReady = testing::renderPanes(window, 20000);
                    if (!notReady.isEmpty()) {
                        failures << QString::fromStdString(name) +
                                        ": not ready: " + notReady.join(", ");
                    }
                    problems = window.problems();
                } else {
                    ++refused;
                }
                watchdog.disarm();
                flagged += problems.isEmpty() ? 0 : 1;
                if (problems.isEmpty()) {
                    accepted << QString::fromStdString(name);
                }
                // Strings are named by the column that refers to them.
                const QString table =
                    c.table == "strings" ? "string" : QString::fromStdString(c.table);
                bool named = problems.isEmpty();
                for (const QString& p : problems) {
                    if (p.contains('\n') || !p.contains(path)) {
                        failures << QString::fromStdString(name) +
                                        ": not one line naming the "
                                        "file: " +
                                        p;
                    }
                    named = named || p.contains(table);
                }
                if (!named) {
                    failures << QString::fromStdString(name) +
                                    ": the message does not name the table: " + problems.front();
                }
            }
        }
        qInfo("shard %d of %d: %d cases (%d skipped: the database refuses the value), %d refused "
              "at open, %d "
              "opened with a problem shown, in %.1f s",
              shard->index, shard->count, cases, skipped, refused, flagged - refused,
              timer.elapsed() / 1000.0);
        qInfo("accepted without a problem: %s", qPrintable(accepted.join(", ")));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        // The sweep damages what matters: most cases are noticed.
        QVERIFY(!only.isEmpty() || flagged > cases / 2);
    }
};

QTEST_MAIN(ValueSweep)
#include "tst_value_sweep.moc"
