#pragma once
// Running tessera-cli as a user does, for the CLI suites: its exit code and
// output, a time limit that turns a hang into a failure, and the one-line
// error every failure must be.
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace tessera::test {

struct Result {
    int exitCode = -1; // -2: did not finish in time (killed), -3: crashed
    QString out;
    QString err;
};

inline Result cli(const QStringList& args, int timeoutMs = 120000) {
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
inline void expectError(const Result& r, const QString& needle, int code = 2) {
    QVERIFY2(r.exitCode == code,
             qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 1, qPrintable("stderr: " + r.err));
    QVERIFY2(lines[0].startsWith("tessera-cli: error: "), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(needle), qPrintable(lines[0] + " / expected: " + needle));
}

} // namespace tessera::test
