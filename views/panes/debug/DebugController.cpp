#include "views/panes/debug/DebugController.h"

#include <QEvent>

namespace tessera::views::debugger {

namespace {
void registerTypes() {
    qRegisterMetaType<DebugConfig>();
    qRegisterMetaType<SessionInfo>();
    qRegisterMetaType<PauseState>();
    qRegisterMetaType<TensorValues>();
    qRegisterMetaType<QVector<TensorValues>>();
    qRegisterMetaType<debug::Breakpoint>();
    qRegisterMetaType<DebugWorker::Command>();
}
} // namespace

DebugController::DebugController(QObject* parent)
    : QObject(parent) {
    registerTypes();
    thread_.setObjectName(QStringLiteral("tessera-debugger"));
    worker_ = new DebugWorker; // no parent: it moves to the thread
    worker_->moveToThread(&thread_);
    connect(this, &DebugController::startRequested, worker_, &DebugWorker::start);
    connect(this, &DebugController::runRequested, worker_, &DebugWorker::run);
    connect(this, &DebugController::breakpointRequested, worker_, &DebugWorker::setBreakpoint);
    connect(this, &DebugController::readRequested, worker_, &DebugWorker::read);
    connect(worker_, &DebugWorker::started, this, [this](const SessionInfo& info) {
        info_ = info;
        emit started(info);
    });
    connect(worker_, &DebugWorker::paused, this, [this](const PauseState& state) {
        state_ = state;
        setBusy(false);
        emit paused(state);
    });
    connect(worker_, &DebugWorker::valuesRead, this, &DebugController::valuesRead);
    connect(worker_, &DebugWorker::reportReady, this, &DebugController::reportReady);
    connect(worker_, &DebugWorker::failed, this, [this](const QString& message) {
        lastError_ = message;
        setBusy(false);
        emit failed(message);
    });
    thread_.start();
}

DebugController::~DebugController() {
    worker_->requestPause(); // a running command returns at the next step
    thread_.quit();
    thread_.wait();
    worker_->handOver().received(); // what its last call did
    delete worker_;                 // its thread has finished: deleting it here is safe
}

bool DebugController::start(const DebugConfig& config) {
    if (busy_) {
        return false;
    }
    info_.reset();
    state_.reset();
    lastError_.clear();
    setBusy(true);
    const auto posting = worker_->handOver().hold();
    emit startRequested(config);
    return true;
}

bool DebugController::command(DebugWorker::Command c) {
    if (busy_ || !info_ || (state_ && state_->finished)) {
        return false;
    }
    setBusy(true);
    const auto posting = worker_->handOver().hold();
    emit runRequested(c);
    return true;
}

bool DebugController::continueRun() {
    return command(DebugWorker::Command::Continue);
}
bool DebugController::stepOver() {
    return command(DebugWorker::Command::StepOver);
}
bool DebugController::stepInto() {
    return command(DebugWorker::Command::StepInto);
}
bool DebugController::runToEnd() {
    return command(DebugWorker::Command::RunToEnd);
}

void DebugController::pause() {
    worker_->requestPause();
}

void DebugController::setBreakpoint(const debug::Breakpoint& breakpoint, bool enabled) {
    const auto posting = worker_->handOver().hold();
    emit breakpointRequested(breakpoint, enabled); // queued: applied between commands
}

void DebugController::requestValues(const QStringList& tensors) {
    if (!tensors.isEmpty()) {
        const auto posting = worker_->handOver().hold();
        emit readRequested(tensors);
    }
}

bool DebugController::event(QEvent* event) {
    if (event->type() == QEvent::MetaCall) {
        worker_->handOver().received();
    }
    return QObject::event(event);
}

void DebugController::setBusy(bool busy) {
    if (busy_ != busy) {
        busy_ = busy;
        emit busyChanged(busy);
    }
}

} // namespace tessera::views::debugger
