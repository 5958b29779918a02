#pragma once
// Hand-overs of values between threads that ThreadSanitizer can see.
//
// Qt passes queued calls, signal arguments and pool tasks between threads
// under QMutex, which Debian's (uninstrumented) Qt implements with futexes
// TSan cannot see, so every such hand-over looked like a data race and the
// loaders and the debugger could not run under TSan. A HandOver is a
// std::mutex TSan sees: the sending thread holds it while it posts (Qt copies
// the call and its arguments under it), the receiving thread takes it before
// it reads them. One uncontended lock per hand-over.
//
// The receiver must find the HandOver without reading what was posted (a
// posted lambda's captures are the very memory being handed over): so it is
// the receiving object's own (HandOverPort, DebugWorker), or, for pool
// tasks, one for all of them (poolHandOver()).
#include <QObject>

#include <mutex>
#include <utility>

namespace tessera::views {

class HandOver {
public:
    // Hold the returned lock around the post (emit, invokeMethod, start), or
    // around reading or writing a value both threads use.
    [[nodiscard]] std::unique_lock<std::mutex> hold() const {
        return std::unique_lock<std::mutex>(mutex_);
    }
    // Call on the receiving thread before reading what was handed over.
    void received() const { std::lock_guard<std::mutex> lock(mutex_); }

private:
    mutable std::mutex mutex_;
};

// Taken by every BackgroundTask before it reads its task object.
const HandOver& poolHandOver();

// A QObject on the receiving thread through which other threads post calls:
// post(f) runs f on the port's thread, after the hand-over.
class HandOverPort : public QObject {
public:
    using QObject::QObject;

    template <class F>
    void post(F f) {
        const auto posting = handOver_.hold();
        QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
    }

protected:
    bool event(QEvent* event) override;

private:
    HandOver handOver_;
};

} // namespace tessera::views
