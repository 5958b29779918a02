// The GUI shell: menus and shortcuts, opening a report, Open Recent, drag and
// drop, saved geometry, and that the window really renders (offscreen).
#include "../views/ReportFixtures.h"
#include "MainWindow.h"
#include "RecentFiles.h"
#include "Screenshot.h"
#include "views/common/ContrastStyle.h"
#include "views/common/Pane.h"
#include "views/common/Selection.h"
#include "views/panes/DebugPane.h"
#include "views/panes/LivenessPane.h"
#include "views/panes/debug/DebugController.h"
#include "views/panes/debug/RunControls.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

namespace {

// How many different colours an image holds (capped: enough to tell a drawn
// pane from a blank one).
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height() && colours.size() < 256; y += 3) {
        for (int x = 0; x < image.width(); x += 3) {
            colours.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(colours.size());
}

} // namespace

using tessera::gui::MainWindow;
using tessera::gui::RecentFiles;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void hasMenusWithShortcuts();
    void hasIconAndPlaceholder();
    void openingAddsToRecentFiles();
    void recentFilesAreDeduplicatedAndCapped();
    void openingMissingFileFails();
    void droppingAFileOpensIt();
    void geometryIsSavedAndRestored();
    void grabRendersTheWindow();
    void badReportGivesOneClearError();
    void loadingShowsProgressAndCanBeCancelled();
    void darkThemeChangesThePalette();
    void viewMenuHasPaneAndZoomShortcuts();
    void screenshotRejectsBadInput();
    void screenshotOfEveryPane();
    void debuggerWithoutAReport();
    void screenshotOfAPausedDebugger();
    void freshSettingsOpenTheSummary();
    void debuggerShortcutsWorkWindowWide();
    void debugRunAsksBeforeReplacingTheReport();

private:
    QString makeReport(const QString& name);
    QString makeTextFile(const QString& name, int bytes);
    static bool waitOpened(MainWindow& window, const QString& path);

    QTemporaryDir settingsDir_;
    QTemporaryDir files_;
};

void TestMainWindow::initTestCase() {
    // Keep the user's settings out of it: test-mode standard paths, and every
    // QSettings file inside a temporary directory.
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(settingsDir_.isValid());
    QVERIFY(files_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    QCoreApplication::setOrganizationName(QStringLiteral("TesseraTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_app_mainwindow"));
    QVERIFY2(QSettings().fileName().startsWith(settingsDir_.path()),
             qPrintable(QSettings().fileName()));
}

void TestMainWindow::init() {
    QSettings().clear();
}

// A real report under a new name (copies of one captured report).
QString TestMainWindow::makeReport(const QString& name) {
    const QString path = QDir(files_.path()).filePath(name);
    QFile::remove(path);
    if (!QFile::copy(tessera::testing::capturedReport("matmul", "tiles:16"), path)) {
        return {};
    }
    return path;
}

QString TestMainWindow::makeTextFile(const QString& name, int bytes) {
    const QString path = QDir(files_.path()).filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write(QByteArray(bytes, 'x'));
    return path;
}

bool TestMainWindow::waitOpened(MainWindow& window, const QString& path) {
    if (window.currentReport() == QFileInfo(path).absoluteFilePath() && !window.isLoading()) {
        return true;
    }
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    return opened.wait(30000) && window.currentReport() == QFileInfo(path).absoluteFilePath();
}

void TestMainWindow::hasMenusWithShortcuts() {
    MainWindow window;
    auto* open = window.findChild<QAction*>(QStringLiteral("actionOpen"));
    auto* quit = window.findChild<QAction*>(QStringLiteral("actionQuit"));
    auto* about = window.findChild<QAction*>(QStringLiteral("actionAbout"));
    QVERIFY(open != nullptr);
    QVERIFY(quit != nullptr);
    QVERIFY(about != nullptr);
    QCOMPARE(open->shortcut(), QKeySequence(QKeySequence::Open));
    QCOMPARE(open->shortcut(), QKeySequence(QStringLiteral("Ctrl+O")));
    QCOMPARE(quit->shortcut(), QKeySequence(QStringLiteral("Ctrl+Q")));

    auto* file = window.findChild<QMenu*>(QStringLiteral("menuFile"));
    auto* recent = window.findChild<QMenu*>(QStringLiteral("menuRecent"));
    auto* help = window.findChild<QMenu*>(QStringLiteral("menuHelp"));
    QVERIFY(file != nullptr);
    QVERIFY(recent != nullptr);
    QVERIFY(help != nullptr);
    QVERIFY(file->actions().contains(open));
    QVERIFY(file->actions().contains(recent->menuAction()));
    QVERIFY(file->actions().contains(quit));
    QVERIFY(help->actions().contains(about));
    QVERIFY(!recent->isEnabled()); // nothing opened yet
}

void TestMainWindow::hasIconAndPlaceholder() {
    MainWindow window;
    const QIcon icon = window.windowIcon();
    QVERIFY(!icon.isNull());
    QVERIFY(icon.availableSizes().contains(QSize(256, 256))); // the .qrc was linked in

    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("paneTabs"));
    QVERIFY(tabs != nullptr);
    QCOMPARE(window.centralWidget(), tabs);
    QVERIFY(tabs->count() >= 1);
    auto* hint = qobject_cast<QLabel*>(tabs->widget(0));
    QVERIFY(hint != nullptr);
    QVERIFY(hint->text().contains(QStringLiteral("Open"), Qt::CaseInsensitive));
}

