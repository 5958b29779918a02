#include "views/panes/program/ProgramStatsLoader.h"

#include "views/data/ReportProblem.h"

#include <exception>

namespace tessera::views {

ProgramStatsLoader::ProgramStatsLoader(QObject* parent)
    : QObject(parent) {
    connect(&task_.watcher(), &QFutureWatcher<void>::finished, this, &ProgramStatsLoader::deliver);
}

ProgramStatsLoader::~ProgramStatsLoader() {
    // The worker holds its own references to the data and the source.
    task_.waitForFinished();
}

ComputedProgramStats ProgramStatsLoader::compute(const ReportData& data,
                                                 const ReportSource& source) {
    ComputedProgramStats result;
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
    task_.start(
        [data = std::move(data), source = std::move(source)] { return compute(*data, *source); });
    pending_ = true;
}

void ProgramStatsLoader::deliver() {
    if (!pending_) {
        return; // cancelled since
    }
    pending_ = false;
    emit computed(task_.take());
}

} // namespace tessera::views
