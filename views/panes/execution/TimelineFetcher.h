#pragma once
// The execution pane's data worker: builds frames on Qt's thread pool (BackgroundTask), one at
// a time; requests made while one is being built are coalesced (the latest
// wins), so panning never queues work. Frames arrive on the GUI thread; a
// build that fails (a damaged report) arrives as failed(), never as an
// exception. Replacing the builder or destroying the fetcher cancels the
// build in progress instead of waiting for it to finish.
#include "views/common/BackgroundTask.h"
#include "views/panes/execution/TimelineFrame.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace tessera::views::execution {

class FrameBuilder;

class TimelineFetcher : public QObject {
    Q_OBJECT

public:
    explicit TimelineFetcher(QObject* parent = nullptr);
    ~TimelineFetcher() override;

    void setBuilder(std::shared_ptr<FrameBuilder> builder); // drops what is pending
    const std::shared_ptr<FrameBuilder>& builder() const { return builder_; }
    void request(const TimelineRequest& request);
    bool isBusy() const { return running_ || pending_.has_value(); }
    // The last build failed (failed() said why) and nothing newer was asked for.
    bool hasFailed() const { return failed_ && !isBusy(); }
    int framesBuilt() const { return framesBuilt_; }

signals:
    void frameReady(std::shared_ptr<const tessera::views::execution::TimelineFrame> frame);
    void failed(const QString& error);

private:
    struct Result {
        std::shared_ptr<const TimelineFrame> frame;
        QString error;
        quint64 generation = 0;
    };
    void start(const TimelineRequest& request);
    void finished();

    BackgroundTask<Result> task_;
    std::shared_ptr<FrameBuilder> builder_;
    std::optional<TimelineRequest> pending_;
    TimelineRequest runningRequest_;
    quint64 runningGeneration_ = 0;
    quint64 generation_ = 0;
    bool running_ = false;
    bool failed_ = false;
    int framesBuilt_ = 0;
};

} // namespace tessera::views::execution
