// The File menu at PopVision parity (issue 15): Reload Report, Close Report,
// the list of loaded files, the watch on the open report's file with its
// reload bar, and `--pane program/dataflow`.
#include "../views/ReportFixtures.h"
#include "CompareMode.h"
#include "MainWindow.h"
#include "ReportWatcher.h"
#include "Screenshot.h"
#include "views/common/Pane.h"
#include "views/common/Selection.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/ProgramPane.h"
#include "views/panes/program/DataflowView.h"

#include <sqlite3.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include <filesystem>

using tessera::gui::MainWindow;

class TestFileMenu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void reloadAndCloseHaveFreeShortcuts();
    void reloadPicksUpAChangedFile();
    void reloadKeepsTheComparison();
    void closeLeavesAnEmptyWindow();
    void loadedFilesListReportAndComparison();
    void watcherOffersToReloadAReplacedFile();
    void headlessWindowsDoNotWatch();
    void dataflowViewIsReachableAndRenders();

private:
    QString copyTo(const QString& source, const QString& name);
    static bool replaceByRename(const QString& source, const QString& target);
    static bool waitOpened(MainWindow& window, const QString& path);

    QTemporaryDir settingsDir_;
    QTemporaryDir files_;
};

namespace {

// The report's variable count, straight from the file (not through Tessera's reader).
int variablesInFile(const QString& path) {
    sqlite3* db = nullptr;
    int count = -1;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM variables", -1, &stmt, nullptr) ==
                SQLITE_OK &&
            sqlite3_step(stmt) == SQLITE_ROW) {
            count = sqlite3_column_int(stmt, 0);
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return count;
}

int variablesShown(MainWindow& window) {
    auto* memory = qobject_cast<tessera::views::MemoryPane*>(window.pane("memory"));
    return memory ? qobject_cast<QSortFilterProxyModel*>(memory->variablesView()->model())
                        ->sourceModel()
                        ->rowCount()
                  : -1;
}

} // namespace

void TestFileMenu::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(settingsDir_.isValid());
    QVERIFY(files_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    QCoreApplication::setOrganizationName(QStringLiteral("TesseraTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_app_file_menu"));
}

QString TestFileMenu::copyTo(const QString& source, const QString& name) {
    const QString path = QDir(files_.path()).filePath(name);
    QFile::remove(path);
    return QFile::copy(source, path) ? path : QString();
}

// As autoReport does: write a new file beside the target, rename it over.
bool TestFileMenu::replaceByRename(const QString& source, const QString& target) {
    const QString temporary = target + QStringLiteral(".partial");
    QFile::remove(temporary);
    if (!QFile::copy(source, temporary)) {
        return false;
    }
    std::error_code error;
    std::filesystem::rename(QFile::encodeName(temporary).toStdString(),
                            QFile::encodeName(target).toStdString(), error);
    return !error;
}

bool TestFileMenu::waitOpened(MainWindow& window, const QString& path) {
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    return opened.wait(30000) && window.currentReport() == QFileInfo(path).absoluteFilePath();
}

// Ctrl+R (F5 is the Debugger's Continue) and Ctrl+W, each used by no other action.
void TestFileMenu::reloadAndCloseHaveFreeShortcuts() {
    MainWindow window;
    auto* reload = window.findChild<QAction*>(QStringLiteral("actionReload"));
    auto* close = window.findChild<QAction*>(QStringLiteral("actionCloseReport"));
    QVERIFY(reload && close);
    QCOMPARE(reload->shortcut(), QKeySequence(QStringLiteral("Ctrl+R")));
    QCOMPARE(close->shortcut(), QKeySequence(QStringLiteral("Ctrl+W")));
    QVERIFY(!reload->isEnabled()); // nothing open
    QVERIFY(!close->isEnabled());
    auto* file = window.findChild<QMenu*>(QStringLiteral("menuFile"));
    QVERIFY(file->actions().contains(reload));
    QVERIFY(file->actions().contains(close));
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a == reload || a == close) {
            continue;
        }
        for (const QKeySequence& key : a->shortcuts()) {
            QVERIFY2(key != reload->shortcut() && key != close->shortcut(),
                     qPrintable(a->objectName() + " also uses " + key.toString()));
        }
    }
}

void TestFileMenu::reloadPicksUpAChangedFile() {
    const QString matmul = tessera::testing::capturedReport("matmul");
    const QString mlp = tessera::testing::capturedReport("mlp-train");
    const int before = variablesInFile(matmul);
    const int after = variablesInFile(mlp);
    QVERIFY(before > 0 && after > 0);
    QVERIFY(before != after); // else the test could not see the reload
    const QString path = copyTo(matmul, QStringLiteral("reloaded.tsr"));
    QVERIFY(!path.isEmpty());

    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    window.setWatchesFiles(false); // this test reloads by hand
    QVERIFY(window.openReport(path));
    QVERIFY(waitOpened(window, path));
    QCOMPARE(variablesShown(window), before);
    QVERIFY(window.showPane(QStringLiteral("memory")));
    window.selection()->setTile(tessera::record::TileId{3u});

    QVERIFY(replaceByRename(mlp, path));
    auto* reload = window.findChild<QAction*>(QStringLiteral("actionReload"));
    QVERIFY(reload->isEnabled());
    reload->trigger();
    QVERIFY(waitOpened(window, path));
    QCOMPARE(variablesShown(window), after);
    // Where the user was: the same pane, the same tile.
    QCOMPARE(window.currentPane()->paneName(), QStringLiteral("memory"));
    QCOMPARE(window.selection()->tile(), tessera::record::TileId{3u});
}

