#include "Screenshot.h"

#include "CommandLine.h"
#include "CompareMode.h"
#include "MainWindow.h"
#include "PaneViews.h"
#include "engine/target/Target.h"
#include "engine/workloads/Plugin.h"
#include "engine/workloads/Workload.h"
#include "views/common/Export.h"
#include "views/common/Pane.h"
#include "views/panes/DebugPane.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/debug/DebugController.h"
#include "views/panes/debug/RunControls.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace tessera::gui {

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "tessera: error: %s\n", qPrintable(oneLine(message)));
    return 2;
}

// The first of `names` the session has no tensor of, or "".
QString unknownTensor(const views::debugger::SessionInfo& info, const QStringList& names) {
    for (const QString& name : names) {
        const bool known = std::any_of(info.tensors.begin(), info.tensors.end(),
                                       [&](const auto& t) { return t.name == name; });
        if (!known) {
            return name;
        }
    }
    return {};
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

// What the Debugger would refuse only after building: a parameter or target
// out of range, a program past the host limit (the Debugger runs programs
// that overflow, so only that limit applies). "" when it may start.
QString checkWorkload(const views::debugger::DebugConfig& config) {
    try {
        if (!config.plugin.isEmpty()) {
            workloads::loadPlugin(QFile::encodeName(config.plugin).toStdString());
        }
        const workloads::Workload& w = workloads::find(config.workload.toStdString());
        const workloads::Parameters params(w.parameters(), config.params);
        const Target target = Target::preset(config.target.toStdString());
        target.validate();
        workloads::checkFits(w, params, target, true);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
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
    if (const QString refused = checkWorkload(config); !refused.isEmpty()) {
        return refused;
    }
    auto* controller = pane->controller();
    auto idle = [&] { return pane->isReady() && !window.isLoading(); };
    pane->start(config);
    settle(idle, 0);
    if (!controller->hasSession()) {
        return controller->lastError().isEmpty() ? QStringLiteral("the debugger did not start")
                                                 : controller->lastError();
    }
    if (const QString unknown = unknownTensor(*controller->info(), request.inspect);
        !unknown.isEmpty()) {
        return QStringLiteral("--inspect '%1': workload %2 has no tensor of that name "
                              "('tessera-cli debug %2 --list' lists them)")
            .arg(unknown, request.workload);
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
    // TESSERA_QT_MESSAGES=1 shows them all (as main() promises).
    if (qEnvironmentVariableIsEmpty("TESSERA_QT_MESSAGES")) {
        qInstallMessageHandler(
            [](QtMsgType type, const QMessageLogContext&, const QString& message) {
                if (type == QtCriticalMsg || type == QtFatalMsg) {
                    std::fprintf(stderr, "tessera: qt: %s\n", qPrintable(message.simplified()));
                }
            });
    }
    MainWindow window;
    window.setInteractive(false);
    window.setSavesSettings(false); // a screenshot leaves the user's theme and Open Recent alone
    window.setWatchesFiles(false);  // and renders the file once: nothing to reload
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
    if (!viewOf(request.pane).isEmpty() && window.compareMode()->isActive() &&
        paneViewNames().contains(request.pane)) {
        return fail(QStringLiteral("not supported by Tessera: --pane %1 with --compare (compare "
                                   "panes have no views inside; use --pane %2)")
                        .arg(request.pane, paneOf(request.pane)));
    }
    if (!window.showPane(request.pane)) {
        return fail(QStringLiteral("unknown pane '%1' (panes: %2; views: %3)")
                        .arg(request.pane, window.paneNames().join(QStringLiteral(", ")),
                             paneViewNames().join(QStringLiteral(", "))));
    }
    views::Pane* pane = window.pane(paneOf(request.pane));
    if (!request.selectTiles.isEmpty()) {
        auto* memory = qobject_cast<views::MemoryPane*>(pane);
        if (memory == nullptr) {
            return fail(QStringLiteral("not supported by Tessera: --select-tiles with --pane %1")
                            .arg(request.pane));
        }
        if (const QString e = memory->selectTiles(request.selectTiles); !e.isEmpty()) {
            return fail(QStringLiteral("--select-tiles '%1': %2").arg(request.selectTiles, e));
        }
    }
    if (!request.workload.isEmpty()) {
        if (const QString e = runDebugger(window, request); !e.isEmpty()) {
            return fail(e);
        }
        window.showPane(request.pane); // the run's report opened in the other panes
    }
    // Let layouts settle and background fetches finish (and a typed tile
    // selection's field fade in its clear button: 160 ms).
    if (!settle([&] { return pane->isReady() && !window.isLoading(); },
                request.selectTiles.isEmpty() ? 200 : 600)) {
        return fail(QStringLiteral("pane '%1' did not finish loading its data").arg(request.pane));
    }
    // A damaged report: the window showed what it could, the first problem
    // found is the answer (no picture of a pane that may be missing parts).
    if (!window.problems().isEmpty()) {
        return fail(window.problems().front());
    }
    // The panes shrink to a small --size; what cannot shrink further is said,
    // not drawn silently at another size.
    if (window.width() > request.size.width() || window.height() > request.size.height()) {
        return fail(QStringLiteral("--size %1x%2 is smaller than the window's minimum %3x%4 "
                                   "with this pane and report")
                        .arg(request.size.width())
                        .arg(request.size.height())
                        .arg(window.width())
                        .arg(window.height()));
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
