// Every damage class issue 19 found by stack (tests/reports/ReportDamage.h)
// opened in the main window: no crash, no hang (each pane becomes ready),
// the problem bar names the damaged table or column in one line, and the
// panes the damage does not touch still show their data. Then the same
// through `tessera R.tsr --pane NAME --screenshot` (one line on stderr,
// exit 2), and closing a window whose timeline is still being read.
#include "DamagedRendering.h"
#include "MainWindow.h"
#include "reports/ReportWriter.h"
#include "tests/reports/ReportDamage.h"
#include "tests/reports/SmallProgram.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include <filesystem>
#include <map>
#include <set>

using namespace tessera;
namespace fs = std::filesystem;

namespace {

// The panes that must still show data with each damage (the others may be
// empty, with the problem bar saying why).
const std::map<std::string, QStringList>& intactPanes() {
    static const std::map<std::string, QStringList> panes = {
        {"step-tiles-cut-to-3-bytes", {"memory", "program"}},
        {"step-tiles-as-text", {"memory", "program"}},
        {"step-tiles-grown-to-1-mib", {"memory", "program"}},
        {"step-tiles-int64-max", {"memory", "program"}},
        {"lod-blob-5-bytes", {"memory", "liveness", "program"}},
        {"lod-groups-1e9", {"memory", "liveness", "program"}},
        {"lod-bucket-steps-0", {"memory", "liveness", "program"}},
        {"lod-levels-null", {"memory", "liveness", "program"}},
        {"lod-levels-minus-1", {"memory", "liveness", "program"}},
        {"lod-buckets-text", {"memory", "liveness", "program"}},
        {"lod-buckets-minus-1", {"memory", "liveness", "program"}},
        {"program-node-own-parent", {"memory", "liveness", "execution"}},
        {"program-node-cycle", {"memory", "liveness", "execution"}},
        {"program-node-missing-parent", {"memory", "liveness", "execution"}},
        {"program-step-kind-unknown", {"memory"}},
        {"program-node-kind-unknown", {"memory", "liveness", "execution"}},
        {"runs-steps-1e15", {"memory", "liveness", "program"}},
        {"runs-steps-int64-max", {"memory", "liveness", "program"}},
        {"executed-step-names-missing-step", {"memory", "liveness", "program"}},
        {"dropped-memory-blocks", {"memory", "liveness", "program", "execution"}},
        {"dropped-lod-levels", {"memory", "liveness", "program"}},
        {"memory-block-address-null", {"memory", "liveness", "program", "execution"}},
        {"memory-block-address-minus-1", {"memory", "liveness", "program", "execution"}},
        {"memory-block-address-text", {"memory", "liveness", "program", "execution"}},
        {"memory-block-address-int64-max", {"memory", "liveness", "program", "execution"}},
        {"memory-block-address-2^32", {"memory", "liveness", "program", "execution"}},
        {"memory-block-ends-past-2^32", {"memory", "liveness", "program", "execution"}},
        {"memory-block-bytes-int64-max", {"memory", "liveness", "program", "execution"}},
        {"memory-block-stack-with-owner", {"memory", "liveness", "program", "execution"}},
        {"vertex-count-2^32", {"memory", "liveness", "program", "execution"}},
        {"vertex-state-bytes-2^32", {"memory", "liveness", "program", "execution"}},
        {"tile-memory-int64-max", {"liveness", "program", "execution"}},
        {"empty-memory-tables", {"liveness", "program", "execution"}},
        {"user-version-0", {}},
        {"user-version-minus-1", {}},
    };
    return panes;
}

} // namespace