void TestMainWindow::openingAddsToRecentFiles() {
    const QString path = makeReport(QStringLiteral("matmul.tsr"));
    QVERIFY(!path.isEmpty());

    MainWindow window;
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QVERIFY(window.openReport(path));
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.count(), 1);
    QCOMPARE(window.currentReport(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(RecentFiles::list(), QStringList{QFileInfo(path).absoluteFilePath()});

    // The title and the status bar say what was opened: file, target, tiles.
    QVERIFY(window.windowTitle().contains(QStringLiteral("matmul.tsr")));
    QVERIFY(window.statusBar()->currentMessage().contains(path));
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("16 tiles")));
    // Every pane tab is there once a report is open.
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("paneTabs"));
    QCOMPARE(tabs->count(), std::max<int>(1, window.paneNames().size()));

    // Open Recent lists it, and a new window (a new session) still does.
    MainWindow second;
    auto* recent = second.findChild<QMenu*>(QStringLiteral("menuRecent"));
    QVERIFY(recent->isEnabled());
    QStringList listed;
    for (QAction* action : recent->actions()) {
        if (action->data().isValid()) {
            listed << action->data().toString();
        }
    }
    QCOMPARE(listed, QStringList{QFileInfo(path).absoluteFilePath()});

    // "Clear Menu" empties it.
    auto* clear = second.findChild<QAction*>(QStringLiteral("actionClearRecent"));
    QVERIFY(clear != nullptr && clear->isEnabled());
    clear->trigger();
    QVERIFY(RecentFiles::list().isEmpty());
}

void TestMainWindow::recentFilesAreDeduplicatedAndCapped() {
    MainWindow window;
    QStringList paths;
    for (int i = 0; i < RecentFiles::MaxEntries + 3; ++i) {
        paths << makeReport(QStringLiteral("r%1.tsr").arg(i));
        QVERIFY(window.openReport(paths.last()));
        QVERIFY(waitOpened(window, paths.last()));
    }
    QVERIFY(window.openReport(paths.at(5))); // re-opening moves it to the front
    QVERIFY(waitOpened(window, paths.at(5)));
    const QStringList recent = RecentFiles::list();
    QCOMPARE(recent.size(), RecentFiles::MaxEntries);
    QCOMPARE(recent.first(), QFileInfo(paths.at(5)).absoluteFilePath());
    QCOMPARE(recent.count(recent.first()), 1);
    QVERIFY(!recent.contains(QFileInfo(paths.at(0)).absoluteFilePath()));
}

void TestMainWindow::openingMissingFileFails() {
    MainWindow window;
    const QString missing = QDir(files_.path()).filePath(QStringLiteral("missing.tsr"));
    QVERIFY(!window.openReport(missing));
    QVERIFY(window.currentReport().isEmpty());
    QVERIFY(RecentFiles::list().isEmpty());
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Cannot open")));
}

void TestMainWindow::droppingAFileOpensIt() {
    const QString path = makeReport(QStringLiteral("dropped.tsr"));
    MainWindow window;
    QVERIFY(window.acceptDrops());

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());

    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(waitOpened(window, path));
    QCOMPARE(RecentFiles::list().value(0), QFileInfo(path).absoluteFilePath());
}

void TestMainWindow::geometryIsSavedAndRestored() {
    {
        MainWindow window;
        window.resize(777, 555);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.close(); // closeEvent writes the settings
    }
    QVERIFY(QSettings().contains(QStringLiteral("mainWindow/geometry")));
    MainWindow restored;
    QCOMPARE(restored.size(), QSize(777, 555));
}

