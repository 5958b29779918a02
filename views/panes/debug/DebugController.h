#pragma once
// Runs a DebugWorker on its own thread and talks to it with queued signals,
// so the engine never blocks the window. Keeps the latest session info,
// pause state and tensor values for the pane. Commands sent while a command
// runs are refused (busy()); pause() works at any time.
#include "views/panes/debug/DebugTypes.h"
#include "views/panes/debug/DebugWorker.h"

#include <QObject>
#include <QThread>

#include <optional>

namespace tessera::views::debugger {

class DebugController : public QObject {
    Q_OBJECT

public:
    explicit DebugController(QObject* parent = nullptr);
    ~DebugController() override;

    bool start(const DebugConfig& config);
    bool continueRun();
    bool stepOver();
    bool stepInto();
    bool runToEnd();
    void pause();
    void setBreakpoint(const debug::Breakpoint& breakpoint, bool enabled);
    void requestValues(const QStringList& tensors);

    bool busy() const { return busy_; }
    bool hasSession() const { return info_.has_value(); }
    const std::optional<SessionInfo>& info() const { return info_; }
    const std::optional<PauseState>& state() const { return state_; }
    QString lastError() const { return lastError_; }

protected:
    bool event(QEvent* event) override; // takes the worker's hand-over before its answers

signals:
    void started(const tessera::views::debugger::SessionInfo& info);
    void paused(const tessera::views::debugger::PauseState& state);
    void valuesRead(const QVector<tessera::views::debugger::TensorValues>& values);
    void reportReady(const QString& path);
    void failed(const QString& message);
    void busyChanged(bool busy);

    // To the worker (queued across threads).
    void startRequested(const tessera::views::debugger::DebugConfig& config);
    void runRequested(tessera::views::debugger::DebugWorker::Command command);
    void breakpointRequested(const tessera::debug::Breakpoint& breakpoint, bool enabled);
    void readRequested(const QStringList& tensors);

private:
    bool command(DebugWorker::Command command);
    void setBusy(bool busy);

    QThread thread_;
    DebugWorker* worker_ = nullptr;
    bool busy_ = false;
    std::optional<SessionInfo> info_;
    std::optional<PauseState> state_;
    QString lastError_;
};

} // namespace tessera::views::debugger
