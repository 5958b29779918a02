#pragma once
// The engine side of the Debugger pane. Lives on the controller's worker
// thread and owns the graph, engine and DebugSession of one workload run;
// every slot runs there, so the GUI thread never waits for the engine. It
// answers with plain values (DebugTypes.h). Only requestPause() may be
// called from another thread.
#include "engine/record/Recorder.h"
#include "engine/workloads/Workload.h"
#include "views/common/HandOver.h"
#include "views/panes/debug/DebugTypes.h"

#include <QObject>

#include <memory>
#include <mutex>

namespace tessera::views::debugger {

class DebugWorker : public QObject {
    Q_OBJECT

public:
    enum class Command { Continue, StepOver, StepInto, RunToEnd };
    Q_ENUM(Command)

    DebugWorker();
    ~DebugWorker() override;

    void requestPause(); // thread-safe: the running command stops at the next step

    // Every call and answer between the controller and this worker crosses
    // threads through it (so ThreadSanitizer sees the hand-overs).
    const HandOver& handOver() const { return handOver_; }

protected:
    bool event(QEvent* event) override; // takes the hand-over before a queued call

public slots:
    void start(const tessera::views::debugger::DebugConfig& config);
    void run(tessera::views::debugger::DebugWorker::Command command);
    void setBreakpoint(const tessera::debug::Breakpoint& breakpoint, bool enabled);
    void read(const QStringList& tensors);

signals:
    void started(const tessera::views::debugger::SessionInfo& info);
    void paused(const tessera::views::debugger::PauseState& state);
    void valuesRead(const QVector<tessera::views::debugger::TensorValues>& values);
    void reportReady(const QString& path);
    void failed(const QString& message); // the session could not start or a command failed

private:
    template <class... Params, class... Args>
    void send(void (DebugWorker::*signal)(Params...), Args&&... args) {
        const auto posting = handOver_.hold();
        (this->*signal)(std::forward<Args>(args)...);
    }
    debug::Stop execute(Command command);
    bool nextProgram();
    void addTreeBreakpoint(const debug::Breakpoint& breakpoint);
    void openSession(unsigned program);
    PauseState pauseState(const debug::Stop& stop) const;
    void announcePause(const debug::Stop& stop);
    void writeReport();
    void reset();

    struct Run;
    std::unique_ptr<Run> run_;
    std::mutex sessionMutex_; // guards creating and destroying run_->session
    int pauses_ = 0;
    QString reportDir_;
    int reportCounter_ = 0;
    HandOver handOver_;
};

} // namespace tessera::views::debugger