void TestMainWindow::grabRendersTheWindow() {
    const QString path = makeReport(QStringLiteral("matmul.tsr"));
    MainWindow window;
    window.resize(900, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QDir outDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR));

    // Before and after opening a report; both images are kept for a human to look at.
    const QImage start = window.grab().toImage();
    QVERIFY(start.save(outDir.filePath(QStringLiteral("tst_app_mainwindow-start.png"))));
    QVERIFY(window.openReport(path));
    QVERIFY(waitOpened(window, path));
    const QImage image = window.grab().toImage();
    QVERIFY(!image.isNull());
    QCOMPARE(image.size() / image.devicePixelRatio(), QSize(900, 600));
    QVERIFY(image != start); // the tab and status bar changed
    const QString out = outDir.filePath(QStringLiteral("tst_app_mainwindow.png"));
    QVERIFY2(image.save(out), qPrintable(out));
    qInfo("window grab written to %s", qPrintable(out));

    // Something was painted: opaque pixels, and more than a flat fill (menu
    // text, the tab bar, the label's text).
    QVERIFY(qAlpha(image.pixel(image.width() / 2, image.height() / 2)) == 255);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) {
            colours.insert(image.pixel(x, y));
        }
    }
    QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));
}

void TestMainWindow::badReportGivesOneClearError() {
    const QString path = makeTextFile(QStringLiteral("notes.tsr"), 5000);
    MainWindow window;
    QSignalSpy failed(&window, &MainWindow::reportFailed);
    QVERIFY(window.openReport(path)); // readable, so loading starts
    QVERIFY(failed.wait(30000));
    const QString error = failed.at(0).at(1).toString();
    QVERIFY2(error.contains(QStringLiteral("not a Tessera report")), qPrintable(error));
    QVERIFY(!error.contains('\n'));
    QVERIFY(window.currentReport().isEmpty());
    // Interactive windows say it in a (non-blocking) dialog too.
    auto* dialog = window.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
    QVERIFY(dialog != nullptr);
    QVERIFY(dialog->text().contains(QStringLiteral("not a Tessera report")));
}

void TestMainWindow::loadingShowsProgressAndCanBeCancelled() {
    const QString path = makeReport(QStringLiteral("progress.tsr"));
    MainWindow window;
    auto* bar = window.findChild<QProgressBar*>(QStringLiteral("loadProgress"));
    auto* cancel = window.findChild<QPushButton*>(QStringLiteral("cancelLoad"));
    QVERIFY(bar && cancel);
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QSignalSpy failed(&window, &MainWindow::reportFailed);
    QVERIFY(window.openReport(path));
    QVERIFY(!bar->isHidden());
    QVERIFY(!cancel->isHidden());
    cancel->click();
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() + failed.count() == 1, 30000);
    QVERIFY(bar->isHidden());
    QVERIFY(cancel->isHidden());
    // Either the cancel came in time, or the load had already finished.
    if (failed.count() == 1) {
        QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("cancelled"));
        QVERIFY(window.currentReport().isEmpty());
    } else {
        QCOMPARE(window.currentReport(), QFileInfo(path).absoluteFilePath());
    }
}

void TestMainWindow::darkThemeChangesThePalette() {
    MainWindow window;
    // Issue 15, defect 9: the window's style keeps check boxes visible on it.
    QVERIFY(qobject_cast<tessera::views::ContrastStyle*>(QApplication::style()) != nullptr);
    window.setTheme(MainWindow::Theme::Dark);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
    QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toInt(), int(MainWindow::Theme::Dark));
    window.setTheme(MainWindow::Theme::Light);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
}

