#include "Screenshot.h"

#include "CompareMode.h"
#include "MainWindow.h"
#include "views/common/Export.h"
#include "views/common/Pane.h"
#include "views/panes/DebugPane.h"
#include "views/panes/debug/DebugController.h"
#include "views/panes/debug/RunControls.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>

#include <cstdio>
#include <functional>

namespace tessera::gui {

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "tessera: error: %s\n", qPrintable(message));
    return 2;
}

// Lets layouts settle and background work finish: true when `ready` held.
bool settle(const std::function<bool()>& ready, int minimumMs = 200) {
    QElapsedTimer timer;
    timer.start();
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    } while ((!ready() || timer.elapsed() < minimumMs) && timer.elapsed() < 60000);
    return ready();
}

// Starts the Debugger on the requested workload, continues to each
// breakpoint given, and inspects / watches the requested tensors.
QString runDebugger(MainWindow& window, const ScreenshotRequest& request) {
    auto* pane = qobject_cast<views::DebugPane*>(window.pane(QStringLiteral("debug")));
    if (pane == nullptr) {
        return QStringLiteral("the debug pane is missing");
    }
    views::debugger::DebugConfig config;
    config.workload = request.workload;
    config.target = request.target.isEmpty() ? QStringLiteral("tiles:16") : request.target;
    config.plugin = request.plugin;
    config.breaks = request.breaks;
    QString error;
    if (!views::debugger::parseParameters(request.params.join(' '), config.params, &error)) {
        return error;
    }
    auto* controller = pane->controller();
    auto idle = [&] { return pane->isReady() && !window.isLoading(); };
    pane->start(config);
    settle(idle, 0);
    if (!controller->hasSession()) {
        return controller->lastError().isEmpty() ? QStringLiteral("the debugger did not start")
                                                 : controller->lastError();
    }
    for (const QString& t : request.inspect) {
        t == request.inspect.front() ? pane->inspect(t) : pane->addWatch(t);
    }
    settle(idle, 0);
    if (!request.breaks.isEmpty()) {
        controller->continueRun();
        settle(idle, 0);
    }
    return controller->lastError();
}

} // namespace

int takeScreenshot(const ScreenshotRequest& request) {
    // Standard error carries the one line this mode promises; the offscreen
    // platform's own warnings (size hints, runtime directory...) are noise here.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtCriticalMsg || type == QtFatalMsg) {
            std::fprintf(stderr, "tessera: qt: %s\n", qPrintable(message.simplified()));
        }
    });
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
    if (!request.report.isEmpty() && !window.openReportNow(request.report, &error)) {
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
    if (!request.workload.isEmpty()) {
        if (const QString e = runDebugger(window, request); !e.isEmpty()) {
            return fail(e);
        }
        window.showPane(request.pane); // the run's report opened in the other panes
    }
    // Let layouts settle and background fetches finish.
    if (!settle([&] { return pane->isReady() && !window.isLoading(); })) {
        return fail(QStringLiteral("pane '%1' did not finish loading its data").arg(request.pane));
    }
    // A damaged report: the window showed what it could, the first problem
    // found is the answer (no picture of a pane that may be missing parts).
    if (!window.problems().isEmpty()) {
        return fail(window.problems().front());
    }
    if (views::wouldOverwriteInput(request.output, window.openReports(), &error) ||
        !views::exportPng(pane, request.output, &error)) {
        return fail(error);
    }
    const QSize size = pane->size() * pane->devicePixelRatio();
    std::printf("wrote %s (%dx%d, pane %s)\n",
                qPrintable(QFileInfo(request.output).absoluteFilePath()), size.width(),
                size.height(), qPrintable(request.pane));
    return 0;
}

} // namespace tessera::gui
