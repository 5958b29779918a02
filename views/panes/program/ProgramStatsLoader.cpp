#include "views/panes/program/ProgramStatsLoader.h"

#include "views/data/ReportProblem.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QThread>

#include <exception>

namespace tessera::views {

ProgramStatsLoader::ProgramStatsLoader(QObject* parent)
    : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<ComputedProgramStats>::finished, this,
            &ProgramStatsLoader::deliver);
}

ProgramStatsLoader::~ProgramStatsLoader() {
    // The worker holds its own references to the data and the source.
    watcher_.waitForFinished();
}

ComputedProgramStats ProgramStatsLoader::compute(const ReportData& data,
                                                 const ReportSource& source) {
    ComputedProgramStats result;
    result.computedOn = QThread::currentThreadId();
    std::vector<std::uint64_t> executions;
    try {
        executions = countStepExecutions(data, source);
    } catch (const std::exception& e) {
        // A damaged report: the tree still shows, without executions.
        result.problem = problemText(e);
    }
    result.stats = std::make_shared<const ProgramStats>(computeProgramStats(data, executions));
    return result;
}

void ProgramStatsLoader::cancel() {
    pending_ = false; // a result still on its way is ignored
}

void ProgramStatsLoader::load(std::shared_ptr<const ReportData> data,
                              std::shared_ptr<ReportSource> source) {
    // Watching the new future drops the older one's result; its worker ends
    // on its own, holding what it reads.
    watcher_.setFuture(QtConcurrent::run(
        [data = std::move(data), source = std::move(source)] { return compute(*data, *source); }));
    pending_ = true;
}

void ProgramStatsLoader::deliver() {
    if (!pending_) {
        return; // cancelled since
    }
    pending_ = false;
    emit computed(watcher_.result());
}

} // namespace tessera::views