void TestMainWindow::viewMenuHasPaneAndZoomShortcuts() {
    MainWindow window;
    auto* zoomIn = window.findChild<QAction*>(QStringLiteral("actionZoomIn"));
    auto* zoomOut = window.findChild<QAction*>(QStringLiteral("actionZoomOut"));
    auto* reset = window.findChild<QAction*>(QStringLiteral("actionResetZoom"));
    QVERIFY(zoomIn && zoomOut && reset);
    QCOMPARE(reset->shortcut(), QKeySequence(QStringLiteral("Ctrl+0")));
    QVERIFY(zoomIn->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+="))));
    const QStringList panes = window.paneNames();
    for (int i = 0; i < panes.size(); ++i) {
        auto* a = window.findChild<QAction*>(QStringLiteral("actionPane_") + panes[i]);
        QVERIFY2(a != nullptr, qPrintable(panes[i]));
        QCOMPARE(a->shortcut(), QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
    }
}

void TestMainWindow::screenshotRejectsBadInput() {
    const QString out = QDir(files_.path()).filePath(QStringLiteral("shot.png"));
    tessera::gui::ScreenshotRequest request;
    request.report = makeTextFile(QStringLiteral("bad.tsr"), 100);
    request.pane = QStringLiteral("summary");
    request.output = out;
    QCOMPARE(tessera::gui::takeScreenshot(request), 2);
    request.report = makeReport(QStringLiteral("good.tsr"));
    request.pane = QStringLiteral("no-such-pane");
    QCOMPARE(tessera::gui::takeScreenshot(request), 2);
    QVERIFY(!QFile::exists(out));
}

void TestMainWindow::screenshotOfEveryPane() {
    MainWindow probe;
    const QStringList panes = probe.paneNames();
    const QStringList expected{QStringLiteral("summary"),   QStringLiteral("memory"),
                               QStringLiteral("liveness"),  QStringLiteral("program"),
                               QStringLiteral("execution"), QStringLiteral("debug")};
    QCOMPARE(panes, expected);
    QList<QImage> shots;
    for (const QString& pane : panes) {
        tessera::gui::ScreenshotRequest request;
        request.report = makeReport(QStringLiteral("shots.tsr"));
        request.pane = pane;
        request.size = QSize(1200, 800);
        request.output =
            QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("screenshot-" + pane + ".png");
        QFile::remove(request.output);
        QCOMPARE(tessera::gui::takeScreenshot(request), 0);
        const QImage image(request.output);
        QVERIFY2(!image.isNull(), qPrintable(request.output));
        QCOMPARE(image.width(), 1200); // the pane area: the window less its menu bar
        QVERIFY(image.height() > 600);
        // A pane that drew nothing is one flat colour; one that drew another
        // pane's content equals an earlier shot.
        QVERIFY2(distinctColours(image) > 8, qPrintable(pane));
        for (const QImage& earlier : shots) {
            QVERIFY2(image != earlier, qPrintable(pane));
        }
        shots << image;
    }
}

// The Debugger is a tab before any report is open. Each pause hands the
// window a report of the run so far: the other panes load it and highlight
// the current step, while the user stays in the Debugger and the temporary
// report stays out of Open Recent.
void TestMainWindow::debuggerWithoutAReport() {
    MainWindow window;
    window.setInteractive(false);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("paneTabs"));
    auto* pane = qobject_cast<tessera::views::DebugPane*>(window.pane(QStringLiteral("debug")));
    QVERIFY(pane != nullptr);
    QCOMPARE(tabs->count(), 2); // Start and Debugger
    QVERIFY(window.showPane(QStringLiteral("debug")));
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    tessera::views::debugger::DebugConfig config;
    config.workload = QStringLiteral("elementwise");
    config.target = QStringLiteral("tiles:4");
    config.params = {{"n", "64"}};
    config.breaks = {QStringLiteral("relu")};
    QVERIFY(pane->start(config));
    QVERIFY(opened.wait(30000)); // before the first step
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady(), 30000);
    QVERIFY(pane->controller()->continueRun());
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() >= 2 && pane->isReady() && !window.isLoading(), 30000);
    QCOMPARE(pane->controller()->state()->stepName, QStringLiteral("relu"));
    QCOMPARE(window.currentPane(), pane);
    QCOMPARE(tabs->count(), window.paneNames().size());
    QCOMPARE(window.selection()->step(), tessera::record::StepId{2u});
    auto* liveness =
        qobject_cast<tessera::views::LivenessPane*>(window.pane(QStringLiteral("liveness")));
    QVERIFY(liveness != nullptr);
    QCOMPARE(liveness->selectedStep(), tessera::record::StepId{2u});
    QVERIFY(RecentFiles::list().isEmpty());
    QVERIFY(window.currentReport().endsWith(QStringLiteral(".tsr")));
}

void TestMainWindow::screenshotOfAPausedDebugger() {
    tessera::gui::ScreenshotRequest request;
    request.pane = QStringLiteral("debug");
    request.workload = QStringLiteral("matmul");
    request.target = QStringLiteral("tiles:4");
    request.params = {QStringLiteral("m=8"), QStringLiteral("k=8"), QStringLiteral("n=8")};
    request.breaks = {QStringLiteral("matmul/products")};
    request.inspect = {QStringLiteral("A"), QStringLiteral("B")};
    request.size = QSize(1200, 800);
    request.output =
        QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("screenshot-debug-paused.png");
    QFile::remove(request.output);
    QCOMPARE(tessera::gui::takeScreenshot(request), 0);
    QVERIFY(!QImage(request.output).isNull());
    request.workload = QStringLiteral("no-such-workload");
    QCOMPARE(tessera::gui::takeScreenshot(request), 2);
}

