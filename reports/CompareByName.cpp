// Compute sets and variables of two reports, matched by name: the k-th of a
// name with the k-th.
#include "reports/CompareAlign.h"
#include "reports/CompareDetail.h"

namespace tessera::reports::detail {

namespace {

// Calls row(i, j) for every baseline key i (j: the comparison key equal to
// it, or kUnmatched), then row(kUnmatched, j) for every comparison key left.
template <class Row>
void matchKeys(const std::vector<std::string>& bKeys, const std::vector<std::string>& cKeys,
               Row&& row) {
    std::map<std::string, std::size_t> inComparison;
    for (std::size_t j = 0; j < cKeys.size(); ++j) {
        inComparison.emplace(cKeys[j], j);
    }
    std::vector<bool> matched(cKeys.size(), false);
    for (std::size_t i = 0; i < bKeys.size(); ++i) {
        const auto it = inComparison.find(bKeys[i]);
        const std::size_t j = it == inComparison.end() ? kUnmatched : it->second;
        if (j != kUnmatched) {
            matched[j] = true;
        }
        row(i, j);
    }
    for (std::size_t j = 0; j < cKeys.size(); ++j) {
        if (!matched[j]) {
            row(kUnmatched, j);
        }
    }
}

} // namespace

void compareComputeSets(const ReportData& b, const ReportData& c, ReportDiff& d) {
    struct Totals {
        std::uint64_t executions = 0, cycles = 0, compute = 0;
    };
    auto totals = [](const ReportData& s) {
        std::vector<Totals> out(s.computeSets.size());
        for (const ProgramStepEntry& step : s.programSteps) {
            if (step.computeSet.value() < out.size()) { // none() is past the end
                const std::uint64_t n = s.executionsOf(step.id);
                Totals& t = out[step.computeSet.value()];
                t.executions = addSat(t.executions, n);
                t.cycles = addSat(t.cycles, mulSat(step.totalCycles, n));
                t.compute = addSat(t.compute, mulSat(step.computePhaseCycles, n));
            }
        }
        return out;
    };
    const auto name = [](const record::ComputeSetRecord& cs) -> const std::string& {
        return cs.name;
    };
    const auto bKeys = occurrenceKeys(b.computeSets, name);
    const auto cKeys = occurrenceKeys(c.computeSets, name);
    const auto bTotals = totals(b), cTotals = totals(c);
    auto row = [&](std::size_t i, std::size_t j) {
        ComputeSetDelta r;
        r.identity = i != kUnmatched ? bKeys[i] : cKeys[j];
        if (i != kUnmatched) {
            r.name = b.computeSets[i].name;
            r.baselineId = b.computeSets[i].id;
            r.vertices.baseline = i64(b.computeSets[i].vertexCount);
            r.executions.baseline = i64(bTotals[i].executions);
            r.cycles.baseline = i64(bTotals[i].cycles);
            r.compute.baseline = i64(bTotals[i].compute);
        }
        if (j != kUnmatched) {
            r.name = c.computeSets[j].name;
            r.comparisonId = c.computeSets[j].id;
            r.vertices.comparison = i64(c.computeSets[j].vertexCount);
            r.executions.comparison = i64(cTotals[j].executions);
            r.cycles.comparison = i64(cTotals[j].cycles);
            r.compute.comparison = i64(cTotals[j].compute);
        }
        const bool same = r.vertices.delta() == 0 && r.executions.delta() == 0 &&
                          r.cycles.delta() == 0 && r.compute.delta() == 0;
        r.change = changeOf(i != kUnmatched, j != kUnmatched, same);
        d.computeSets.push_back(std::move(r));
    };
    matchKeys(bKeys, cKeys, row);
    std::stable_sort(d.computeSets.begin(), d.computeSets.end(),
                     [](const ComputeSetDelta& x, const ComputeSetDelta& y) {
                         return x.cycles.delta() > y.cycles.delta();
                     });
}

void compareVariables(const ReportData& b, const ReportData& c, ReportDiff& d) {
    // Exchange buffers are compiler temporaries named after steps: left out.
    auto programVariables = [](const ReportData& s) {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < s.variables.size(); ++i) {
            if (!s.variables[i].isExchangeBuffer) {
                out.push_back(i);
            }
        }
        return out;
    };
    const auto bVars = programVariables(b), cVars = programVariables(c);
    auto keysOf = [](const ReportData& s, const std::vector<std::size_t>& list) {
        return occurrenceKeys(
            list, [&](std::size_t i) -> const std::string& { return s.variables[i].name; });
    };
    const auto bKeys = keysOf(b, bVars), cKeys = keysOf(c, cVars);
    auto row = [&](std::size_t i, std::size_t j) {
        VariableDelta r;
        r.identity = i != kUnmatched ? bKeys[i] : cKeys[j];
        const VariableEntry* vb = i != kUnmatched ? &b.variables[bVars[i]] : nullptr;
        const VariableEntry* vc = j != kUnmatched ? &c.variables[cVars[j]] : nullptr;
        if (vb != nullptr) {
            r.name = vb->name;
            r.baselineId = vb->id;
            r.bytes.baseline = i64(vb->totalBytes);
            r.tiles.baseline = vb->numTiles;
        }
        if (vc != nullptr) {
            r.name = vc->name;
            r.comparisonId = vc->id;
            r.bytes.comparison = i64(vc->totalBytes);
            r.tiles.comparison = vc->numTiles;
        }
        if (vb != nullptr && vc != nullptr) {
            r.typeOrShapeChanged = vb->type != vc->type || vb->shape != vc->shape;
            r.alwaysLiveChanged = vb->alwaysLive != vc->alwaysLive;
            r.placementChanged =
                d.tilesComparable && (*b.placement)[bVars[i]] != (*c.placement)[cVars[j]];
        }
        const bool same = r.bytes.delta() == 0 && r.tiles.delta() == 0 && !r.typeOrShapeChanged &&
                          !r.alwaysLiveChanged && !r.placementChanged;
        r.change = changeOf(vb != nullptr, vc != nullptr, same);
        d.variables.push_back(std::move(r));
    };
    matchKeys(bKeys, cKeys, row);
    std::stable_sort(d.variables.begin(), d.variables.end(),
                     [](const VariableDelta& x, const VariableDelta& y) {
                         return x.bytes.delta() > y.bytes.delta();
                     });
}

} // namespace tessera::reports::detail
