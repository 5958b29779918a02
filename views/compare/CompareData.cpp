#include "views/compare/CompareData.h"

#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "views/data/ReportSource.h"

#include <QFileInfo>

namespace tessera::views {

namespace {

void checkReadable(const QString& path, const char* side) {
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable()) {
        throw reports::ReportError(std::string("cannot open the ") + side + " " +
                                   path.toStdString() + ": not a readable file");
    }
}

// Loading one report for the views takes most of the time; each side gets
// half of the progress bar.
LoadProgress scaled(const LoadProgress& progress, int from, const QString& side) {
    if (!progress) {
        return {};
    }
    return [progress, from, side](int percent, const std::string& stage) {
        progress(from + percent * 45 / 100, side.toStdString() + ": " + stage);
    };
}

void checkCancel(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load()) {
        throw LoadCancelled();
    }
}

} // namespace

std::shared_ptr<const CompareData> loadComparison(const QString& baselinePath,
                                                  const QString& comparisonPath,
                                                  const LoadProgress& progress,
                                                  const std::atomic<bool>* cancel) {
    checkReadable(baselinePath, "baseline");
    checkReadable(comparisonPath, "comparison");
    // Each report is opened once: its reader loads the panes' data and the
    // comparison's snapshot, then serves the panes as their source.
    auto baseReader = std::make_unique<reports::ReportReader>(baselinePath.toStdString());
    BaselineReport bv;
    bv.data = loadReportData(*baseReader, scaled(progress, 0, "baseline"), cancel,
                             LoadOptions{.placement = true});
    auto newReader = std::make_unique<reports::ReportReader>(comparisonPath.toStdString());
    ComparisonReport cv;
    cv.data = loadReportData(*newReader, scaled(progress, 45, "comparison"), cancel,
                             LoadOptions{.placement = true});
    checkCancel(cancel);
    if (progress) {
        progress(90, "comparing");
    }
    // The sides are the data the panes draw from (one load per report).
    if (!bv.data->stepExecutionsLoaded && bv.data->problems.empty()) {
        baseReader->stepExecutions(); // throws what kept them from loading
    }
    if (!cv.data->stepExecutionsLoaded && cv.data->problems.empty()) {
        newReader->stepExecutions();
    }
    reports::Baseline baseline(bv.data);
    checkCancel(cancel);
    reports::Comparison comparison(cv.data);
    checkCancel(cancel);
    bv.source = std::make_shared<ReportSource>(std::move(baseReader));
    cv.source = std::make_shared<ReportSource>(std::move(newReader));
    auto data = std::make_shared<const CompareData>(std::move(baseline), std::move(comparison),
                                                    std::move(bv), std::move(cv));
    if (progress) {
        progress(100, "done");
    }
    return data;
}

} // namespace tessera::views