// Reloading the baseline compares again with the same comparison, in the same pane.
void TestFileMenu::reloadKeepsTheComparison() {
    const QString base = copyTo(tessera::testing::capturedReport("matmul"), "rbase.tsr");
    const QString other = copyTo(tessera::testing::capturedReport("elementwise"), "rother.tsr");
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    window.setWatchesFiles(false);
    QVERIFY(window.openReportNow(base));
    QVERIFY(window.compareMode()->compareNow(other));
    QVERIFY(window.showPane(QStringLiteral("liveness")));
    const auto before = window.compareMode()->data(); // kept alive: a new one differs

    QSignalSpy compared(window.compareMode(), &tessera::gui::CompareMode::comparisonOpened);
    QVERIFY(window.reloadReport());
    QVERIFY(waitOpened(window, base));
    QVERIFY(compared.wait(30000));
    QVERIFY(window.compareMode()->isActive());
    QVERIFY(window.compareMode()->data() != before); // compared again
    QCOMPARE(window.loadedFiles(), (QStringList{base, other}));
    QCOMPARE(window.currentPane()->paneName(), QStringLiteral("liveness"));
    QCOMPARE(window.currentPane(), window.compareMode()->pane(QStringLiteral("liveness")));
}

void TestFileMenu::closeLeavesAnEmptyWindow() {
    const QString path = copyTo(tessera::testing::capturedReport("matmul"), "closed.tsr");
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    QVERIFY(window.openReportNow(path));
    QVERIFY(variablesShown(window) > 0);
    auto* memory = window.pane(QStringLiteral("memory"));
    QVERIFY(window.paneTabs()->indexOf(memory) >= 0);

    QSignalSpy closed(&window, &MainWindow::reportClosed);
    window.findChild<QAction*>(QStringLiteral("actionCloseReport"))->trigger();
    QCOMPARE(closed.count(), 1);
    QVERIFY(window.currentReport().isEmpty());
    QVERIFY(window.loadedFiles().isEmpty());
    QCOMPARE(variablesShown(window), 0); // the panes let the report go
    QCOMPARE(window.paneTabs()->indexOf(memory), -1);
    auto* hint = window.findChild<QLabel*>(QStringLiteral("openReportHint"));
    QCOMPARE(window.paneTabs()->currentWidget(), hint);
    QCOMPARE(window.windowTitle(), QStringLiteral("Tessera"));
    QVERIFY(!window.findChild<QAction*>(QStringLiteral("actionReload"))->isEnabled());
    QVERIFY(!window.watcher()->isWatching());
    // The window still works: opening again brings the panes back.
    QVERIFY(window.openReportNow(path));
    QVERIFY(window.paneTabs()->indexOf(memory) >= 0);
}

void TestFileMenu::loadedFilesListReportAndComparison() {
    const QString base = copyTo(tessera::testing::capturedReport("matmul"), "base.tsr");
    const QString other = copyTo(tessera::testing::capturedReport("elementwise"), "other.tsr");
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    auto* menu = window.findChild<QMenu*>(QStringLiteral("menuLoadedFiles"));
    auto* label = window.findChild<QLabel*>(QStringLiteral("loadedFilesLabel"));
    QVERIFY(menu && label);
    QVERIFY(!menu->actions().isEmpty() && !menu->actions().front()->isEnabled());

    QVERIFY(window.openReportNow(base));
    QVERIFY(window.compareMode()->compareNow(other));
    QCOMPARE(window.loadedFiles(), (QStringList{base, other}));
    QCOMPARE(menu->actions().size(), 2);
    QCOMPARE(menu->actions()[0]->text(), QStringLiteral("Report: base.tsr"));
    QCOMPARE(menu->actions()[0]->toolTip(), base);
    QCOMPARE(menu->actions()[1]->text(), QStringLiteral("Comparison: other.tsr"));
    QCOMPARE(menu->actions()[1]->toolTip(), other);
    QCOMPARE(label->text(), QStringLiteral("base.tsr vs other.tsr"));
    QVERIFY(label->toolTip().contains(base) && label->toolTip().contains(other));

    window.compareMode()->close();
    QCOMPARE(window.loadedFiles(), QStringList{base});
    QCOMPARE(label->text(), QStringLiteral("base.tsr"));
}

