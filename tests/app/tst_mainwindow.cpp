// The GUI shell: menus and shortcuts, opening a report, Open Recent, drag and
// drop, saved geometry, and that the window really renders (offscreen).
#include "MainWindow.h"
#include "RecentFiles.h"

#include <QAction>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

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

private:
    QString makeReport(const QString& name, int bytes);

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

QString TestMainWindow::makeReport(const QString& name, int bytes) {
    const QString path = QDir(files_.path()).filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write(QByteArray(bytes, 'x'));
    return path;
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
    const QString path = makeReport(QStringLiteral("matmul.tsr"), 2048);
    QVERIFY(!path.isEmpty());

    MainWindow window;
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QVERIFY(window.openReport(path));
    QCOMPARE(opened.count(), 1);
    QCOMPARE(window.currentReport(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(RecentFiles::list(), QStringList{QFileInfo(path).absoluteFilePath()});

    // The tab and the status bar say what was opened.
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("paneTabs"));
    QCOMPARE(tabs->tabText(0), QStringLiteral("matmul.tsr"));
    QVERIFY(window.statusBar()->currentMessage().contains(path));
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("KiB")));

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
        paths << makeReport(QStringLiteral("r%1.tsr").arg(i), 10);
        QVERIFY(window.openReport(paths.last()));
    }
    QVERIFY(window.openReport(paths.at(5))); // re-opening moves it to the front
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
    const QString path = makeReport(QStringLiteral("dropped.tsr"), 100);
    MainWindow window;
    QVERIFY(window.acceptDrops());

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());

    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QCOMPARE(window.currentReport(), QFileInfo(path).absoluteFilePath());
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
    const QString path = makeReport(QStringLiteral("matmul.tsr"), 4096);
    MainWindow window;
    window.resize(900, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QDir outDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR));

    // Before and after opening a report; both images are kept for a human to look at.
    const QImage start = window.grab().toImage();
    QVERIFY(start.save(outDir.filePath(QStringLiteral("tst_app_mainwindow-start.png"))));
    QVERIFY(window.openReport(path));
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

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
