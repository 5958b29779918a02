// `tessera-cli debug`: stops at a breakpoint and prints tensor values that
// match a host computation of the program up to that point.
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>

namespace {

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TESSERA_CLI_PATH), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// The numbers of the "'name': [ ... ]" line of a printed tensor.
QVector<double> printed(const QString& out, const QString& name) {
    const QRegularExpression re("'" + QRegularExpression::escape(name) + "': \\[([^\\]]*)\\]");
    const auto m = re.match(out);
    QVector<double> values;
    for (const QString& v : m.captured(1).split(' ', Qt::SkipEmptyParts)) {
        values << v.toDouble();
    }
    return values;
}

} // namespace

class TestCliDebug : public QObject {
    Q_OBJECT

private slots:
    void stopsAndPrintsValuesSoFar() {
        const Result r = cli({"debug", "elementwise", "--target", "tiles:4", "--set", "n=16", "--break", "add",
                              "--print", "a", "--print", "b", "--print", "mul/out"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("stopped before step 1 'add'"), qPrintable(r.out));
        const auto a = printed(r.out, "a"), b = printed(r.out, "b"), mul = printed(r.out, "mul/out");
        QCOMPARE(a.size(), 16);
        QCOMPARE(mul.size(), 16);
        for (int i = 0; i < 16; ++i) {
            QVERIFY(std::fabs(mul[i] - a[i] * b[i]) < 2e-7); // printed with 7 decimals
        }
        QVERIFY(r.out.contains("lives on tile 0: [0,8), tile 1: [8,16)"));
    }

    void hitCountsIterations() {
        const Result first = cli({"debug", "mlp-train", "--target", "tiles:16", "--break", "sgd/b2", "--print", "b2"});
        const Result third = cli({"debug", "mlp-train", "--target", "tiles:16", "--break", "sgd/b2", "--hit", "3",
                                  "--print", "b2"});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(third.exitCode, 0);
        QVERIFY(first.out.contains("after 30 steps"));
        QVERIFY(third.out.contains("after 96 steps")); // 33 steps an iteration, stopping 3 before its end
        QVERIFY(printed(first.out, "b2") != printed(third.out, "b2")); // two SGD updates in between
        const Result never = cli({"debug", "mlp-train", "--target", "tiles:16", "--break", "sgd/b2", "--hit", "4"});
        QCOMPARE(never.exitCode, 1);
        QVERIFY(never.err.contains("without reaching the breakpoint 4 times"));
    }

    void listAndBadInput() {
        const Result list = cli({"debug", "matmul", "--target", "tiles:4", "--list"});
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.contains("matmul/products"));
        QVERIFY(list.out.contains("matmul/out"));
        for (const QStringList& args :
             {QStringList{"debug", "matmul", "--break", "nope"}, QStringList{"debug", "matmul", "--break", "1", "--print", "nope"},
              QStringList{"debug", "matmul"}, QStringList{"debug", "nothing", "--break", "1"}}) {
            const Result r = cli(args);
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY(r.err.startsWith("tessera-cli: error:"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliDebug)
#include "tst_cli_debug.moc"
