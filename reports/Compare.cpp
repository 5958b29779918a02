// compare(): totals, per-tile memory, program steps and liveness by program
// identity, compute sets and variables by name.
#include "reports/Compare.h"

#include "reports/CompareAlign.h"
#include "reports/CompareDetail.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>

namespace tessera::reports {

namespace {

using detail::addSat;
using detail::addSat64;
using detail::changeOf;
using detail::delta;
using detail::i64;
using detail::mulSat;

constexpr std::size_t kUnmatchedCategory = std::numeric_limits<std::size_t>::max();

std::string ghz(double hz) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g GHz", hz / 1e9);
    return text;
}

std::string kib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g KiB", static_cast<double>(bytes) / 1024.0);
    return text;
}

struct MetricSpec {
    const char* key;
    const char* label;
    const char* unit;
};

// The order of ReportDiff::totals and of `diff --help`.
const std::vector<MetricSpec>& metricSpecs() {
    static const std::vector<MetricSpec> specs = {
        {"cycles", "total cycles", "cycles"},
        {"compute", "compute cycles", "cycles"},
        {"exchange", "exchange cycles", "cycles"},
        {"sync", "sync cycles", "cycles"},
        {"time-ns", "time at the target's clock", "ns"},
        {"memory", "total memory (all tiles, with gaps)", "bytes"},
        {"peak-tile-memory", "peak tile memory", "bytes"},
        {"always-live", "always-live memory (all tiles)", "bytes"},
        {"not-always-live", "not-always-live pools (all tiles)", "bytes"},
        {"liveness-peak", "liveness peak (max over steps of all tiles' not-always-live bytes)",
         "bytes"},
        {"gaps", "gap bytes (all tiles)", "bytes"},
        {"tiles-over-capacity", "tiles over capacity", "count"},
        {"exchange-bytes", "bytes received by tiles (all executions)", "bytes"},
        {"vertices", "vertices", "count"},
        {"program-steps", "program steps", "count"},
        {"executed-steps", "executed steps", "count"},
        {"compute-sets", "compute sets", "count"},
        {"variables", "variables", "count"},
    };
    return specs;
}

// Every total of one report, in metricSpecs() order.
std::vector<std::uint64_t> totalsOf(const ReportData& s) {
    std::uint64_t alwaysLive = 0, pools = 0, gaps = 0;
    for (const TileMemoryEntry& t : s.tileMemory) {
        alwaysLive = addSat(alwaysLive, t.alwaysLiveBytes);
        pools = addSat(pools, t.notAlwaysLivePeakBytes);
        gaps = addSat(gaps, t.gapBytes);
    }
    std::uint64_t livenessPeak = 0, exchangeBytes = 0;
    for (std::size_t i = 0; i < s.programSteps.size(); ++i) {
        livenessPeak = std::max(livenessPeak, s.programSteps[i].notAlwaysLiveBytesSum);
        exchangeBytes = addSat(exchangeBytes, mulSat(s.programSteps[i].bytesInSum,
                                                     s.executionsOf(s.programSteps[i].id)));
    }
    const double ns =
        s.target.clockHz > 0
            ? std::round(static_cast<double>(s.summary.cycles.total) * 1e9 / s.target.clockHz)
            : 0.0;
    const std::uint64_t timeNs = ns >= 9.2e18 || !(ns >= 0)
                                     ? std::numeric_limits<std::uint64_t>::max()
                                     : static_cast<std::uint64_t>(ns);
    const Summary& m = s.summary;
    return {m.cycles.total,
            m.cycles.compute,
            m.cycles.exchange,
            m.cycles.sync,
            timeNs,
            m.memory.totalBytes,
            m.memory.peakTileBytes,
            alwaysLive,
            pools,
            livenessPeak,
            gaps,
            m.memory.tilesOverCapacity,
            exchangeBytes,
            m.program.vertices,
            m.program.steps,
            m.runs.executedSteps,
            m.program.computeSets,
            m.program.variables};
}

SideInfo sideInfo(const ReportData& s) {
    SideInfo info;
    info.path = s.info.path;
    info.workload = s.info.workload;
    info.workloadParameters = s.info.workloadParameters;
    info.target = s.target.name;
    info.tiles = s.target.numTiles;
    info.clockHz = s.target.clockHz;
    info.complete = s.info.complete;
    return info;
}

