// Compare mode of the main window: File > Compare With… loads a second
// report as the comparison (in the background, or at once), the compare
// panes replace the normal ones under the same names and Close Comparison
// restores them; dropping with Shift compares; a missing or corrupt
// comparison is one clear error and leaves the window as it was; and
// `--screenshot` renders every compare pane (exit code 2 for bad input).
#include "../views/ReportFixtures.h"
#include "CompareMode.h"
#include "MainWindow.h"
#include "Screenshot.h"
#include "views/compare/CompareData.h"
#include "views/compare/ComparePane.h"

#include <QAction>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using tessera::gui::CompareMode;
using tessera::gui::MainWindow;

class TestCompareMode : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void compareAndClose();
    void compareInTheBackground();
    void droppingWithShiftCompares();
    void badComparisonIsOneClearError();
    void screenshotsInCompareMode();

private:
    QString base() const {
        return tessera::testing::capturedReport("matmul", "tiles:16", {{"m", "64"}});
    }
    QString bigger() const {
        return tessera::testing::capturedReport("matmul", "tiles:16", {{"m", "128"}});
    }
    QTemporaryDir settingsDir_;
    QTemporaryDir files_;
};

void TestCompareMode::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(settingsDir_.isValid() && files_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    QCoreApplication::setOrganizationName(QStringLiteral("TesseraTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_app_compare_mode"));
}

void TestCompareMode::compareAndClose() {
    MainWindow window;
    window.setInteractive(false);
    auto* compareAction = window.findChild<QAction*>("actionCompare");
    auto* closeAction = window.findChild<QAction*>("actionCloseComparison");
    QVERIFY(compareAction && closeAction);
    QVERIFY(!compareAction->isEnabled()); // no baseline yet
    QVERIFY(window.openReportNow(base()));
    QVERIFY(compareAction->isEnabled());
    tessera::views::Pane* normal = window.pane("memory");
    QString error;
    QVERIFY2(window.compareMode()->compareNow(bigger(), &error), qPrintable(error));
    QVERIFY(window.compareMode()->isActive());
    QVERIFY(closeAction->isEnabled());
    // The compare panes replace the normal ones, under the same names; the
    // Debugger, which needs no report, stays.
    QTabWidget* tabs = window.paneTabs();
    QCOMPARE(tabs->count(), 6);
    tessera::views::Pane* debugger = window.pane("debug");
    QVERIFY(debugger && tabs->indexOf(debugger) == 5);
    for (const QString& name : window.paneNames()) {
        if (name == "debug") {
            continue;
        }
        auto* p = qobject_cast<tessera::views::ComparePane*>(window.pane(name));
        QVERIFY2(p, qPrintable(name));
        QCOMPARE(p->paneName(), name);
        QVERIFY(tabs->indexOf(p) >= 0);
        QVERIFY(window.showPane(name));
        QCOMPARE(window.currentPane(), p);
        QCOMPARE(p->comparison(), window.compareMode()->data());
    }
    QVERIFY(tabs->indexOf(normal) < 0);
    QVERIFY(window.windowTitle().contains(" vs "));
    const auto& diff = window.compareMode()->data()->diff;
    QCOMPARE(QFileInfo(QString::fromStdString(diff.baseline.path)).fileName(),
             QFileInfo(base()).fileName());
    QCOMPARE(QFileInfo(QString::fromStdString(diff.comparison.path)).fileName(),
             QFileInfo(bigger()).fileName());
    // Close Comparison: the normal panes are back, on the same pane.
    window.showPane("liveness");
    closeAction->trigger();
    QVERIFY(!window.compareMode()->isActive());
    QCOMPARE(window.pane("memory"), normal);
    QVERIFY(tabs->indexOf(normal) >= 0);
    QCOMPARE(tabs->count(), 6);
    QCOMPARE(tabs->indexOf(debugger), 5); // in its place, not added twice
    QCOMPARE(window.currentPane()->paneName(), QString("liveness"));
    QVERIFY(!window.windowTitle().contains(" vs "));
    // Opening another report ends a comparison too.
    QVERIFY(window.compareMode()->compareNow(bigger()));
    QVERIFY(window.openReportNow(bigger()));
    QVERIFY(!window.compareMode()->isActive());
    QCOMPARE(window.pane("memory"), normal);
}

