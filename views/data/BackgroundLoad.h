#pragma once
// What every background load shares (one report, a comparison): a cancel flag
// per load, progress marshalled to the receiver's thread, a watcher for the
// result, and failures turned into a one-line error instead of an exception.
#include "views/data/ReportData.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QFutureWatcher>
#include <QMetaObject>
#include <QPointer>
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
        QObject::connect(&watcher_, &QFutureWatcher<Result>::finished,
                         [this] { delivered_ = true; });
    }
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;
    ~BackgroundLoad() {
        cancel();
        watcher_.waitForFinished();
    }

    // Emits finished() when a load's result is ready.
    QFutureWatcher<Result>& watcher() { return watcher_; }

    // Cancels the load in progress, then runs work(progress, cancelFlag) on
    // the thread pool. progress(percent, stage) reaches onProgress on the
    // receiver's thread, and never after the receiver is gone.
    template <class Work>
    void start(QObject* receiver, std::function<void(int, const QString&)> onProgress, Work work) {
        cancel();
        watcher_.waitForFinished();
        cancel_ = std::make_shared<std::atomic<bool>>(false);
        delivered_ = false;
        QPointer<QObject> target(receiver);
        LoadProgress progress = [target, onProgress](int percent, const std::string& stage) {
            if (!target) {
                return;
            }
            QMetaObject::invokeMethod(
                target.data(),
                [target, onProgress, percent, stage] {
                    if (target) {
                        onProgress(percent, QString::fromStdString(stage));
                    }
                },
                Qt::QueuedConnection);
        };
        auto flag = cancel_;
        watcher_.setFuture(QtConcurrent::run(
            [flag, progress, work = std::move(work)] { return work(progress, flag.get()); }));
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
    QFutureWatcher<Result> watcher_;
    bool delivered_ = true;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

} // namespace tessera::views