void addNotes(const ReportData& b, const ReportData& c, ReportDiff& d) {
    auto& notes = d.notes;
    if (!d.tilesComparable) {
        notes.push_back("the targets have different tile counts (" +
                        std::to_string(b.target.numTiles) + " on the baseline, " +
                        std::to_string(c.target.numTiles) +
                        " on the comparison): per-tile memory is not compared, while totals, "
                        "steps, compute sets, liveness sums and variables are compared as usual");
    }
    if (b.target.name != c.target.name) {
        notes.push_back("the targets differ (" + b.target.name + " on the baseline, " +
                        c.target.name + " on the comparison)");
    }
    if (b.target.clockHz != c.target.clockHz) {
        notes.push_back("the clocks differ (" + ghz(b.target.clockHz) + " and " +
                        ghz(c.target.clockHz) +
                        "): cycles count each target's own cycles; time-ns compares time");
    }
    if (b.target.bytesPerTile != c.target.bytesPerTile) {
        notes.push_back("tile memory differs (" + kib(b.target.bytesPerTile) + " and " +
                        kib(c.target.bytesPerTile) + " per tile): memory figures are bytes");
    }
    if (b.info.workload != c.info.workload) {
        notes.push_back("the reports ran different workloads ('" + b.info.workload + "' and '" +
                        c.info.workload + "')");
    } else {
        std::map<std::string, std::pair<std::string, std::string>> params;
        for (const auto& [k, v] : b.info.workloadParameters) {
            params[k].first = v;
        }
        for (const auto& [k, v] : c.info.workloadParameters) {
            params[k].second = v;
        }
        std::string changed;
        for (const auto& [k, v] : params) {
            if (v.first != v.second) {
                changed += (changed.empty() ? "" : ", ") + k + " " +
                           (v.first.empty() ? "(unset)" : v.first) + " -> " +
                           (v.second.empty() ? "(unset)" : v.second);
            }
        }
        if (!changed.empty()) {
            notes.push_back("workload parameters differ: " + changed);
        }
    }
    auto sideNotes = [&](const ReportData& s, const char* side) {
        if (!s.info.complete) {
            notes.push_back(std::string("the ") + side + " is incomplete (" +
                            s.info.incompleteReason +
                            "): its figures cover only what was recorded");
        }
        if (s.summary.memory.outOfMemory) {
            notes.push_back(std::string("the ") + side + " ran out of memory (" +
                            std::to_string(s.summary.memory.tilesOverCapacity) +
                            " tiles over capacity)");
        }
        if (s.summary.verification && !s.summary.verification->passed) {
            notes.push_back(std::string("the ") + side + " failed verification (" +
                            s.summary.verification->detail + ")");
        }
    };
    sideNotes(b, "baseline");
    sideNotes(c, "comparison");
}

void compareTiles(const ReportData& b, const ReportData& c, ReportDiff& d) {
    d.categories = b.categories;
    // Categories are matched by their stable key.
    std::vector<std::size_t> fromComparison(c.categories.size(), kUnmatchedCategory);
    for (std::size_t j = 0; j < c.categories.size(); ++j) {
        for (std::size_t i = 0; i < b.categories.size(); ++i) {
            if (b.categories[i].key == c.categories[j].key) {
                fromComparison[j] = i;
            }
        }
    }
    if (!d.tilesComparable) {
        return;
    }
    std::map<TileId, const TileMemoryEntry*> byTile;
    for (const TileMemoryEntry& t : c.tileMemory) {
        byTile[t.tile] = &t;
    }
    static const TileMemoryEntry kEmpty;
    for (const TileMemoryEntry& tb : b.tileMemory) {
        const auto it = byTile.find(tb.tile);
        const TileMemoryEntry& tc = it == byTile.end() ? kEmpty : *it->second;
        TileMemoryDelta t;
        t.tile = tb.tile;
        t.total = delta(tb.totalIncludingGaps, tc.totalIncludingGaps);
        t.alwaysLive = delta(tb.alwaysLiveBytes, tc.alwaysLiveBytes);
        t.notAlwaysLive = delta(tb.notAlwaysLivePeakBytes, tc.notAlwaysLivePeakBytes);
        t.gaps = delta(tb.gapBytes, tc.gapBytes);
        t.categories.resize(b.categories.size());
        for (std::size_t k = 0; k < b.categories.size() && k < tb.bytesByCategory.size(); ++k) {
            t.categories[k].baseline = i64(tb.bytesByCategory[k]);
        }
        for (std::size_t j = 0; j < fromComparison.size() && j < tc.bytesByCategory.size(); ++j) {
            if (fromComparison[j] != kUnmatchedCategory) {
                t.categories[fromComparison[j]].comparison = i64(tc.bytesByCategory[j]);
            }
        }
        d.tiles.push_back(std::move(t));
    }
}

