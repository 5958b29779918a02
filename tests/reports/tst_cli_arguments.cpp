// tessera-cli refuses bad arguments at once: every numeric parameter of
// every workload (as `workloads --json` lists them) out of its range, absurd
// targets and target parameters, programs that cannot fit, loosely written
// --fail-on bounds and count options. Each gives exit 2, one error line naming
// the parameter and its range, no file, and finishes well within a time limit
// (a regression that starts building shows up as a timeout, not a slow test).
#include "CliTestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using tessera::test::cli;
using tessera::test::expectError;
using tessera::test::Result;

namespace {

// Generous for a refusal that takes milliseconds; a capture that starts
// building these sizes takes far longer and is killed.
constexpr int kRefusalMs = 15000;

QStringList badIntegers(qint64 minimum, qint64 maximum) {
    return {"4294967297",
            "1000000000000",
            "99999999999999999999",
            "-1",
            "-4294967297",
            "abc",
            "",
            "1.5",
            "1e3",
            "0x10",
            " 7",
            "7 ",
            "+7",
            "7k",
            QString::number(maximum + 1),
            QString::number(minimum - 1)};
}

} // namespace

class CliArguments : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString report_;
    QString file(const QString& name) const { return dir_.filePath(name); }

    // A refused capture: exit 2, one line with `needle`, no output file.
    void expectRefused(const QStringList& args, const QString& needle) {
        const QString out = file("refused.tsr");
        const Result r = cli(QStringList{"capture"} + args + QStringList{"-o", out}, kRefusalMs);
        QVERIFY2(r.exitCode != -2, qPrintable("took too long: " + args.join(' ')));
        expectError(r, needle);
        QVERIFY2(!QFile::exists(out), qPrintable(args.join(' ')));
        QVERIFY2(!QFile::exists(out + ".partial"), qPrintable(args.join(' ')));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        report_ = file("small.tsr");
        const Result r = cli({"capture", "matmul", "--target", "tiles:4", "--set", "m=8", "--set",
                              "k=8", "--set", "n=8", "-q", "-o", report_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void everyParameterOutOfRange() {
        const Result list = cli({"workloads", "--json"});
        QCOMPARE(list.exitCode, 0);
        const QJsonArray workloads = QJsonDocument::fromJson(list.out.toUtf8()).array();
        QVERIFY(workloads.size() >= 9);
        int numeric = 0;
        for (const QJsonValue& w : workloads) {
            const QString name = w["name"].toString();
            for (const QJsonValue& p : w["parameters"].toArray()) {
                const QString param = p["name"].toString();
                const QString kind = p["kind"].toString();
                const QString range = p["range"].toString();
                QVERIFY2(kind != "text" && !range.isEmpty(), qPrintable(name + " " + param));
                QStringList values;
                if (kind == "integer") {
                    values = badIntegers(p["minimum"].toInteger(), p["maximum"].toInteger());
                    ++numeric;
                } else if (kind == "number") {
                    values = {"nan",   "inf",   "-1",
                              "1e400", "0x1p3", "1,5",
                              "abc",   "",      QString::number(p["maximum"].toDouble() * 10 + 1)};
                    ++numeric;
                } else {
                    values = {"double", "FLOAT", "", "float "};
                }
                for (const QString& v : values) {
                    expectRefused({name, "--set", param + "=" + v}, "parameter '" + param +
                                                                        "' must be " + range +
                                                                        ", not '" + v + "'");
                }
            }
        }
        QVERIFY(numeric >= 28); // m, n, k, steps, iterations, batch, rows, edges, height, ...
    }

    void debugChecksParametersBeforeBuilding() {
        for (const QStringList& args : {QStringList{"matmul", "--set", "m=4294967297"},
                                        QStringList{"stress", "--set", "steps=1000000000000"},
                                        QStringList{"attention", "--set", "sequence=-5"}}) {
            const Result r = cli(QStringList{"debug"} + args + QStringList{"--list"}, kRefusalMs);
            expectError(r, "must be an integer from 1 to");
        }
    }

    void absurdTargetsAreRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("tiles:100000000") << QStringList{"--target", "tiles:100000000"}
                                         << "'tiles:100000000': N in tiles:N must be an integer "
                                            "from 1 to 8192";
        QTest::newRow("tiles:0") << QStringList{"--target", "tiles:0"} << "1 to 8192";
        QTest::newRow("custom:-4") << QStringList{"--target", "custom:-4"} << "1 to 8192";
        QTest::newRow("unknown") << QStringList{"--target", "mk9"} << "unknown target 'mk9'";
        const std::pair<const char*, const char*> params[] = {
            {"numIPUs=1000", "'numIPUs' must be an integer from 1 to 64, not '1000'"},
            {"tilesPerIPU=100000000", "'tilesPerIPU' must be an integer from 1 to 8192"},
            {"bytesPerTile=4294967296", "'bytesPerTile' must be an integer from 1024 to"},
            {"bytesPerTile=512", "'bytesPerTile' must be an integer from 1024 to"},
            {"clockHz=0", "'clockHz' must be a number from 1000 to 1e12"},
            {"clockHz=1e13", "'clockHz' must be a number from 1000 to 1e12"},
            {"clockHz=0x10", "'clockHz' must be a number"},
            {"numWorkerContexts=0", "'numWorkerContexts' must be an integer from 1 to 64"},
            {"exchangeBytesPerCycle=-1", "'exchangeBytesPerCycle'"},
            {"ipuSyncCycles=4294967297", "'ipuSyncCycles' must be an integer from 0 to"},
            {"minAlignment=3", "minAlignment must be a power of two"},
            {"name=", "'name' must be a name of 1 to 256 bytes"},
            {"sramBytes=4", "unknown target parameter 'sramBytes'"},
        };
        for (const auto& [assignment, needle] : params) {
            QTest::newRow(assignment)
                << QStringList{"--target-param", assignment} << QString(needle);
        }
        QTest::newRow("too many tiles together")
            << QStringList{"--target", "tiles:8192", "--target-param", "numIPUs=17"}
            << "at most 131072 tiles";
    }

    void absurdTargetsAreRefused() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        expectRefused(QStringList{"matmul"} + args, needle);
    }

    void programsThatCannotFit() {
        // Refused before anything is built, naming the need and the target.
        expectRefused({"elementwise", "--set", "n=200000", "--target", "tiles:1"},
                      "elementwise needs at least 3.8 MiB of tile memory with these parameters, "
                      "but target 'tiles:1' holds 624 KiB (1 tile of 624 KiB)");
        expectRefused({"matmul", "--set", "m=60000", "--set", "k=60000"},
                      "more than the 1 GiB a workload may use");
        // With --allow-out-of-memory it is built and the report records it.
        const QString out = file("overflow.tsr");
        const Result built = cli({"capture", "elementwise", "--set", "n=200000", "--target",
                                  "tiles:1", "--allow-out-of-memory", "-q", "-o", out});
        QVERIFY2(built.exitCode == 0, qPrintable(built.err));
        const Result summary = cli({"summary", out, "--json"});
        QCOMPARE(summary.exitCode, 0);
        const QJsonObject s = QJsonDocument::fromJson(summary.out.toUtf8()).object();
        QVERIFY(s["memory"]["out_of_memory"].toBool());
        // ...but not past the host limit.
        expectRefused({"elementwise", "--set", "n=200000000", "--allow-out-of-memory"},
                      "elementwise needs at least 3.7 GiB of tile memory with these parameters, "
                      "more than the 1 GiB a workload may use");
    }

    void failOnBoundsAreParsedStrictly() {
        for (const char* bound :
             {"cycles:+99999999999999999999", "cycles:+9223372036854775808", "cycles:+ 5%",
              "cycles:+0x10", "memory:+-0", "memory:-0", "cycles:+5 %", "cycles:++5", "cycles:5.",
              "cycles:.5", "cycles:1e3", "cycles:+inf", "cycles:+nan", "cycles:+5%%", "cycles:%",
              "cycles:+", "cycles:+5,5"}) {
            const Result r = cli({"diff", report_, report_, "--fail-on", bound}, kRefusalMs);
            expectError(r, QString("--fail-on '") + bound + "'");
        }
        expectError(cli({"diff", report_, report_, "--fail-on", "cycles:+99999999999999999999"}),
                    "larger than any metric can grow (at most 9223372036854775807)");
        for (const char* bound :
             {"cycles:+5%", "cycles:5%", "cycles:+2.5%", "cycles:0", "memory:+4096", "memory:4096",
              "peak-tile-memory:+0", "cycles:+9223372036854775807", "cycles:+0.000001%"}) {
            const Result r = cli({"diff", report_, report_, "--fail-on", bound});
            QVERIFY2(r.exitCode == 0, qPrintable(QString(bound) + ": " + r.err));
        }
    }

    void countOptionsAreParsedStrictly() {
        for (const char* hit : {"-3", "0", "1e3", " 2", "2 ", "+2", "99999999999999999999",
                                "1000000001", "0x10", ""}) {
            expectError(
                cli({"debug", "matmul", "--target", "tiles:4", "--break", "0", "--hit", hit},
                    kRefusalMs),
                QString("option '--hit' expects an integer from 1 to 1000000000, not '") + hit +
                    "'");
        }
        for (const char* top : {"-1", "abc", "1.5", "99999999999999999999", "1000000001"}) {
            expectError(cli({"diff", report_, report_, "--top", top}),
                        QString("option '--top' expects an integer from 0 to 1000000000, not '") +
                            top + "'");
        }
        QCOMPARE(cli({"diff", report_, report_, "--top", "0"}).exitCode, 0);
        for (const char* n : {"0", "-5", "100000001", "5e3"}) {
            expectError(cli({"export", report_, "--format", "chrome-trace", "-o",
                             file("trace.json"), "--max-events", n}),
                        QString("option '--max-events' expects an integer from 1 to 100000000"));
        }
        QVERIFY(!QFile::exists(file("trace.json")));
        for (const char* n : {"-1", "1025", "4x", "99999999999999999999"}) {
            expectRefused({"matmul", "--threads", n},
                          QString("option '--threads' expects an integer from 0 to 1024, not '") +
                              n + "'");
        }
    }

    void anyPathTheSystemTakesWorks() {
        // Past SQLite's 512 bytes of path, a 255-byte name (its ".partial"
        // temporary must be shortened), and both.
        QString deep = dir_.path() + "/";
        while (deep.size() < 560) {
            deep += QString(50, QLatin1Char('d')) + QLatin1Char('/');
        }
        QVERIFY(QDir().mkpath(deep));
        const QString name = QString(251, QLatin1Char('r')) + ".tsr";
        for (const QString& file : {deep + "long.tsr", file(name), deep + name}) {
            const QString what = QString("%1 characters").arg(file.size());
            const Result captured = cli({"capture", "matmul", "--target", "tiles:4", "--set", "m=8",
                                         "--set", "k=8", "--set", "n=8", "-q", "-o", file});
            QVERIFY2(captured.exitCode == 0, qPrintable(what + ": " + captured.err));
            QVERIFY2(QDir(QFileInfo(file).path()).entryList({"*partial*"}).isEmpty(),
                     qPrintable(what));
            QCOMPARE(cli({"summary", file}).exitCode, 0);
            QCOMPARE(cli({"diff", report_, file, "--fail-on", "cycles:+0"}).exitCode, 0);
            const QString trace = QFileInfo(file).path() + "/" + QString(250, 't') + ".json";
            const Result exported = cli({"export", file, "--format", "chrome-trace", "-o", trace});
            QVERIFY2(exported.exitCode == 0, qPrintable(what + ": " + exported.err));
            QVERIFY(QFileInfo(trace).size() > 0);
            QVERIFY(QFile::remove(trace));
        }
    }

    void fileNamesThatAreNotUtf8() {
        // The CLI takes file names as bytes.
        const QString quoted = "\"" + dir_.path() + "/bad$(printf '\\377\\376').tsr\"";
        for (const QString& args :
             {QString("capture matmul --target tiles:4 --set m=8 --set k=8 --set n=8 -q -o %1"),
              QString("summary %1"), QString("diff %1 %1 --fail-on cycles:+0")}) {
            QProcess p;
            p.start("/bin/sh", {"-c", QString("exec '%1' ").arg(TESSERA_CLI_PATH) +
                                          args.arg(quoted) + " > /dev/null"});
            QVERIFY(p.waitForFinished(kRefusalMs));
            QVERIFY2(p.exitCode() == 0, qPrintable(args + ": " + p.readAllStandardError()));
        }
        // QTemporaryDir cannot remove what QString cannot name.
        QProcess rm;
        rm.start("/bin/sh", {"-c", "rm -f " + quoted});
        QVERIFY(rm.waitForFinished(kRefusalMs) && rm.exitCode() == 0);
    }

    void errorsNameTheReportAndItsSide() {
        const QString missing = file("missing.tsr");
        expectError(cli({"diff", missing, report_}), "baseline " + missing + ": no such file");
        expectError(cli({"diff", report_, missing}), "comparison " + missing + ": no such file");
        QFile text(file("notes.tsr"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write(QByteArray(300, 'x'));
        text.close();
        expectError(cli({"diff", report_, text.fileName()}),
                    "comparison " + text.fileName() + ": not a Tessera report");
        expectError(cli({"summary", missing}), missing + ": no such file");
        expectError(cli({"export", missing, "--format", "csv", "-o", file("csv")}),
                    missing + ": no such file");
    }
};

QTEST_GUILESS_MAIN(CliArguments)
#include "tst_cli_arguments.moc"