class DamagedReportsGui : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    fs::path good_;

    QString damaged(const testing::Damage& d) const {
        const fs::path p = fs::path(dir_.path().toStdString()) / (std::string(d.name) + ".tsr");
        fs::copy_file(good_, p, fs::copy_options::overwrite_existing);
        const std::string error = testing::applyDamage(p, d);
        if (!error.empty()) {
            qFatal("cannot damage %s: %s", d.name, error.c_str());
        }
        return QString::fromStdString(p.string());
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        testing::installCrashHandler();
        good_ = fs::path(dir_.path().toStdString()) / "good.tsr";
        reports::ReportWriter writer(good_);
        testing::SmallProgram{}.run(writer);
        writer.finish();
        QCOMPARE(intactPanes().size(), testing::damageClasses().size());
    }

    // The sound report: no problem, every pane shows its data.
    void soundReportShowsEverything() {
        gui::MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openReportNow(QString::fromStdString(good_.string())));
        QCOMPARE(testing::renderPanes(window), QStringList());
        QVERIFY2(window.problems().isEmpty(), qPrintable(window.problems().join('|')));
        QVERIFY(!window.findChild<QToolBar*>("problemBar")->isVisible());
        for (const QString& name : QStringList{"memory", "liveness", "program", "execution"}) {
            QVERIFY2(testing::showsContent(window.pane(name)), qPrintable(name));
        }
    }

    void windowShowsTheDamage_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < testing::damageClasses().size(); ++i) {
            QTest::newRow(testing::damageClasses()[i].name) << static_cast<int>(i);
        }
    }

    void windowShowsTheDamage() {
        QFETCH(int, index);
        const testing::Damage& d = testing::damageClasses()[static_cast<std::size_t>(index)];
        const QString path = damaged(d);
        testing::nameCase(d.name);
        testing::Watchdog watchdog(std::chrono::seconds(60));
        watchdog.arm();
        gui::MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QString error;
        const bool opened = window.openReportNow(path, &error);
        const QString names = QString::fromLatin1(d.names);
        auto* bar = window.findChild<QToolBar*>("problemBar");
        auto* label = window.findChild<QLabel*>("problemLabel");
        QVERIFY(bar && label);
        // The bar's line is there to be read: shown, and as wide as the window allows.
        auto readable = [&] {
            QApplication::processEvents();
            return bar->isVisibleTo(&window) && label->isVisibleTo(&window) &&
                   label->width() > window.width() / 2;
        };
        if (!opened) {
            // Refused at open: the bar says why, in one line naming the file.
            QVERIFY2(!names.isEmpty() && error.contains(names), qPrintable(error));
            QVERIFY(readable());
            QCOMPARE(label->text(), error);
            QVERIFY(!error.contains('\n') && error.contains(path));
            return;
        }
        const QStringList notReady = testing::renderPanes(window);
        QVERIFY2(notReady.isEmpty(), qPrintable("not ready: " + notReady.join(", ")));
        const QStringList problems = window.problems();
        if (names.isEmpty()) {
            QVERIFY2(problems.isEmpty(), qPrintable(problems.join(" | ")));
        } else {
            bool named = false;
            for (const QString& p : problems) {
                QVERIFY2(!p.contains('\n') && p.contains(path), qPrintable(p));
                named = named || p.contains(names);
            }
            QVERIFY2(named, qPrintable(names + " not in: " + problems.join(" | ")));
            QVERIFY(readable());
            QVERIFY(label->text().startsWith(problems.front()));
        }
        for (const QString& pane : intactPanes().at(d.name)) {
            QVERIFY2(testing::showsContent(window.pane(pane)), qPrintable(pane + " is empty"));
        }
        watchdog.disarm();
        // For people: the window as it shows the damage, in two panes.
        for (const QString& pane : QStringList{"memory", "execution"}) {
            window.showPane(pane);
            QVERIFY(window.grab().save(QDir(TESSERA_TEST_OUTPUT_DIR)
                                           .filePath(QStringLiteral("damaged-%1-%2.png")
                                                         .arg(QString::fromLatin1(d.name), pane))));
        }
    }

    // With the problem bar shown, every pane still fits an 800 x 600 window:
    // the window's minimum size, pane by pane, is at most that.
    void problemBarFits800x600() {
        for (const auto& d : testing::damageClasses()) {
            if (std::string(d.name) != "dropped-memory-blocks") {
                continue;
            }
            gui::MainWindow window;
            window.setInteractive(false);
            window.resize(800, 600);
            window.show();
            QVERIFY(window.openReportNow(damaged(d)));
            QCOMPARE(testing::renderPanes(window), QStringList());
            QVERIFY(window.findChild<QToolBar*>("problemBar")->isVisible());
            QStringList tooBig;
            for (const QString& pane :
                 QStringList{"summary", "memory", "liveness", "program", "execution"}) {
                window.showPane(pane);
                QApplication::processEvents();
                const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
                if (minimum.width() > 800 || minimum.height() > 600) {
                    tooBig << QString("%1: %2 x %3")
                                  .arg(pane)
                                  .arg(minimum.width())
                                  .arg(minimum.height());
                }
            }
            QVERIFY2(tooBig.isEmpty(), qPrintable(tooBig.join(", ")));
            return;
        }
        QFAIL("no damage class dropped-memory-blocks");
    }

    void screenshotSaysOneLine_data() { windowShowsTheDamage_data(); }

    // `tessera R.tsr --pane NAME --screenshot o.png`: exit 2 and one line
    // naming the damage (the execution pane: the slowest to give up).
    void screenshotSaysOneLine() {
        QFETCH(int, index);
        const testing::Damage& d = testing::damageClasses()[static_cast<std::size_t>(index)];
        const QString path = damaged(d);
        const QString out = dir_.filePath(QStringLiteral("%1.png").arg(d.name));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_RUNTIME_DIR", dir_.path()); // else Qt warns before the window exists
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TESSERA_GUI_PATH),
                {path, "--pane", "execution", "--screenshot", out, "--size", "900x600"});
        QVERIFY2(p.waitForFinished(60000), "the screenshot hung");
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (QString(d.names).isEmpty()) {
            QVERIFY2(p.exitCode() == 0, qPrintable(err));
            QVERIFY(QFileInfo::exists(out));
            return;
        }
        QVERIFY2(p.exitCode() == 2, qPrintable(err));
        QVERIFY2(err.count('\n') == 1 && err.startsWith("tessera: error: " + path),
                 qPrintable(err));
        QVERIFY2(err.contains(QString::fromLatin1(d.names)), qPrintable(err));
        QVERIFY(!QFileInfo::exists(out));
    }

    // Closing the window while the timeline of a damaged report is being read
    // neither waits for the read to finish nor crashes.
    void closingDoesNotWait() {
        for (const char* name : {"lod-bucket-steps-0", "runs-steps-1e15", "lod-groups-1e9"}) {
            for (const auto& d : testing::damageClasses()) {
                if (std::string(d.name) != name) {
                    continue;
                }
                testing::nameCase(std::string("close: ") + name);
                testing::Watchdog watchdog(std::chrono::seconds(20));
                watchdog.arm();
                auto* window = new gui::MainWindow;
                window->setInteractive(false);
                window->show();
                QVERIFY(window->openReportNow(damaged(d)));
                window->showPane("execution");
                QElapsedTimer t;
                t.start();
                delete window;
                QVERIFY2(t.elapsed() < 5000, name);
                watchdog.disarm();
            }
        }
    }
};

QTEST_MAIN(DamagedReportsGui)
#include "tst_damaged_reports_gui.moc"