const ProgramStepEntry* stepOf(const ReportData& s,
                               const std::unordered_map<ProgramNodeId, std::size_t>& nodeIndex,
                               ProgramNodeId nodeId) {
    if (nodeId.isNone()) {
        return nullptr;
    }
    const auto it = nodeIndex.find(nodeId);
    if (it == nodeIndex.end()) {
        return nullptr;
    }
    const StepId step = s.programNodes[it->second].step;
    return step.value() < s.programSteps.size() ? &s.programSteps[step.value()] : nullptr;
}

std::unordered_map<ProgramNodeId, std::size_t> indexNodes(const ReportData& s) {
    std::unordered_map<ProgramNodeId, std::size_t> index;
    for (std::size_t i = 0; i < s.programNodes.size(); ++i) {
        index.emplace(s.programNodes[i].id, i);
    }
    return index;
}

void fillStep(const ReportData& s, const ProgramStepEntry* step, bool baselineSide, StepDelta& row,
              LivenessDelta& live) {
    if (step == nullptr) {
        return;
    }
    const std::uint64_t n = s.executionsOf(step->id);
    auto set = [&](Delta& d, std::uint64_t v) {
        (baselineSide ? d.baseline : d.comparison) = i64(v);
    };
    (baselineSide ? row.baselineStep : row.comparisonStep) = step->id;
    (baselineSide ? live.baselineStep : live.comparisonStep) = step->id;
    set(row.executions, n);
    set(row.cycles, mulSat(step->totalCycles, n));
    set(row.compute, mulSat(step->computePhaseCycles, n));
    set(row.exchange, mulSat(step->exchangePhaseCycles, n));
    set(row.sync, mulSat(step->syncCycles, n));
    set(row.perExecution, step->totalCycles);
    set(live.bytes, step->notAlwaysLiveBytesSum);
    set(live.maxTileBytes, step->notAlwaysLiveBytesMax);
    set(live.liveVariables, step->liveVariableCount);
    row.name = step->name;
    row.kind = step->kind;
    live.name = step->name;
}

void compareSteps(const ReportData& b, const ReportData& c, ReportDiff& d) {
    const auto bIndex = indexNodes(b), cIndex = indexNodes(c);
    std::vector<bool> seenB(b.programSteps.size(), false), seenC(c.programSteps.size(), false);
    auto emit = [&](const std::string& identity, const ProgramStepEntry* sb,
                    const ProgramStepEntry* sc) {
        StepDelta row;
        LivenessDelta live;
        row.identity = live.identity = identity;
        fillStep(b, sb, true, row, live);
        fillStep(c, sc, false, row, live);
        const bool sameStep = row.perExecution.delta() == 0 && row.executions.delta() == 0 &&
                              row.compute.delta() == 0 && row.exchange.delta() == 0 &&
                              row.sync.delta() == 0;
        const bool sameLive = live.bytes.delta() == 0 && live.maxTileBytes.delta() == 0 &&
                              live.liveVariables.delta() == 0;
        row.change = changeOf(sb != nullptr, sc != nullptr, sameStep);
        live.change = changeOf(sb != nullptr, sc != nullptr, sameLive);
        d.steps.push_back(std::move(row));
        d.liveness.push_back(std::move(live));
    };
    for (const detail::AlignedNode& node :
         detail::alignPrograms(b.programNodes, b.programSteps, c.programNodes, c.programSteps)) {
        const ProgramStepEntry* sb = stepOf(b, bIndex, node.baseline);
        const ProgramStepEntry* sc = stepOf(c, cIndex, node.comparison);
        // A step is reported once, even if a corrupt tree names it twice.
        if (sb != nullptr && seenB[sb->id.value()]) {
            sb = nullptr;
        }
        if (sc != nullptr && seenC[sc->id.value()]) {
            sc = nullptr;
        }
        if (sb == nullptr && sc == nullptr) {
            continue;
        }
        if (sb != nullptr) {
            seenB[sb->id.value()] = true;
        }
        if (sc != nullptr) {
            seenC[sc->id.value()] = true;
        }
        if (sb != nullptr && sc != nullptr && sb->kind != sc->kind) {
            emit(node.identity, sb, nullptr); // a different kind of step is not the same step
            emit(node.identity, nullptr, sc);
        } else {
            emit(node.identity, sb, sc);
        }
    }
    // Steps no program node refers to (only in a malformed report).
    for (const ProgramStepEntry& s : b.programSteps) {
        if (!seenB[s.id.value()]) {
            emit("(outside the program tree) " + s.name, &s, nullptr);
        }
    }
    for (const ProgramStepEntry& s : c.programSteps) {
        if (!seenC[s.id.value()]) {
            emit("(outside the program tree) " + s.name, nullptr, &s);
        }
    }
    std::stable_sort(d.steps.begin(), d.steps.end(), [](const StepDelta& x, const StepDelta& y) {
        return x.cycles.delta() > y.cycles.delta();
    });
}

} // namespace

