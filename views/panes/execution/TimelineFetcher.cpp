#include "views/panes/execution/TimelineFetcher.h"

#include "views/data/ReportProblem.h"
#include "views/panes/execution/FrameBuilder.h"

#include <exception>

namespace tessera::views::execution {

TimelineFetcher::TimelineFetcher(QObject* parent)
    : QObject(parent) {
    connect(&task_.watcher(), &QFutureWatcher<void>::finished, this, &TimelineFetcher::finished);
}

TimelineFetcher::~TimelineFetcher() {
    // The job holds its own references; wait so no frame outlives its owner
    // mid-build, but only until the build notices it was cancelled.
    if (builder_) {
        builder_->cancel();
    }
    task_.waitForFinished();
}

void TimelineFetcher::setBuilder(std::shared_ptr<FrameBuilder> builder) {
    if (builder_ && builder_ != builder) {
        builder_->cancel();
    }
    builder_ = std::move(builder);
    pending_.reset();
    failed_ = false;
    ++generation_; // a frame of the previous report is dropped when it arrives
}

void TimelineFetcher::request(const TimelineRequest& request) {
    if (!builder_) {
        return;
    }
    if (running_) {
        // Already on its way, unless it is for the report shown before (its
        // frame will be dropped): then it waits its turn like any other.
        if (request == runningRequest_ && runningGeneration_ == generation_) {
            pending_.reset();
        } else {
            pending_ = request;
        }
        return;
    }
    start(request);
}

void TimelineFetcher::start(const TimelineRequest& request) {
    running_ = true;
    failed_ = false;
    runningRequest_ = request;
    runningGeneration_ = generation_;
    task_.start([builder = builder_, request, generation = generation_]() {
        Result r;
        r.generation = generation;
        try {
            r.frame = builder->build(request);
        } catch (const BuildCancelled&) {
            r.generation = ~quint64{0}; // dropped: nobody waits for it
        } catch (const std::exception& e) {
            r.error = problemText(e);
        }
        return r;
    });
}

void TimelineFetcher::finished() {
    running_ = false;
    const Result r = task_.take();
    const bool current = r.generation == generation_;
    failed_ = current && !r.error.isEmpty();
    if (pending_) {
        const TimelineRequest next = *pending_;
        pending_.reset();
        start(next);
    }
    if (!current) {
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
