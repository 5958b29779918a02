#pragma once
// The comparison core: one report against another, as plain structs. Both
// `tessera-cli diff` and the GUI's compare mode use this and nothing else, so
// they agree on every number.
//
// The two sides are distinct types, Baseline and Comparison, so they cannot be
// swapped by accident: compare(Baseline, Comparison) is the only order that
// compiles. Each side holds the loaded report (ReportData, the structure the
// panes draw from, with the variables' placement); building a side from a
// reader reads the database (do it on a worker thread in the GUI), compare()
// itself never touches SQLite.
//
// Program steps, liveness and compute sets are matched by PROGRAM IDENTITY,
// not by id: the program trees are aligned top-down, siblings by a diff of
// their labels (kind and name) and subtree contents, so one inserted step
// shows as one added row and does not shift every later row. See
// docs/report-format.md ("Comparing reports") for the rules.
#include "reports/ReportData.h"
#include "reports/ReportTypes.h"
#include "reports/Summary.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::reports {

class ReportReader;

// Loads one report as a comparison's side: with its placement, complete and
// well formed (ids dense from 0). Throws ReportError (one line) otherwise.
std::shared_ptr<const ReportData> loadSide(const ReportReader& reader);
// Checks data loaded elsewhere (with LoadOptions::placement) the same way.
void checkSide(const ReportData& data);

// One side of a comparison. The tag makes Baseline and Comparison different
// types; the explicit constructors keep a reader or snapshot from silently
// becoming either.
template <class Tag>
class ReportSide {
public:
    explicit ReportSide(const ReportReader& reader)
        : data_(loadSide(reader)) {}
    explicit ReportSide(std::shared_ptr<const ReportData> data)
        : data_(std::move(data)) {
        checkSide(*data_);
    }

    const ReportData& data() const { return *data_; }
    const std::shared_ptr<const ReportData>& shared() const { return data_; }

private:
    std::shared_ptr<const ReportData> data_;
};

struct BaselineTag;
struct ComparisonTag;
using Baseline = ReportSide<BaselineTag>;
using Comparison = ReportSide<ComparisonTag>;

// One quantity on both sides. Positive delta: the comparison is larger.
struct Delta {
    std::int64_t baseline = 0;
    std::int64_t comparison = 0;

    std::int64_t delta() const { return comparison - baseline; }
    // 100 × delta / baseline; 0 when both are 0; none when only the baseline is 0.
    std::optional<double> percent() const;
    bool operator==(const Delta&) const = default;
};

// A headline figure. `key` is its stable name: the JSON key and the METRIC of
// `tessera-cli diff --fail-on` (see metricNames()).
struct Figure {
    std::string key;   // "cycles", "peak-tile-memory", ...
    std::string label; // for people
    std::string unit;  // "cycles", "bytes", "ns" or "count"
    Delta value;
};

enum class Change : std::uint8_t {
    Same,    // matched, every compared number equal
    Changed, // matched, some number differs
    Added,   // only in the comparison
    Removed, // only in the baseline
};
const char* changeName(Change change); // "same", "changed", "added", "removed"

struct SideInfo {
    std::string path;
    std::string workload;
    std::vector<std::pair<std::string, std::string>> workloadParameters;
    std::string target;
    std::uint32_t tiles = 0;
    double clockHz = 0;
    bool complete = true;
};

struct TileMemoryDelta {
    TileId tile;
    Delta total; // including gaps
    Delta alwaysLive;
    Delta notAlwaysLive; // the shared pool (its liveness peak)
    Delta gaps;
    std::vector<Delta> categories; // indexed like ReportDiff::categories
};

// A program step matched by identity. Cycles are sums over all executions (a
// step inside a Repeat runs many times); perExecution is one run of it.
struct StepDelta {
    std::string
        identity;     // path in the program tree, e.g. "Sequence > Block:fwd > Execute:fwd/relu"
    std::string name; // the step's name
    record::ProgramKind kind = record::ProgramKind::Execute;
    Change change = Change::Same;
    StepId baselineStep = StepId::none(); // program step ids on each side
    StepId comparisonStep = StepId::none();
    Delta executions;
    Delta cycles;
    Delta compute; // compute phases, summed over executions
    Delta exchange;
    Delta sync;
    Delta perExecution;
};

// A compute set matched by name (the k-th of a name with the k-th).
struct ComputeSetDelta {
    std::string identity; // name, with "#k" for the k-th repeat of a name (k ≥ 1)
    std::string name;
    Change change = Change::Same;
    ComputeSetId baselineId = ComputeSetId::none();
    ComputeSetId comparisonId = ComputeSetId::none();
    Delta vertices;
    Delta executions; // executions of the steps that run it
    Delta cycles;     // their cycles, summed over executions
    Delta compute;    // their compute phases, summed over executions
};

// Liveness at one program step, the steps aligned by program identity.
struct LivenessDelta {
    std::string identity;
    std::string name;
    Change change = Change::Same;
    StepId baselineStep = StepId::none();
    StepId comparisonStep = StepId::none();
    Delta bytes;        // Σ over tiles of not-always-live bytes at the step
    Delta maxTileBytes; // the largest tile's
    Delta liveVariables;
};

// A variable matched by name (the k-th of a name with the k-th); exchange
// buffers (compiler temporaries) are left out.
struct VariableDelta {
    std::string identity;
    std::string name;
    Change change = Change::Same;
    VariableId baselineId = VariableId::none();
    VariableId comparisonId = VariableId::none();
    Delta bytes; // over all tiles
    Delta tiles; // tiles holding some of it
    bool typeOrShapeChanged = false;
    bool alwaysLiveChanged = false;
    bool placementChanged = false; // bytes per tile differ (only when tile counts match)
};

struct ReportDiff {
    SideInfo baseline;
    SideInfo comparison;
    // What could not be compared, or needs care, in sentences for people
    // (tile counts differ, targets or clocks differ, a report is incomplete...).
    std::vector<std::string> notes;
    bool tilesComparable = true; // same tile count: per-tile memory is compared

    std::vector<Figure> totals;                  // in metricNames() order
    std::vector<MemoryCategoryEntry> categories; // the baseline's memory categories
    std::vector<TileMemoryDelta> tiles;          // every tile, when tilesComparable
    std::vector<StepDelta> steps;                // largest regression (cycles) first
    std::vector<ComputeSetDelta> computeSets;    // largest regression (cycles) first
    std::vector<LivenessDelta> liveness;         // program order
    std::vector<VariableDelta> variables;        // largest growth (bytes) first

    const Figure* figure(std::string_view key) const; // nullptr if unknown
};

ReportDiff compare(const Baseline& baseline, const Comparison& comparison);
// A swapped call does not compile.
ReportDiff compare(const Comparison&, const Baseline&) = delete;

// The names of ReportDiff::totals, in order (the --fail-on metrics).
const std::vector<std::string>& metricNames();

// A figure by metric name: a total's key, or "step:NAME" (cycles summed over
// the program steps called NAME, or with that identity) or "compute-set:NAME".
// None when the name is unknown or matches nothing on either side.
std::optional<Figure> metric(const ReportDiff& diff, std::string_view name);

template <class T>
std::size_t countChanges(const std::vector<T>& rows, Change change) {
    std::size_t n = 0;
    for (const T& row : rows) {
        n += row.change == change ? 1 : 0;
    }
    return n;
}

} // namespace tessera::reports
