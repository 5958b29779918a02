// One side of a comparison: the loaded report, complete and well formed.
#include "reports/Compare.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"

namespace tessera::reports {

void checkSide(const ReportData& s) {
    // A comparison of half a report would report differences that are not
    // there: the first damaged part is the error.
    if (!s.problems.empty()) {
        throw ReportError(s.problems.front());
    }
    if (!s.placement || !s.stepExecutionsLoaded) {
        throw ReportError(s.info.path + ": loaded without what a comparison needs (the "
                                        "variables' placement, the step executions)");
    }
    // Ids are dense from 0 in a well-formed report; anything else is corrupt.
    for (std::size_t i = 0; i < s.programSteps.size(); ++i) {
        if (s.programSteps[i].id.value() != i) {
            throw ReportError(s.info.path + ": the report is corrupt (program step ids are not " +
                              "dense from 0)");
        }
    }
    for (std::size_t i = 0; i < s.computeSets.size(); ++i) {
        if (s.computeSets[i].id.value() != i) {
            throw ReportError(s.info.path + ": the report is corrupt (compute set ids are not " +
                              "dense from 0)");
        }
    }
}

std::shared_ptr<const ReportData> loadSide(const ReportReader& reader) {
    std::shared_ptr<const ReportData> data =
        loadReportData(reader, {}, nullptr, LoadOptions{.placement = true});
    if (!data->stepExecutionsLoaded && data->problems.empty()) {
        reader.stepExecutions(); // throws what kept them from loading
    }
    checkSide(*data);
    return data;
}

} // namespace tessera::reports
