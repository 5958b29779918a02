#pragma once
// Rendering damaged reports in the main window, in process: open a report,
// show every pane, wait until it has fetched its data, grab it. A watchdog
// turns a hang into a failure naming the case, a crash handler names the
// case a crash happened in (a crash or a hang ends the test process, so the
// name is all that is left to say).
#include "MainWindow.h"
#include "views/common/Pane.h"
#include "views/models/ProgramTreeModel.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/LivenessPane.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/ProgramPane.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/liveness/LivenessPlot.h"
#include "views/panes/memory/TileMemoryPlot.h"

#include <unistd.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace tessera::testing {

// The case being run, for the watchdog and the crash handler.
inline char g_currentCase[512] = "";

inline void nameCase(const std::string& name) {
    std::snprintf(g_currentCase, sizeof g_currentCase, "%s", name.c_str());
}

extern "C" inline void reportCrash(int signal) {
    char line[700];
    const int n = std::snprintf(line, sizeof line, "\nCRASH (signal %d) in case: %s\n", signal,
                                g_currentCase);
    (void)!::write(2, line, static_cast<std::size_t>(n));
    std::_Exit(128 + signal);
}

inline void installCrashHandler() {
    for (int s : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) {
        std::signal(s, reportCrash);
    }
}

// Fails the process when a case runs longer than its limit.
class Watchdog {
public:
    explicit Watchdog(std::chrono::seconds limit)
        : limit_(limit)
        , thread_([this] { watch(); }) {}
    ~Watchdog() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    void arm() {
        std::lock_guard lock(mutex_);
        deadline_ = std::chrono::steady_clock::now() + limit_;
        armed_ = true;
    }
    void disarm() {
        std::lock_guard lock(mutex_);
        armed_ = false;
    }

private:
    void watch() {
        std::unique_lock lock(mutex_);
        while (!stop_) {
            wake_.wait_for(lock, std::chrono::milliseconds(200));
            if (armed_ && std::chrono::steady_clock::now() > deadline_) {
                std::fprintf(stderr, "\nHANG (over %lld s) in case: %s\n",
                             static_cast<long long>(limit_.count()), g_currentCase);
                std::fflush(stderr);
                std::_Exit(3);
            }
        }
    }
    std::chrono::seconds limit_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::chrono::steady_clock::time_point deadline_;
    bool armed_ = false;
    bool stop_ = false;
    std::thread thread_;
};

// Processes events until `ready` holds or `ms` pass; whether it held.
template <class Ready>
bool settle(Ready&& ready, int ms) {
    QElapsedTimer t;
    t.start();
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    } while (!ready() && t.elapsed() < ms);
    return ready();
}

// Whether a pane shows the report's data (not just its frame): the parts a
// damaged report must not take from an intact pane.
inline bool showsContent(views::Pane* pane) {
    if (auto* m = qobject_cast<views::MemoryPane*>(pane)) {
        return m->plot()->plottableCount() > 0 &&
               m->plot()->plottable(0)->interface1D()->dataCount() > 0;
    }
    if (auto* l = qobject_cast<views::LivenessPane*>(pane)) {
        return l->plot()->pointCount() > 0;
    }
    if (auto* p = qobject_cast<views::ProgramPane*>(pane)) {
        return p->treeModel()->rowCount() > 0;
    }
    if (auto* e = qobject_cast<views::ExecutionPane*>(pane)) {
        return e->timeline()->frame() != nullptr && !e->timeline()->frame()->items.empty();
    }
    return true; // the Summary shows what it has; the Debugger needs no report
}

// Shows each pane but the Debugger, waits until it is ready and grabs it.
// Returns the panes that did not become ready in time (empty: all did).
inline QStringList renderPanes(gui::MainWindow& window, int readyMs = 15000) {
    QStringList notReady;
    for (const QString& name : window.paneNames()) {
        if (name == QLatin1String("debug")) {
            continue;
        }
        window.showPane(name);
        views::Pane* pane = window.pane(name);
        if (!settle([&] { return pane->isReady(); }, readyMs)) {
            notReady << name;
        }
        const QPixmap shot = pane->grab();
        if (shot.isNull()) {
            notReady << name + " (no picture)";
        }
    }
    return notReady;
}

} // namespace tessera::testing
