#include "views/panes/execution/TimelineFetcher.h"

#include "views/panes/execution/FrameBuilder.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace tessera::views::execution {

TimelineFetcher::TimelineFetcher(QObject* parent)
    : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Result>::finished, this, &TimelineFetcher::finished);
}

TimelineFetcher::~TimelineFetcher() {
    // The job holds its own references; wait so no frame outlives its owner mid-build.
    watcher_.waitForFinished();
}

void TimelineFetcher::setBuilder(std::shared_ptr<FrameBuilder> builder) {
    builder_ = std::move(builder);
    pending_.reset();
    ++generation_; // a frame of the previous report is dropped when it arrives
}

void TimelineFetcher::request(const TimelineRequest& request) {
    if (!builder_) {
        return;
    }
    if (running_) {
        if (request == runningRequest_) {
            pending_.reset(); // already on its way
        } else {
            pending_ = request;
        }
        return;
    }
    start(request);
}

void TimelineFetcher::start(const TimelineRequest& request) {
    running_ = true;
    runningRequest_ = request;
    watcher_.setFuture(QtConcurrent::run([builder = builder_, request, generation = generation_]() {
        Result r;
        r.generation = generation;
        try {
            r.frame = builder->build(request);
        } catch (const std::exception& e) {
            r.error = QString::fromUtf8(e.what());
        }
        return r;
    }));
}

void TimelineFetcher::finished() {
    running_ = false;
    const Result r = watcher_.result();
    if (pending_) {
        const TimelineRequest next = *pending_;
        pending_.reset();
        start(next);
    }
    if (r.generation != generation_) {
        return;
    }
    if (!r.error.isEmpty()) {
        emit failed(r.error);
    } else if (r.frame) {
        ++framesBuilt_;
        emit frameReady(r.frame);
    }
}

} // namespace tessera::views::execution
