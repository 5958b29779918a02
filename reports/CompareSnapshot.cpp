// Loading one side of a comparison: everything compare() needs, read once.
#include "reports/Compare.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"

#include <algorithm>

namespace tessera::reports {

ReportSnapshot loadSnapshot(const ReportReader& reader) {
    ReportSnapshot s;
    s.info = reader.info();
    s.target = reader.target();
    s.summary = reader.summary();
    s.categories = reader.memoryCategories();
    s.tiles = reader.tileMemory();
    s.nodes = reader.programNodes();
    s.steps = reader.programSteps();
    s.computeSets = reader.computeSets();

    // Ids are dense from 0 in a well-formed report; anything else is corrupt.
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        if (s.steps[i].id != i) {
            throw ReportError(s.info.path + ": the report is corrupt (program step ids are not " +
                              "dense from 0)");
        }
    }
    for (std::size_t i = 0; i < s.computeSets.size(); ++i) {
        if (s.computeSets[i].id != i) {
            throw ReportError(s.info.path + ": the report is corrupt (compute set ids are not " +
                              "dense from 0)");
        }
    }

    // Executions per program step (ids are dense from 0, checked above).
    s.executions.assign(s.steps.size(), 0);
    for (const auto& [step, count] : reader.stepExecutions()) {
        s.executions[step] = count; // the reader checked the step exists
    }

    s.livenessSum.assign(s.steps.size(), 0);
    for (const ProgramStepEntry& step : s.steps) {
        const StepTiles tiles = reader.stepTiles(step.id);
        std::uint64_t sum = 0;
        for (const std::uint32_t bytes : tiles.notAlwaysLiveBytes) {
            sum += bytes;
        }
        s.livenessSum[step.id] = sum;
    }

    s.variables = reader.variables();
    s.placement.reserve(s.variables.size());
    for (const VariableEntry& v : s.variables) {
        auto tiles = v.isExchangeBuffer ? decltype(reader.variableTiles(v.id)){}
                                        : reader.variableTiles(v.id);
        std::sort(tiles.begin(), tiles.end());
        s.placement.push_back(std::move(tiles));
    }
    return s;
}

} // namespace tessera::reports
