#pragma once
// One computation on Qt's global thread pool whose result comes back to the
// owner's thread: start(work), then take() from the watcher's finished().
//
// Work and result cross threads through HandOvers (views/common/HandOver.h),
// not a QtConcurrent task object and QFuture's result store, so
// ThreadSanitizer sees both: the owner posts the task under poolHandOver(),
// which the task takes before it reads itself; the worker stores the result
// under its slot's lock and take() reads it under the same lock. Each start()
// gets a slot of its own, so a superseded worker never writes into the
// current one. What work() throws, take() throws.
#include "views/common/HandOver.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QRunnable>
#include <QThreadPool>

#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

namespace tessera::views {

template <class Result>
class BackgroundTask {
public:
    // finished() reaches the owner's thread when the latest start()'s result
    // is ready.
    QFutureWatcher<void>& watcher() { return watcher_; }

    template <class Work>
    void start(Work work) {
        auto slot = std::make_shared<Slot>();
        slot_ = slot;
        QPromise<void> promise;
        promise.start();
        watcher_.setFuture(promise.future());
        const auto posting = poolHandOver().hold();
        QThreadPool::globalInstance()->start(
            new Job<Work>(std::move(slot), std::move(work), std::move(promise)));
    }

    // The latest start()'s result, once: call it from finished().
    Result take() {
        const std::shared_ptr<Slot> slot = std::move(slot_); // outlives the lock below
        if (!slot) {
            throw std::logic_error("BackgroundTask::take: nothing was started");
        }
        const auto reading = slot->handOver.hold();
        if (slot->failure) {
            // Moved out, so the exception is released on this thread: its
            // count lives in the uninstrumented C++ runtime, where TSan would
            // not see a worker's last release follow this thread's reads.
            std::rethrow_exception(std::exchange(slot->failure, nullptr));
        }
        if (!slot->result) {
            throw std::logic_error("BackgroundTask::take: the task has not finished");
        }
        return std::move(*slot->result);
    }

    void waitForFinished() { watcher_.waitForFinished(); }
    bool isRunning() const { return watcher_.isRunning(); }

private:
    struct Slot {
        HandOver handOver;
        std::optional<Result> result;
        std::exception_ptr failure;
    };

    template <class Work>
    class Job : public QRunnable {
    public:
        Job(std::shared_ptr<Slot> slot, Work work, QPromise<void> promise)
            : slot_(std::move(slot))
            , work_(std::move(work))
            , promise_(std::move(promise)) {} // the pool deletes the job after run()

        void run() override {
            poolHandOver().received(); // before reading this job: the owner posted it
            std::optional<Result> result;
            std::exception_ptr failure;
            try {
                result.emplace(work_());
            } catch (...) {
                failure = std::current_exception();
            }
            {
                const auto storing = slot_->handOver.hold();
                slot_->result = std::move(result);
                slot_->failure = std::move(failure); // the worker keeps no reference
            }
            promise_.finish();
        }

    private:
        std::shared_ptr<Slot> slot_;
        Work work_;
        QPromise<void> promise_;
    };

    QFutureWatcher<void> watcher_;
    std::shared_ptr<Slot> slot_;
};

} // namespace tessera::views
