#include "views/panes/debug/DebugWorker.h"

#include "engine/core/Error.h"
#include "engine/debug/DebugSession.h"
#include "engine/runtime/Engine.h"
#include "engine/workloads/Plugin.h"
#include "reports/ReportWriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFile>

#include <algorithm>

namespace tessera::views::debugger {

struct DebugWorker::Run {
    explicit Run(const Target& target)
        : graph(target) {}
    const workloads::Workload* workload = nullptr;
    workloads::Parameters params;
    Graph graph;
    workloads::Built built;
    record::InMemoryRecorder recorder; // the run so far, replayed into reports
    std::unique_ptr<Engine> engine;
    std::unique_ptr<debug::DebugSession> session;
    std::size_t runIndex = 0; // into built.runOrder
    std::vector<debug::Breakpoint> breakpoints;
    QString verification;
};

DebugWorker::DebugWorker() = default;

DebugWorker::~DebugWorker() {
    reset();
}

bool DebugWorker::event(QEvent* event) {
    if (event->type() != QEvent::MetaCall) {
        return QObject::event(event);
    }
    handOver_.received();
    const bool handled = QObject::event(event);
    handOver_.received(); // what the call did is handed to whoever takes it next
    return handled;
}

void DebugWorker::reset() {
    const std::lock_guard lock(sessionMutex_);
    run_.reset();
}

void DebugWorker::requestPause() {
    const std::lock_guard lock(sessionMutex_);
    if (run_ && run_->session) {
        run_->session->pause();
    }
}

void DebugWorker::openSession(unsigned program) {
    auto session = std::make_unique<debug::DebugSession>(*run_->engine, program);
    for (const debug::Breakpoint& b : run_->breakpoints) {
        session->addBreakpoint(b);
    }
    const std::lock_guard lock(sessionMutex_);
    run_->session = std::move(session);
}

void DebugWorker::start(const DebugConfig& config) {
    reset();
    pauses_ = 0;
    reportDir_ = config.reportDir;
    try {
        if (!config.plugin.isEmpty()) {
            workloads::loadPlugin(config.plugin.toStdString());
        }
        const workloads::Workload& w = workloads::find(config.workload.toStdString());
        const workloads::Parameters params(w.parameters(), config.params);
        Target target = Target::preset(config.target.toStdString());
        target.validate();
        auto run = std::make_unique<Run>(target);
        run->workload = &w;
        run->params = params;
        run->built = w.build(run->graph, params);
        if (run->built.programs.empty() || run->built.runOrder.empty()) {
            throw Error("workload '" + w.name() + "' built no program to run");
        }
        EngineOptions options;
        options.recorder = &run->recorder;
        options.allowOutOfMemory = true; // the session stops at the step that overflows
        options.threads = config.threads;
        run->engine = std::make_unique<Engine>(run->graph, run->built.programs, options);
        if (run->built.setUp) {
            run->built.setUp(*run->engine);
        }
        {
            const std::lock_guard lock(sessionMutex_);
            run_ = std::move(run);
        }
        openSession(run_->built.runOrder.front());
        for (const QString& b : config.breaks) {
            const std::size_t before = run_->session->breakpoints().size();
            if (run_->session->breakAt(b.toStdString()) == 0) {
                throw Error("breakpoint '" + b.toStdString() +
                            "' matches no step, compute set or block");
            }
            const auto added =
                std::vector<debug::Breakpoint>(run_->session->breakpoints().begin() + long(before),
                                               run_->session->breakpoints().end());
            for (const debug::Breakpoint& bp : added) {
                addTreeBreakpoint(bp);
            }
        }
    } catch (const std::exception& e) {
        reset();
        send(&DebugWorker::failed, QString::fromStdString(e.what()));
        return;
    }
    const compiler::CompiledGraph& c = run_->engine->compiled();
    SessionInfo info;
    info.workload = config.workload;
    info.target = QString::fromStdString(c.record.target.name);
    info.numTiles = c.record.target.numTiles();
    for (const record::ProgramNodeRecord& n : c.nodes) {
        // A step without a name of its own is shown by its step's name.
        const std::string& name =
            n.name.empty() && !n.step.isNone() ? c.steps[n.step.value()].name : n.name;
        info.nodes.push_back({n.id, n.parent, QString::fromStdString(name), n.kind, n.step});
    }
    for (const compiler::StepPlan& s : c.steps) {
        info.stepNames.push_back(QString::fromStdString(s.name));
    }
    const auto& vars = run_->graph.variables();
    for (std::size_t v = 0; v < vars.size(); ++v) {
        const auto& rec = c.record.variables;
        const bool always = v >= rec.size() || rec[v].alwaysLive || rec[v].firstStep.isNone();
        info.tensors.push_back({QString::fromStdString(vars[v].name),
                                QString::fromStdString(std::string(typeName(vars[v].type))),
                                vars[v].shape, always});
    }
    info.breakpoints = run_->breakpoints;
    send(&DebugWorker::started, info);
    announcePause(run_->session->lastStop());
}

// The tree shows breakpoints on steps and blocks; one on a compute set is the
// same as one on every step that executes it.
void DebugWorker::addTreeBreakpoint(const debug::Breakpoint& b) {
    std::vector<debug::Breakpoint> wanted{b};
    if (b.kind == debug::BreakpointKind::ComputeSet) {
        run_->session->removeBreakpoint(b);
        wanted.clear();
        const auto& steps = run_->engine->compiled().steps;
        for (std::uint32_t s = 0; s < steps.size(); ++s) {
            if (steps[s].computeSet.value() == b.id) {
                wanted.push_back({debug::BreakpointKind::Step, s});
            }
        }
    }
    for (const debug::Breakpoint& w : wanted) {
        run_->session->addBreakpoint(w);
        if (std::find(run_->breakpoints.begin(), run_->breakpoints.end(), w) ==
            run_->breakpoints.end()) {
            run_->breakpoints.push_back(w);
        }
    }
}

bool DebugWorker::nextProgram() {
    if (run_->runIndex + 1 >= run_->built.runOrder.size() ||
        run_->session->lastStop().reason == debug::StopReason::Error) {
        return false;
    }
    ++run_->runIndex;
    openSession(run_->built.runOrder[run_->runIndex]);
    return true;
}

debug::Stop DebugWorker::execute(Command command) {
    debug::DebugSession& s = *run_->session;
    switch (command) {
    case Command::Continue:
        return s.continueRun();
    case Command::StepOver:
        return s.stepOver();
    case Command::StepInto:
        return s.stepInto();
    case Command::RunToEnd:
        return s.runToEnd();
    }
    return s.lastStop();
}

void DebugWorker::run(Command command) {
    if (!run_) {
        send(&DebugWorker::failed, tr("no debug session: start one first"));
        return;
    }
    try {
        debug::Stop stop = execute(command);
        // A workload may run several programs in turn (runOrder): a stepping
        // command stops at the start of the next one, the others go on.
        while (stop.reason == debug::StopReason::Finished && nextProgram()) {
            stop = (command == Command::Continue || command == Command::RunToEnd)
                       ? execute(command)
                       : run_->session->lastStop();
        }
        if (run_->session->finished() && run_->verification.isEmpty() &&
            stop.reason == debug::StopReason::Finished && run_->built.verify) {
            const workloads::Verification v = run_->built.verify(*run_->engine);
            run_->recorder.onVerification(
                {run_->workload->name(), v.passed, v.maxAbsError, v.detail});
            run_->verification =
                v.passed ? tr("verification passed")
                         : tr("verification FAILED: %1").arg(QString::fromStdString(v.detail));
        }
        announcePause(stop);
    } catch (const std::exception& e) {
        send(&DebugWorker::failed, QString::fromStdString(e.what()));
    }
}

void DebugWorker::setBreakpoint(const debug::Breakpoint& breakpoint, bool enabled) {
    if (!run_) {
        return;
    }
    std::erase(run_->breakpoints, breakpoint);
    if (enabled) {
        run_->breakpoints.push_back(breakpoint);
        run_->session->addBreakpoint(breakpoint);
    } else {
        run_->session->removeBreakpoint(breakpoint);
    }
}

void DebugWorker::read(const QStringList& tensors) {
    QVector<TensorValues> out;
    for (const QString& name : tensors) {
        TensorValues v;
        v.name = name;
        v.pause = pauses_ - 1;
        if (!run_) {
            v.error = tr("no debug session");
            out.push_back(v);
            continue;
        }
        try {
            const Tensor t = run_->graph.findTensor(name.toStdString());
            v.shape = t.shape();
            v.live = run_->session->isLive(t);
            v.values = run_->session->read(t);
            for (const TileId tile : run_->session->owners(t)) {
                v.owners.push_back(tile);
            }
        } catch (const std::exception& e) {
            v.error = QString::fromStdString(e.what());
        }
        out.push_back(std::move(v));
    }
    send(&DebugWorker::valuesRead, out);
}

PauseState DebugWorker::pauseState(const debug::Stop& stop) const {
    const debug::DebugSession& s = *run_->session;
    PauseState p;
    p.pause = pauses_;
    p.reason = stop.reason;
    p.finished = s.finished() && run_->runIndex + 1 >= run_->built.runOrder.size();
    const compiler::StepId step =
        stop.reason == debug::StopReason::Error ? stop.step : s.nextStep();
    if (!step.isNone()) {
        p.step = step;
        p.stepName = QString::fromStdString(run_->engine->compiled().step(step).name);
    }
    p.message = QString::fromStdString(stop.message);
    p.verification = run_->verification;
    p.insideStep = s.insideStep();
    p.cycles = s.cycles();
    p.stepsExecuted = run_->recorder.steps.size();
    p.liveBytes = s.liveBytes();
    return p;
}

void DebugWorker::announcePause(const debug::Stop& stop) {
    const PauseState state = pauseState(stop);
    ++pauses_;
    writeReport(); // first: the window is already loading it when the pause arrives
    send(&DebugWorker::paused, state);
}

// The run so far as a report the other panes can open: the recorded records
// replayed into a writer. An unfinished run is kept as an incomplete report
// (the writer's keepIncomplete), as an interrupted capture would be.
void DebugWorker::writeReport() {
    if (reportDir_.isEmpty() || !QDir().mkpath(reportDir_)) {
        return;
    }
    const QString path =
        QDir(reportDir_).filePath(QStringLiteral("debug-run-%1.tsr").arg(reportCounter_ % 3));
    ++reportCounter_; // three names in turn: the window may still read the last one
    try {
        reports::WriterOptions options;
        options.toolVersion = QCoreApplication::applicationVersion().toStdString();
        options.workload = run_->workload->name();
        options.keepIncomplete = true;
        for (const auto& [k, v] : run_->params.values()) {
            options.workloadParameters.emplace_back(k, v);
        }
        const record::InMemoryRecorder& r = run_->recorder;
        {
            reports::ReportWriter writer(path.toStdString(), options);
            writer.onCompiled(r.compiled);
            std::size_t step = 0;
            for (std::size_t i = 0; i < r.runs.size(); ++i) {
                writer.onRunBegin(r.runs[i]);
                while (step < r.steps.size() && r.steps[step].run == r.runs[i].run) {
                    writer.onStep(r.steps[step++]);
                }
                if (i < r.runEnds.size()) {
                    writer.onRunEnd(r.runEnds[i]);
                }
            }
            for (const record::VerificationRecord& v : r.verifications) {
                writer.onVerification(v);
            }
            if (run_->session->finished() && run_->runIndex + 1 >= run_->built.runOrder.size()) {
                writer.finish();
            }
        } // destroyed unfinished: closed as an incomplete report
        send(&DebugWorker::reportReady, path);
    } catch (const std::exception& e) {
        send(&DebugWorker::failed,
             tr("cannot write the report of the run so far: %1").arg(e.what()));
    }
}

} // namespace tessera::views::debugger
