// tessera-cli as a user and a CI job see it: exit codes, one-line errors,
// help on every command, capture + summary --json, a killed capture.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace {

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
};

Result cli(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(QStringLiteral(TESSERA_CLI_PATH), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-2, {}, "timed out"};
    }
    Result r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// A failure: exit 2 (or `code`) and exactly one stderr line naming the problem.
void expectError(const Result& r, const QString& needle, int code = 2) {
    QVERIFY2(r.exitCode == code,
             qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 1, qPrintable("stderr: " + r.err));
    QVERIFY2(lines[0].startsWith("tessera-cli: error: "), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(needle), qPrintable(lines[0] + " / expected: " + needle));
}

} // namespace

class Cli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString file(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void toolHelp() {
        for (const QString flag : {"--help", "-h", "help"}) {
            const Result r = cli({flag});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains("Usage: tessera-cli <command>"));
            for (const char* command : {"workloads", "capture", "summary"}) {
                QVERIFY2(r.out.contains(command), command);
            }
            QVERIFY(r.err.isEmpty());
        }
        const Result version = cli({"--version"});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("tessera-cli "));
    }

    void commandHelp() {
        for (const QString command : {"workloads", "capture", "summary"}) {
            for (const QStringList& args :
                 {QStringList{command, "--help"}, QStringList{"help", command}}) {
                const Result r = cli(args);
                QCOMPARE(r.exitCode, 0);
                QVERIFY2(r.out.startsWith("Usage: tessera-cli " + command), qPrintable(r.out));
                QVERIFY(r.out.contains("Exit status"));
            }
        }
        // --help wins over missing arguments.
        QCOMPARE(cli({"capture", "--help"}).exitCode, 0);
    }

    void usageErrors() {
        const Result none = cli({});
        QCOMPARE(none.exitCode, 2);
        expectError(cli({"frobnicate"}), "unknown command 'frobnicate'");
        expectError(cli({"summary"}), "needs a report file");
        expectError(cli({"summary", "a.tsr", "b.tsr"}), "unexpected argument 'b.tsr'");
        expectError(cli({"summary", "a.tsr", "--bogus"}), "unknown option '--bogus'");
        expectError(cli({"capture", "matmul"}), "needs -o FILE.tsr");
        expectError(cli({"capture", "matmul", "-o"}), "needs a value");
        expectError(cli({"capture", "matmul", "--set", "novalue", "-o", file("x.tsr")}),
                    "NAME=VALUE");
    }

    void inputErrors() {
        expectError(cli({"summary", file("missing.tsr")}), "no such file");
        QFile text(file("notes.tsr"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write(QByteArray(300, 'x'));
        text.close();
        expectError(cli({"summary", text.fileName()}), "file is not a database");
        expectError(cli({"capture", "no-such-workload", "-o", file("x.tsr")}),
                    "unknown workload 'no-such-workload'");
        expectError(cli({"capture", "elementwise", "--set", "bogus=1", "-o", file("x.tsr")}),
                    "unknown parameter 'bogus'");
        expectError(cli({"capture", "elementwise", "--target", "mk9", "-o", file("x.tsr")}), "mk9");
        QVERIFY(!QFile::exists(file("x.tsr")));
        QVERIFY(!QFile::exists(file("x.tsr.partial")));
    }

    void workloads() {
        const Result r = cli({"workloads"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("matmul"));
        QVERIFY(r.out.contains("--set "));
        const Result j = cli({"workloads", "--json"});
        QCOMPARE(j.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(j.out.toUtf8()).array();
        QVERIFY(list.size() >= 8);
        QVERIFY(list[0].toObject().contains("parameters"));
    }

    void captureAndSummaryJson() {
        const QString out = file("elementwise.tsr");
        const Result c =
            cli({"capture", "elementwise", "--target", "tiles:4", "--set", "n=4096", "-o", out});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        QVERIFY(c.out.contains("verification: passed"));
        QVERIFY(QFile::exists(out));
        QVERIFY(!QFile::exists(out + ".partial"));

        const Result s = cli({"summary", out, "--json"});
        QVERIFY2(s.exitCode == 0, qPrintable(s.err));
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(s.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QMap<QString, QStringList> keys = {
            {"target", {"name", "tiles", "bytes_per_tile", "clock_hz"}},
            {"cycles", {"total", "compute", "exchange", "sync"}},
            {"memory", {"total_bytes", "peak_tile_bytes", "peak_tile", "out_of_memory"}},
            {"program", {"steps", "compute_sets", "vertices", "variables"}},
            {"verification", {"passed", "max_abs_error"}},
        };
        for (auto it = keys.begin(); it != keys.end(); ++it) {
            QVERIFY2(o.value(it.key()).isObject(), qPrintable(it.key()));
            for (const QString& k : it.value()) {
                QVERIFY2(o.value(it.key()).toObject().contains(k), qPrintable(it.key() + "." + k));
            }
        }
        QCOMPARE(o["target"]["tiles"].toInt(), 4);
        QVERIFY(o["target"]["clock_hz"].toDouble() > 1e8);
        const double total = o["cycles"]["total"].toDouble();
        QVERIFY(total > 0);
        QCOMPARE(total, o["cycles"]["compute"].toDouble() + o["cycles"]["exchange"].toDouble() +
                            o["cycles"]["sync"].toDouble());
        QVERIFY(o["memory"]["total_bytes"].toDouble() > 0);
        QVERIFY(o["memory"]["out_of_memory"].isBool());
        QVERIFY(o["program"]["steps"].toInt() > 0);
        QCOMPARE(o["verification"]["passed"].toBool(), true);

        const Result text = cli({"summary", out});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Cycles"));
        QVERIFY(text.out.contains("passed"));
    }

    // A capture killed midway leaves no file at the output path (only the
    // partial file), and the next capture to the same path succeeds.
    void killedCaptureLeavesNoReport() {
        const QString out = file("killed.tsr");
        QProcess p;
        p.start(QStringLiteral(TESSERA_CLI_PATH),
                {"capture", "stress", "--target", "tiles:4", "--set", "steps=50000000", "-o", out});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out + ".partial"), 30000);
        QThread::msleep(300); // well into the run
        p.kill();
        QVERIFY(p.waitForFinished());
        QVERIFY(!QFile::exists(out));
        const Result again =
            cli({"capture", "stress", "--target", "tiles:4", "--set", "steps=100", "-o", out});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY(!QFile::exists(out + ".partial"));
        QCOMPARE(cli({"summary", out}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(Cli)
#include "tst_cli.moc"
