#include "Screenshot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <cstdio>

#include "CompareMode.h"
#include "MainWindow.h"
#include "views/common/Pane.h"

namespace tessera::gui {

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "tessera: error: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int takeScreenshot(const ScreenshotRequest& request) {
    MainWindow window;
    window.setInteractive(false);
    if (request.theme == "dark") {
        window.setTheme(MainWindow::Theme::Dark);
    } else if (request.theme == "light") {
        window.setTheme(MainWindow::Theme::Light);
    }
    window.resize(request.size);
    window.show();
    QString error;
    if (!window.openReportNow(request.report, &error)) {
        return fail(error.isEmpty() ? QStringLiteral("cannot open %1").arg(request.report) : error);
    }
    if (!request.compare.isEmpty() && !window.compareMode()->compareNow(request.compare, &error)) {
        return fail(error.isEmpty() ? QStringLiteral("cannot compare with %1").arg(request.compare)
                                    : error);
    }
    if (!window.showPane(request.pane)) {
        return fail(QStringLiteral("unknown pane '%1' (panes: %2)")
                        .arg(request.pane, window.paneNames().join(QStringLiteral(", "))));
    }
    views::Pane* pane = window.pane(request.pane);
    // Let layouts settle and background fetches finish.
    QElapsedTimer timer;
    timer.start();
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    } while ((!pane->isReady() || timer.elapsed() < 200) && timer.elapsed() < 20000);
    if (!pane->isReady()) {
        return fail(QStringLiteral("pane '%1' did not finish loading its data").arg(request.pane));
    }
    const QPixmap pixmap = pane->grab();
    if (!pixmap.save(request.output, "PNG")) {
        return fail(QStringLiteral("cannot write %1").arg(request.output));
    }
    std::printf("wrote %s (%dx%d, pane %s)\n", qPrintable(QFileInfo(request.output).absoluteFilePath()),
                pixmap.width(), pixmap.height(), qPrintable(request.pane));
    return 0;
}

} // namespace tessera::gui
