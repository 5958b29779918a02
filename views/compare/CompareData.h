#pragma once
// What the compare panes draw from: the two sides of a comparison, each a
// reports:: side (Baseline / Comparison, the comparison core's snapshot) and
// the same report opened for the views (ReportData and an on-demand
// ReportSource, for timelines), plus the ReportDiff the core computed from
// them. The side types stay distinct all the way into the panes.
#include "reports/Compare.h"
#include "views/data/ReportData.h"

#include <QString>

#include <atomic>
#include <memory>

namespace tessera::views {

class ReportSource;

// One side as the views see it; Tag keeps a baseline from passing for a
// comparison.
template <class Tag>
struct SideReport {
    std::shared_ptr<const ReportData> data;
    std::shared_ptr<ReportSource> source;
};
using BaselineReport = SideReport<reports::BaselineTag>;
using ComparisonReport = SideReport<reports::ComparisonTag>;

struct CompareData {
    CompareData(reports::Baseline b, reports::Comparison c, BaselineReport bv, ComparisonReport cv)
        : baseline(std::move(b))
        , comparison(std::move(c))
        , diff(reports::compare(baseline, comparison))
        , baselineView(std::move(bv))
        , comparisonView(std::move(cv)) {}

    reports::Baseline baseline;
    reports::Comparison comparison;
    reports::ReportDiff diff;
    BaselineReport baselineView;
    ComparisonReport comparisonView;
};

// Loads both reports, builds the sides and compares them. Throws
// reports::ReportError (one line, naming the file) for a missing or broken
// report and LoadCancelled when `cancel` becomes true; progress(percent,
// stage) is called on the loading thread.
std::shared_ptr<const CompareData> loadComparison(const QString& baselinePath,
                                                  const QString& comparisonPath,
                                                  const LoadProgress& progress = {},
                                                  const std::atomic<bool>* cancel = nullptr);

} // namespace tessera::views
