#pragma once
// What every background load shares (one report, a comparison): a cancel flag
// per load, progress marshalled to the receiver's thread, the result handed
// over once, and failures turned into a one-line error instead of an
// exception. Both hand-overs are visible to ThreadSanitizer (HandOver.h).
#include "views/common/BackgroundTask.h"
#include "views/common/HandOver.h"
#include "views/data/ReportData.h"

#include <QMetaObject>
#include <QString>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>

namespace tessera::views {

// Runs fill(result); a LoadCancelled sets result.cancelled, any other
// exception result.error. Result has `QString error` and `bool cancelled`.
template <class Result, class Fill>
Result catchLoadFailure(Fill&& fill) {
    Result result;
    try {
        fill(result);
    } catch (const LoadCancelled&) {
        result.cancelled = true;
    } catch (const std::exception& e) {
        result.error = QString::fromStdString(e.what());
    }
    return result;
}

template <class Result>
class BackgroundLoad {
public:
    BackgroundLoad() {
        // Connected before the owner's handler, so it runs first.
        QObject::connect(&task_.watcher(), &QFutureWatcher<void>::finished,
                         [this] { delivered_ = true; });
    }
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;
    ~BackgroundLoad() {
        cancel();
        task_.waitForFinished();
    }

    // Emits finished() when a load's result is ready; take() it there.
    QFutureWatcher<void>& watcher() { return task_.watcher(); }
    Result take() { return task_.take(); }

    // Cancels the load in progress, then runs work(progress, cancelFlag) on
    // the thread pool. progress(percent, stage) reaches onProgress on this
    // object's thread, and never after this object is gone.
    template <class Work>
    void start(std::function<void(int, const QString&)> onProgress, Work work) {
        cancel();
        task_.waitForFinished();
        cancel_ = std::make_shared<std::atomic<bool>>(false);
        delivered_ = false;
        HandOverPort* port = &progressPort_;
        LoadProgress progress = [port, onProgress](int percent, const std::string& stage) {
            port->post([onProgress, percent, stage] {
                onProgress(percent, QString::fromStdString(stage));
            });
        };
        auto flag = cancel_;
        task_.start(
            [flag, progress, work = std::move(work)] { return work(progress, flag.get()); });
    }

    void cancel() {
        if (cancel_) {
            cancel_->store(true);
        }
    }
    // Started, and its result not yet handed over: a load that finished on
    // its thread still runs until its finished() reaches the receiver.
    bool isRunning() const { return !delivered_; }

private:
    BackgroundTask<Result> task_;
    HandOverPort progressPort_; // destroyed after the task is waited for: see ~BackgroundLoad
    bool delivered_ = true;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

} // namespace tessera::views