void TestCompareMode::compareInTheBackground() {
    MainWindow window;
    window.setInteractive(false);
    QVERIFY(window.openReportNow(base()));
    QSignalSpy opened(window.compareMode(), &CompareMode::comparisonOpened);
    QVERIFY(window.compareMode()->compareWith(bigger()));
    QVERIFY(opened.wait(60000));
    QVERIFY(window.compareMode()->isActive());
    QVERIFY(qobject_cast<tessera::views::ComparePane*>(window.pane("execution")));
    // Closing while a comparison loads drops it: the normal panes stay.
    window.compareMode()->close();
    tessera::views::Pane* normal = window.pane("summary");
    QVERIFY(window.compareMode()->compareWith(bigger()));
    window.compareMode()->close();
    QTest::qWait(200);
    QTRY_VERIFY(!window.compareMode()->isLoading());
    QCoreApplication::processEvents();
    QVERIFY(!window.compareMode()->isActive());
    QCOMPARE(window.pane("summary"), normal);
    QCOMPARE(opened.count(), 1);
}

void TestCompareMode::droppingWithShiftCompares() {
    MainWindow window;
    window.setInteractive(false);
    QVERIFY(window.openReportNow(base()));
    QSignalSpy opened(window.compareMode(), &CompareMode::comparisonOpened);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(bigger())});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QSignalSpy failed(window.compareMode(), &CompareMode::comparisonFailed);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(drop.isAccepted());
    // The drop started a comparison; its result may already be queued, so
    // wait for either signal rather than sample isLoading().
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(), 60000);
    QVERIFY2(failed.isEmpty(),
             qPrintable(failed.isEmpty() ? QString() : failed.first().at(1).toString()));
    QCOMPARE(window.compareMode()->comparisonPath(), QFileInfo(bigger()).absoluteFilePath());
    QCOMPARE(window.currentReport(), QFileInfo(base()).absoluteFilePath()); // still the baseline
}

void TestCompareMode::badComparisonIsOneClearError() {
    MainWindow window;
    window.setInteractive(false);
    QVERIFY(window.openReportNow(base()));
    tessera::views::Pane* normal = window.pane("summary");
    QSignalSpy failed(window.compareMode(), &CompareMode::comparisonFailed);
    const QString missing = QDir(files_.path()).filePath("missing.tsr");
    QVERIFY(!window.compareMode()->compareWith(missing));
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.first().at(1).toString().contains("missing.tsr"));
    const QString corrupt = QDir(files_.path()).filePath("corrupt.tsr");
    {
        QFile f(corrupt);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(2048, 'z'));
    }
    QString error;
    QVERIFY(!window.compareMode()->compareNow(corrupt, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!error.contains('\n'));
    QVERIFY(!window.compareMode()->isActive());
    QCOMPARE(window.pane("summary"), normal);
    QVERIFY(window.paneTabs()->indexOf(normal) >= 0);
    // In an interactive window the error is a dialog, not a crash.
    window.setInteractive(true);
    QVERIFY(!window.compareMode()->compareNow(corrupt));
    QTRY_VERIFY(window.findChild<QWidget*>("compareErrorDialog") != nullptr);
}

void TestCompareMode::screenshotsInCompareMode() {
    tessera::gui::ScreenshotRequest request;
    request.report = base();
    request.compare = bigger();
    request.size = QSize(1200, 800);
    for (const QString pane : {"summary", "memory", "liveness", "program", "execution"}) {
        request.pane = pane;
        request.output = QDir(TESSERA_TEST_OUTPUT_DIR).filePath("compare-" + pane + ".png");
        QFile::remove(request.output);
        QCOMPARE(tessera::gui::takeScreenshot(request), 0);
        const QImage image(request.output);
        QVERIFY2(!image.isNull(), qPrintable(pane));
        QVERIFY(image.width() >= 800);
    }
    request.compare = QDir(files_.path()).filePath("nope.tsr");
    QCOMPARE(tessera::gui::takeScreenshot(request), 2);
}

QTEST_MAIN(TestCompareMode)
#include "tst_compare_mode.moc"