// Issue 15, defect 2: with no saved pane, a report opens on its Summary,
// not on the Debugger (the one tab there before any report).
void TestMainWindow::freshSettingsOpenTheSummary() {
    const QString path = makeReport(QStringLiteral("fresh.tsr"));
    QVERIFY(!QSettings().contains(QStringLiteral("mainWindow/lastPane")));
    MainWindow window;
    window.setInteractive(false);
    window.show();
    QVERIFY(window.showPane(QStringLiteral("debug"))); // as a user looking at the tabs might
    QVERIFY(window.openReport(path));
    QVERIFY(waitOpened(window, path));
    QVERIFY(window.currentPane() != nullptr);
    QCOMPARE(window.currentPane()->paneName(), QStringLiteral("summary"));
}

namespace {

// Clicks the button named `button` of the next modal dialog (a QMessageBox's exec()).
void answerNextDialog(const QString& button) {
    auto* timer = new QTimer(qApp);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            if (auto* b = modal->findChild<QPushButton*>(button)) {
                timer->deleteLater();
                b->click();
            }
        }
    });
    timer->start(20);
}

tessera::views::debugger::DebugConfig smallRun() {
    tessera::views::debugger::DebugConfig config;
    config.workload = QStringLiteral("elementwise");
    config.target = QStringLiteral("tiles:4");
    config.params = {{"n", "64"}};
    return config;
}

} // namespace

// Issue 15, defect 6: Ctrl+F5 and F10 work with the focus anywhere, even with
// another tab shown (they are in the Debug menu).
void TestMainWindow::debuggerShortcutsWorkWindowWide() {
    MainWindow window;
    window.setInteractive(false);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto* pane = qobject_cast<tessera::views::DebugPane*>(window.pane(QStringLiteral("debug")));
    QVERIFY(pane != nullptr);
    pane->controls()->showConfig(smallRun());
    window.paneTabs()->setCurrentIndex(0); // the Start tab: the Debugger is hidden
    QVERIFY(!pane->isVisible());
    QTest::keyClick(&window, Qt::Key_F5, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(pane->controller()->hasSession() && pane->isReady(), 30000);
    QCOMPARE(pane->controller()->state()->stepsExecuted, std::uint64_t(0));
    QTest::keyClick(&window, Qt::Key_F10);
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady() && pane->controller()->state()->stepsExecuted == 1,
                             30000);
    auto* menu = window.findChild<QMenu*>(QStringLiteral("menuDebug"));
    QVERIFY(menu != nullptr);
    QCOMPARE(menu->actions().size(), 6);
}

// Issue 15, defect 6: starting a debug run with a report open asks whether
// the run may replace it in the other panes; keeping it, cancelling and
// replacing each do what they say.
void TestMainWindow::debugRunAsksBeforeReplacingTheReport() {
    const QString path = makeReport(QStringLiteral("mine.tsr"));
    MainWindow window;
    window.show();
    QVERIFY(window.openReport(path));
    QVERIFY(waitOpened(window, path));
    auto* pane = qobject_cast<tessera::views::DebugPane*>(window.pane(QStringLiteral("debug")));
    QSignalSpy opened(&window, &MainWindow::reportOpened);

    answerNextDialog(QStringLiteral("debugCancelStart"));
    QVERIFY(!pane->start(smallRun()));
    QVERIFY(!pane->controller()->hasSession());

    answerNextDialog(QStringLiteral("debugKeepReport"));
    QVERIFY(pane->start(smallRun()));
    QTRY_VERIFY_WITH_TIMEOUT(pane->controller()->hasSession() && pane->isReady(), 30000);
    QVERIFY(pane->controller()->stepOver());
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady(), 30000);
    QTest::qWait(300); // a report of the run would be loading by now
    QVERIFY(!window.isLoading());
    QCOMPARE(opened.count(), 0);
    QCOMPARE(window.currentReport(), QFileInfo(path).absoluteFilePath());

    answerNextDialog(QStringLiteral("debugShowRun"));
    QVERIFY(pane->start(smallRun()));
    QVERIFY(opened.wait(30000));
    QVERIFY(window.currentReport() != QFileInfo(path).absoluteFilePath());
    // The run's own report is open now: the next run replaces it without asking.
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady() && !window.isLoading(), 30000);
    QVERIFY(pane->start(smallRun()));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isReady(), 30000);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