void TestFileMenu::watcherOffersToReloadAReplacedFile() {
    const QString matmul = tessera::testing::capturedReport("matmul");
    const QString mlp = tessera::testing::capturedReport("mlp-train");
    const QString path = copyTo(matmul, QStringLiteral("watched.tsr"));
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    window.show();
    QVERIFY(window.openReportNow(path));
    QVERIFY(window.watcher()->isWatching());
    QToolBar* bar = window.reloadBar();
    QVERIFY(bar->isHidden());

    QSignalSpy changed(&window, &MainWindow::reportChangedOnDisk);
    QVERIFY(replaceByRename(mlp, path));
    QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 10000);
    QTest::qWait(1000); // the burst (copy, rename) is announced once
    // For people to look at: the bar above the panes, the file in the status bar.
    window.grab().save(QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("reload-bar.png"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.front().front().toString(), path);

    auto* reload = bar->findChild<QAction*>(QStringLiteral("reloadBarReload"));
    QVERIFY(reload != nullptr);
    QVERIFY(reload->isEnabled());
    reload->trigger();
    QVERIFY(waitOpened(window, path));
    QVERIFY(bar->isHidden());
    QCOMPARE(variablesShown(window), variablesInFile(mlp));

    // The renamed-over file is watched again: a second rewrite is seen too.
    QVERIFY(replaceByRename(matmul, path));
    QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 10000);
    QCOMPARE(changed.count(), 2);
}

// Screenshots (and anything else that asks) never watch: no bar, no signal.
void TestFileMenu::headlessWindowsDoNotWatch() {
    const QString path = copyTo(tessera::testing::capturedReport("matmul"), "unwatched.tsr");
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    window.setWatchesFiles(false);
    window.show();
    QVERIFY(window.openReportNow(path));
    QVERIFY(!window.watcher()->isWatching());
    QSignalSpy changed(&window, &MainWindow::reportChangedOnDisk);
    QVERIFY(replaceByRename(tessera::testing::capturedReport("mlp-train"), path));
    QTest::qWait(1500);
    QCOMPARE(changed.count(), 0);
    QVERIFY(window.reloadBar()->isHidden());
}

void TestFileMenu::dataflowViewIsReachableAndRenders() {
    const QString path = copyTo(tessera::testing::capturedReport("matmul"), "dataflow.tsr");
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openReportNow(path));
    QVERIFY(window.showPane(QStringLiteral("program/dataflow")));
    auto* program = qobject_cast<tessera::views::ProgramPane*>(window.currentPane());
    QVERIFY(program != nullptr);
    QCOMPARE(program->tabs()->currentIndex(), int(tessera::views::ProgramPane::GraphTab));
    QVERIFY(!window.showPane(QStringLiteral("program/nonsense")));
    QVERIFY(!window.showPane(QStringLiteral("memory/dataflow")));

    // Headless, as `tessera R --pane program/dataflow --screenshot OUT`.
    tessera::gui::ScreenshotRequest request;
    request.report = path;
    request.pane = QStringLiteral("program/dataflow");
    request.size = QSize(1400, 900);
    request.output = QDir(files_.path()).filePath("dataflow.png");
    QCOMPARE(tessera::gui::takeScreenshot(request), 0);
    const QImage image = QImage(request.output).convertToFormat(QImage::Format_RGB32);
    QVERIFY(!image.isNull());
    // The graph's area (below the tab bar, above the details strip): the
    // most common colour is its background; nodes and edges are the rest.
    const QRect graph(image.width() / 8, image.height() / 6, image.width() * 3 / 4,
                      image.height() / 2);
    QHash<QRgb, int> counts;
    for (int y = graph.top(); y <= graph.bottom(); ++y) {
        for (int x = graph.left(); x <= graph.right(); ++x) {
            ++counts[image.pixel(x, y)];
        }
    }
    int background = 0;
    for (const int n : counts) {
        background = std::max(background, n);
    }
    const int total = graph.width() * graph.height();
    const int drawn = total - background;
    QVERIFY2(drawn > total / 100,
             qPrintable(QStringLiteral("%1 of %2 pixels drawn").arg(drawn).arg(total)));
    QVERIFY2(counts.size() > 20, "nodes, labels and edges in several colours");

    // Compare panes have no views inside: refused by name, nothing written.
    request.compare = copyTo(tessera::testing::capturedReport("elementwise"), "df-other.tsr");
    request.output = QDir(files_.path()).filePath("compare-dataflow.png");
    QCOMPARE(tessera::gui::takeScreenshot(request), 2);
    QVERIFY(!QFile::exists(request.output));
    request.compare.clear();

    request.pane = QStringLiteral("program/nonsense");
    request.output = QDir(files_.path()).filePath("nonsense.png");
    QCOMPARE(tessera::gui::takeScreenshot(request), 2);
    QVERIFY(!QFile::exists(request.output));
}

QTEST_MAIN(TestFileMenu)
#include "tst_file_menu.moc"
