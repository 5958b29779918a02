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
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3,
            QString::fromUtf8(p.readAllStandardOutput()),
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

// All numbers of a printed tensor of any rank: "'name': [ [..] [..] ]".
QVector<double> printedAll(const QString& out, const QString& name) {
    const QString head = "'" + name + "': [";
    const int start = out.indexOf(head);
    QVector<double> values;
    if (start < 0) {
        return values;
    }
    int depth = 0;
    QString numbers;
    for (int i = start + head.size() - 1; i < out.size(); ++i) {
        const QChar c = out[i];
        depth += c == '[' ? 1 : c == ']' ? -1 : 0;
        if (depth == 0) {
            break;
        }
        numbers += (c == '[' || c == ']') ? QChar(' ') : c;
    }
    for (const QString& v : numbers.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts)) {
        values << v.toDouble();
    }
    return values;
}

} // namespace

class TestCliDebug : public QObject {
    Q_OBJECT

private slots:
    // The example plugin from the CLI: listed, captured (its deliberate bug
    // fails verification), and debugged: stopped before "scale", square/out
    // and shift/out are printed; shift/out = x*x - bias (the bug), not +.
    void pluginWorkloads() {
        const QString plugin = QStringLiteral(EXAMPLE_PLUGIN);
        const Result list = cli({"workloads", "--plugin", plugin});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains("scaled-tanh  (plugin " + plugin + ")"), qPrintable(list.out));
        const QString report =
            QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("scaled-tanh.tsr");
        const Result capture = cli(
            {"capture", "scaled-tanh", "--plugin", plugin, "--target", "tiles:4", "-o", report});
        QCOMPARE(capture.exitCode, 1);
        QVERIFY2(capture.err.contains("verification failed for scaled-tanh"),
                 qPrintable(capture.err));
        QVERIFY(QFileInfo::exists(report));
        auto stopAt = [&](const QString& step, const QString& result) {
            return cli({"debug", "scaled-tanh", "--plugin", plugin, "--target", "tiles:4", "--set",
                        "rows=2", "--set", "cols=4", "--break", step, "--print", "x", "--print",
                        "bias", "--print", result});
        };
        const Result atShift = stopAt("shift", "square/out");
        const Result atScale = stopAt("scale", "shift/out");
        QCOMPARE(atShift.exitCode, 0);
        QCOMPARE(atScale.exitCode, 0);
        const auto x = printedAll(atShift.out, "x"), bias = printedAll(atShift.out, "bias");
        const auto square = printedAll(atShift.out, "square/out"),
                   shift = printedAll(atScale.out, "shift/out");
        QCOMPARE(x.size(), 8);
        QCOMPARE(bias.size(), 8);
        QCOMPARE(square.size(), 8);
        QCOMPARE(shift.size(), 8);
        QCOMPARE(printedAll(atScale.out, "x"), x);
        for (int i = 0; i < 8; ++i) {
            QVERIFY(std::fabs(square[i] - x[i] * x[i]) < 1e-6);
            QVERIFY(std::fabs(shift[i] - (x[i] * x[i] - bias[i])) < 1e-6); // the bug
        }
        // Dead by "scale": said so rather than printed.
        QVERIFY(stopAt("scale", "square/out").out.contains("'square/out': not live at this step"));
        // Without --plugin the workload is unknown; a bad plugin is one clear line.
        QCOMPARE(cli({"debug", "scaled-tanh", "--break", "scale"}).exitCode, 2);
        const Result bad = cli({"capture", "matmul", "--plugin", "/nonexistent.so", "-o", report});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err.trimmed(),
                 QStringLiteral("tessera-cli: error: plugin '/nonexistent.so': no such file"));
    }

    // A not-always-live tensor before its first write: not printed as values.
    void notLiveTensorsAreSaidSo() {
        const Result r = cli({"debug", "elementwise", "--target", "tiles:4", "--set", "n=16",
                              "--break", "mul", "--print", "mul/out"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("'mul/out': not live at this step"), qPrintable(r.out));
        QVERIFY(!r.out.contains("'mul/out': ["));
    }

    void stopsAndPrintsValuesSoFar() {
        const Result r =
            cli({"debug", "elementwise", "--target", "tiles:4", "--set", "n=16", "--break", "add",
                 "--print", "a", "--print", "b", "--print", "mul/out"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("stopped before step 1 'add'"), qPrintable(r.out));
        const auto a = printed(r.out, "a"), b = printed(r.out, "b"),
                   mul = printed(r.out, "mul/out");
        QCOMPARE(a.size(), 16);
        QCOMPARE(mul.size(), 16);
        for (int i = 0; i < 16; ++i) {
            QVERIFY(std::fabs(mul[i] - a[i] * b[i]) < 2e-7); // printed with 7 decimals
        }
        QVERIFY(r.out.contains("lives on tile 0: [0,8), tile 1: [8,16)"));
    }

    void hitCountsIterations() {
        const Result first = cli(
            {"debug", "mlp-train", "--target", "tiles:16", "--break", "sgd/b2", "--print", "b2"});
        const Result third = cli({"debug", "mlp-train", "--target", "tiles:16", "--break", "sgd/b2",
                                  "--hit", "3", "--print", "b2"});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(third.exitCode, 0);
        QVERIFY(first.out.contains("after 30 steps"));
        QVERIFY(third.out.contains(
            "after 96 steps")); // 33 steps an iteration, stopping 3 before its end
        QVERIFY(printed(first.out, "b2") != printed(third.out, "b2")); // two SGD updates in between
        const Result never =
            cli({"debug", "mlp-train", "--target", "tiles:16", "--break", "sgd/b2", "--hit", "4"});
        QCOMPARE(never.exitCode, 1);
        QVERIFY(never.err.contains("without reaching the breakpoint 4 times"));
    }

    void listAndBadInput() {
        const Result list = cli({"debug", "matmul", "--target", "tiles:4", "--list"});
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.contains("matmul/products"));
        QVERIFY(list.out.contains("matmul/out"));
        // Tensors with their shapes as the panes write them: m x k = 6 x 5.
        const Result sized = cli(
            {"debug", "matmul", "--target", "tiles:4", "--set", "m=6", "--set", "k=5", "--list"});
        QCOMPARE(sized.exitCode, 0);
        QVERIFY2(QRegularExpression(R"(\n  A +float +\[6, 5\]\n)").match(sized.out).hasMatch(),
                 qPrintable(sized.out));
        for (const QStringList& args :
             {QStringList{"debug", "matmul", "--break", "nope"},
              QStringList{"debug", "matmul", "--break", "1", "--print", "nope"},
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
