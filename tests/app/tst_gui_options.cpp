// The `tessera` executable's own command line, run as a user does: a bad
// option value is one line "tessera: error: ..." and exit 2, quickly; a
// headless --screenshot leaves the user's settings (theme, Open Recent) as
// they were; reports at paths the OS accepts open (600 characters, a 255-byte
// name, bytes that are not UTF-8). Every run gets its own settings and home
// directories, so the real user's settings are never touched.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result {
    int exitCode = -1; // -2: killed after the time limit, -3: crashed
    QString out;
    QString err;
};

// Generous: a refusal takes well under a second; a 100000x100000 window took
// minutes and 7 GB before.
constexpr int kLimitMs = 60000;

} // namespace

class GuiOptions : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString report_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    QString settingsFile() const { return path("config/Tessera/Tessera.conf"); }

    QProcessEnvironment environment() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("XDG_CONFIG_HOME", path("config"));
        env.insert("HOME", path("home"));
        env.insert("XDG_RUNTIME_DIR", path("runtime"));
        return env;
    }

    Result run(const QString& program, const QStringList& args,
               const QProcessEnvironment& env = {}) const {
        QProcess p;
        p.setProcessEnvironment(env.isEmpty() ? environment() : env);
        p.start(program, args);
        if (!p.waitForFinished(kLimitMs)) {
            p.kill();
            p.waitForFinished();
            return {-2, {}, "timed out"};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    Result gui(const QStringList& args) const { return run(TESSERA_GUI_PATH, args); }
    Result cli(const QStringList& args) const { return run(TESSERA_CLI_PATH, args); }

    // Through a shell, for file names QString cannot carry.
    Result shell(const QString& script) const { return run("/bin/sh", {"-c", script}); }

    static void expectUsageError(const Result& r, const QString& needle) {
        QVERIFY2(r.exitCode == 2,
                 qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
        const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 1, qPrintable("stderr: " + r.err));
        QVERIFY2(lines[0].startsWith("tessera: error: "), qPrintable(lines[0]));
        QVERIFY2(lines[0].contains(needle), qPrintable(lines[0] + " / expected: " + needle));
    }

    static QByteArray readAll(const QString& file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        for (const char* sub : {"config/Tessera", "home", "runtime"}) {
            QVERIFY(QDir().mkpath(path(sub)));
        }
        QFile::setPermissions(path("runtime"), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                   QFileDevice::ExeOwner);
        report_ = path("small.tsr");
        const Result r = cli({"capture", "matmul", "--target", "tiles:4", "--set", "m=8", "--set",
                              "k=8", "--set", "n=8", "-q", "-o", report_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void badValuesAreOneLineAndExit2_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        const QString shot = path("never.png");
        const QStringList screenshot{"--pane", "summary", "--screenshot", shot};
        QTest::newRow("--theme purple") << QStringList{report_, "--theme", "purple"}
                                        << "--theme expects light, dark or system, not 'purple'";
        QTest::newRow("--theme purple, screenshot")
            << (QStringList{report_, "--theme", "purple"} + screenshot) << "not 'purple'";
        QTest::newRow("--compare \"\"")
            << QStringList{report_, "--compare", ""} << "--compare needs a file name";
        QTest::newRow("--screenshot \"\"")
            << QStringList{report_, "--pane", "summary", "--screenshot", ""}
            << "--screenshot needs a file name";
        QTest::newRow("--size 100000x100000")
            << (QStringList{report_, "--size", "100000x100000"} + screenshot)
            << "--size expects WxH of at most 7680x4320";
        for (const char* size : {"abc", "1400x", "x900", "1400x900x2", "-5x10", "1400 x900",
                                 "0x1400x900", "99999999999x1"}) {
            QTest::newRow(qPrintable(QString("--size ") + size))
                << (QStringList{report_, "--size", size} + screenshot)
                << QString("not '%1'").arg(size);
        }
        QTest::newRow("--size below the minimum")
            << (QStringList{report_, "--size", "50x40"} + screenshot)
            << "--size 50x40 is smaller than the window's minimum";
        QTest::newRow("--size without --screenshot")
            << QStringList{report_, "--size", "800x600"} << "--size goes with --screenshot";
        QTest::newRow("--pane unknown")
            << QStringList{report_, "--pane", "nosuch"} << "unknown pane 'nosuch'";
        QTest::newRow("--inspect without --workload")
            << QStringList{report_, "--inspect", "w1"} << "--inspect goes with --pane debug";
        QTest::newRow("--workload without --screenshot")
            << QStringList{"--pane", "debug", "--workload", "matmul"} << "--workload runs";
        const QStringList debug{"--pane",   "debug",   "--workload",   "matmul",
                                "--target", "tiles:4", "--screenshot", shot};
        QTest::newRow("--inspect nosuchtensor")
            << (debug + QStringList{"--inspect", "nosuchtensor"})
            << "--inspect 'nosuchtensor': workload matmul has no tensor of that name";
        QTest::newRow("--break nowhere")
            << (debug + QStringList{"--break", "nowhere"}) << "'nowhere' matches no step";
        QTest::newRow("--set out of range") << (debug + QStringList{"--set", "m=4294967297"})
                                            << "parameter 'm' must be an integer from 1 to";
        QTest::newRow("--set too large for the host")
            << QStringList{"--pane", "debug",       "--workload",   "elementwise",
                           "--set",  "n=200000000", "--screenshot", shot}
            << "more than the 1 GiB a workload may use";
        QTest::newRow("--target absurd")
            << (QStringList{"--pane", "debug", "--workload", "matmul", "--target",
                            "tiles:100000000", "--screenshot", shot})
            << "1 to 8192";
        const QStringList memoryShot{report_, "--pane", "memory", "--screenshot", shot};
        QTest::newRow("--select-tiles without --screenshot")
            << QStringList{report_, "--select-tiles", "0-3"}
            << "--select-tiles goes with --screenshot";
        QTest::newRow("--select-tiles on another pane")
            << (QStringList{"--select-tiles", "0"} + screenshot)
            << "not supported by Tessera: --select-tiles with --pane summary";
        QTest::newRow("--select-tiles with --compare")
            << (memoryShot + QStringList{"--select-tiles", "0", "--compare", report_})
            << "not supported by Tessera: --select-tiles with --compare";
        QTest::newRow("--select-tiles \"\"")
            << (memoryShot + QStringList{"--select-tiles", " "}) << "--select-tiles needs tiles";
        QTest::newRow("--select-tiles beyond the report")
            << (memoryShot + QStringList{"--select-tiles", "0-9"})
            << "--select-tiles '0-9': tile 9 is beyond the report's 4 tiles (0-3)";
        QTest::newRow("unknown option")
            << QStringList{report_, "--colour", "red"} << "Unknown option 'colour'";
    }

    void badValuesAreOneLineAndExit2() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        expectUsageError(gui(args), needle);
        QVERIFY(!QFile::exists(path("never.png")));
    }

    void screenshotsLeaveTheUsersSettingsAlone() {
        // The user's settings: the light theme and one recent file.
        const QByteArray before = "[General]\nrecentFiles=/somewhere/else.tsr\n\n[view]\ntheme=1\n";
        QFile settings(settingsFile());
        QVERIFY(settings.open(QIODevice::WriteOnly));
        settings.write(before);
        settings.close();
        for (const QStringList& extra :
             {QStringList{"--theme", "dark"}, QStringList{"--theme", "system"}, QStringList{}}) {
            const QString png = path("summary.png");
            const Result r =
                gui(QStringList{report_, "--pane", "summary", "--screenshot", png} + extra);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY(QFileInfo(png).size() > 0);
            QCOMPARE(readAll(settingsFile()), before);
        }
        // With no settings at all, a screenshot writes none.
        QVERIFY(QFile::remove(settingsFile()));
        const Result r = gui(
            {report_, "--pane", "memory", "--theme", "dark", "--screenshot", path("memory.png")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(!QFile::exists(settingsFile()));
    }

    // --select-tiles selects as the pane's tile field does: "1-2" and "2, 1"
    // draw the same picture, which differs from no selection and from "1".
    void selectTilesShowsASelection() {
        auto shot = [&](const QString& name, const QStringList& extra) {
            const QString png = path(name + ".png");
            const Result r = gui(QStringList{report_, "--pane", "memory", "--size", "1000x700",
                                             "--screenshot", png} +
                                 extra);
            return r.exitCode == 0 ? QImage(png) : QImage();
        };
        const QImage none = shot("tiles-none", {});
        const QImage range = shot("tiles-range", {"--select-tiles", "1-2"});
        const QImage list = shot("tiles-list", {"--select-tiles", "2, 1"});
        const QImage one = shot("tiles-one", {"--select-tiles", "1"});
        for (const QImage* image : {&none, &range, &list, &one}) {
            QVERIFY(!image->isNull());
        }
        QCOMPARE(range, list);
        QVERIFY(range != none);
        QVERIFY(range != one);
        QVERIFY(one != none);
    }

    // Issue 15, defect 3: a --size below the window's usual minimum width
    // (about 1190 px) is honoured: the panes shrink to it, on every pane.
    void smallSizesShrinkThePanes() {
        for (const char* pane :
             {"summary", "memory", "liveness", "program", "execution", "debug"}) {
            const QString png = path(QString("small-%1.png").arg(pane));
            const Result r =
                gui({report_, "--pane", pane, "--size", "760x640", "--screenshot", png});
            QVERIFY2(r.exitCode == 0, qPrintable(QString(pane) + ": " + r.err));
            const QImage image(png);
            QVERIFY2(!image.isNull() && image.width() <= 760 && image.width() > 600,
                     qPrintable(QString("%1: %2 px wide").arg(pane).arg(image.width())));
        }
    }

    // Issue 15, defect 11: with every Qt message shown, compare and debug
    // screenshots print no QPainter complaint (a hidden pane painted on a
    // null image).
    void screenshotsPaintNothingOnNullDevices() {
        QProcessEnvironment env = environment();
        env.insert("TESSERA_QT_MESSAGES", "1");
        const Result debug =
            run(TESSERA_GUI_PATH,
                {"--pane", "debug", "--workload", "matmul", "--target", "tiles:4", "--set", "m=8",
                 "--set", "k=8", "--set", "n=8", "--break", "matmul/products", "--inspect",
                 "matmul/aBlocks", "--screenshot", path("debug.png")},
                env);
        QVERIFY2(debug.exitCode == 0, qPrintable(debug.err));
        QVERIFY2(!debug.err.contains("QPainter"), qPrintable(debug.err));
        for (const char* pane : {"summary", "memory", "execution", "liveness", "program"}) {
            const Result r = run(TESSERA_GUI_PATH,
                                 {report_, "--compare", report_, "--pane", pane, "--screenshot",
                                  path(QString("compare-%1.png").arg(pane))},
                                 env);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(!r.err.contains("QPainter"), qPrintable(pane + (": " + r.err)));
        }
    }

    void reportsAtLongPathsOpen() {
        // 600 characters of path: SQLite alone stops at 512.
        QString deep = dir_.path() + "/";
        while (deep.size() < 560) {
            deep += QString(50, QLatin1Char('d')) + QLatin1Char('/');
        }
        QVERIFY(QDir().mkpath(deep));
        const QString name = QString(255 - 4, QLatin1Char('r')) + QStringLiteral(".tsr");
        for (const QString& file : {deep + "long.tsr", path(name), deep + name}) {
            const Result captured = cli({"capture", "matmul", "--target", "tiles:4", "--set", "m=8",
                                         "--set", "k=8", "--set", "n=8", "-q", "-o", file});
            QVERIFY2(captured.exitCode == 0,
                     qPrintable(QString("%1 characters: %2").arg(file.size()).arg(captured.err)));
            QCOMPARE(cli({"summary", file}).exitCode, 0);
            const Result diff = cli({"diff", report_, file});
            QVERIFY2(diff.exitCode == 0, qPrintable(diff.err));
            const Result shot = gui({file, "--pane", "summary", "--screenshot", path("long.png")});
            QVERIFY2(shot.exitCode == 0,
                     qPrintable(QString("%1 characters: %2").arg(file.size()).arg(shot.err)));
        }
    }

    void fileNamesThatAreNotUtf8() {
        // "bad\377\376.tsr": bytes no QString holds. The CLI writes and reads
        // it; the GUI opens it (through a link with the readable name).
        const QString quoted = "\"" + dir_.path() + "/bad$(printf '\\377\\376').tsr\"";
        const Result captured =
            shell(QString("exec '%1' capture matmul --target tiles:4 --set m=8 --set k=8 "
                          "--set n=8 -q -o %2")
                      .arg(TESSERA_CLI_PATH, quoted));
        QVERIFY2(captured.exitCode == 0, qPrintable(captured.err));
        const Result summary =
            shell(QString("exec '%1' summary %2 > /dev/null").arg(TESSERA_CLI_PATH, quoted));
        QVERIFY2(summary.exitCode == 0, qPrintable(summary.err));
        const QString png = path("bad-name.png");
        for (const QString& compare : {QString(), QString("--compare ") + quoted}) {
            const Result shot = shell(QString("exec '%1' %2 %3 --pane summary --screenshot '%4'")
                                          .arg(TESSERA_GUI_PATH, quoted, compare, png));
            QVERIFY2(shot.exitCode == 0, qPrintable(shot.err));
            QVERIFY(QFileInfo(png).size() > 0);
        }
        // A missing file of such a name is still "no such file", in one line.
        const Result missing = shell(QString("exec '%1' \"%2/gone$(printf '\\377').tsr\" --pane "
                                             "summary --screenshot '%3'")
                                         .arg(TESSERA_GUI_PATH, dir_.path(), png));
        QCOMPARE(missing.exitCode, 2);
        QCOMPARE(missing.err.split('\n', Qt::SkipEmptyParts).size(), 1);
        // QTemporaryDir cannot remove what QString cannot name.
        QCOMPARE(shell(QString("rm -f %1").arg(quoted)).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(GuiOptions)
#include "tst_gui_options.moc"