std::optional<double> Delta::percent() const {
    if (baseline == 0) {
        return comparison == 0 ? std::optional<double>(0.0) : std::nullopt;
    }
    return 100.0 * (static_cast<double>(comparison) - static_cast<double>(baseline)) /
           static_cast<double>(baseline);
}

const char* changeName(Change change) {
    switch (change) {
    case Change::Same:
        return "same";
    case Change::Changed:
        return "changed";
    case Change::Added:
        return "added";
    case Change::Removed:
        return "removed";
    }
    return "?";
}

const Figure* ReportDiff::figure(std::string_view key) const {
    for (const Figure& f : totals) {
        if (f.key == key) {
            return &f;
        }
    }
    return nullptr;
}

const std::vector<std::string>& metricNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const MetricSpec& m : metricSpecs()) {
            out.emplace_back(m.key);
        }
        return out;
    }();
    return names;
}

std::optional<Figure> metric(const ReportDiff& diff, std::string_view name) {
    if (const Figure* f = diff.figure(name)) {
        return *f;
    }
    auto sum = [&](const auto& rows, std::string_view what, const char* label) {
        std::optional<Figure> out;
        for (const auto& row : rows) {
            if (row.name == what || row.identity == what) {
                if (!out) {
                    out = Figure{std::string(name),
                                 std::string(label) + " '" + std::string(what) + "'",
                                 "cycles",
                                 {}};
                }
                out->value.baseline = addSat64(out->value.baseline, row.cycles.baseline);
                out->value.comparison = addSat64(out->value.comparison, row.cycles.comparison);
            }
        }
        return out;
    };
    if (name.rfind("step:", 0) == 0) {
        return sum(diff.steps, name.substr(5), "cycles of step");
    }
    if (name.rfind("compute-set:", 0) == 0) {
        return sum(diff.computeSets, name.substr(12), "cycles of compute set");
    }
    return std::nullopt;
}

ReportDiff compare(const Baseline& baseline, const Comparison& comparison) {
    const ReportData& b = baseline.data();
    const ReportData& c = comparison.data();
    ReportDiff d;
    d.baseline = sideInfo(b);
    d.comparison = sideInfo(c);
    d.tilesComparable = b.target.numTiles == c.target.numTiles;
    addNotes(b, c, d);

    const std::vector<std::uint64_t> tb = totalsOf(b), tc = totalsOf(c);
    const auto& specs = metricSpecs();
    for (std::size_t i = 0; i < specs.size(); ++i) {
        d.totals.push_back({specs[i].key, specs[i].label, specs[i].unit, delta(tb[i], tc[i])});
    }
    compareTiles(b, c, d);
    compareSteps(b, c, d);
    detail::compareComputeSets(b, c, d);
    detail::compareVariables(b, c, d);
    return d;
}

} // namespace tessera::reports