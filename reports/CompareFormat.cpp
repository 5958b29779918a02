#include "reports/CompareFormat.h"

#include "reports/JsonWriter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace tessera::reports {

namespace {

std::size_t limit(std::size_t size, std::size_t top) {
    return top == 0 ? size : std::min(size, top);
}

std::string describe(const SideInfo& s) {
    std::string out = s.path + ": ";
    out += s.workload.empty() ? std::string("(no workload)") : s.workload;
    if (!s.workloadParameters.empty()) {
        out += " (";
        for (std::size_t i = 0; i < s.workloadParameters.size(); ++i) {
            out += (i == 0 ? "" : ", ") + s.workloadParameters[i].first + "=" +
                   s.workloadParameters[i].second;
        }
        out += ")";
    }
    char clock[32];
    std::snprintf(clock, sizeof clock, "%.4g GHz", s.clockHz / 1e9);
    out += " on " + s.target + " (" + std::to_string(s.tiles) + " tiles, " + clock + ")";
    if (!s.complete) {
        out += "  INCOMPLETE";
    }
    return out;
}

// One table row: a tag column, the delta columns, then a label.
std::string row(const std::string& tag, const Delta& d, const std::string& label,
                int tagWidth = 8) {
    char text[200];
    std::snprintf(text, sizeof text, "  %-*s %15s %15s %15s %9s  ", tagWidth, tag.c_str(),
                  formatCount(d.baseline).c_str(), formatCount(d.comparison).c_str(),
                  formatCount(d.delta(), true).c_str(), formatPercent(d).c_str());
    return text + label + "\n";
}

std::string header(const char* first, const char* last, int tagWidth = 8) {
    char text[200];
    std::snprintf(text, sizeof text, "  %-*s %15s %15s %15s %9s  %s\n", tagWidth, first, "baseline",
                  "comparison", "delta", "change", last);
    return text;
}

template <class T>
std::vector<const T*> notSame(const std::vector<T>& rows) {
    std::vector<const T*> out;
    for (const T& r : rows) {
        if (r.change != Change::Same) {
            out.push_back(&r);
        }
    }
    return out;
}

template <class T>
std::string counts(const std::vector<T>& rows) {
    const std::size_t added = countChanges(rows, Change::Added);
    const std::size_t removed = countChanges(rows, Change::Removed);
    const std::size_t changed = countChanges(rows, Change::Changed);
    const std::size_t same = countChanges(rows, Change::Same);
    return std::to_string(changed + same) + " matched (" + std::to_string(changed) + " changed), " +
           std::to_string(added) + " added, " + std::to_string(removed) + " removed";
}

std::string more(std::size_t shown, std::size_t total) {
    return shown < total ? "  ... and " + std::to_string(total - shown) + " more\n" : "";
}

// The four numbers of a Delta, inside the object being written.
void deltaFields(JsonWriter& j, const Delta& d) {
    j.key("baseline").value(d.baseline);
    j.key("comparison").value(d.comparison);
    j.key("delta").value(d.delta());
    j.key("percent");
    if (const auto p = d.percent()) {
        j.value(*p);
    } else {
        j.null();
    }
}

void deltaJson(JsonWriter& j, const Delta& d) {
    j.beginObject();
    deltaFields(j, d);
    j.endObject();
}

void deltaJson(JsonWriter& j, const char* key, const Delta& d) {
    j.key(key);
    deltaJson(j, d);
}

template <class Tag>
void idJson(JsonWriter& j, const char* key, record::Typedef<Tag> id) {
    j.key(key);
    if (id.isNone()) {
        j.null();
    } else {
        j.value(id.value());
    }
}

void sideJson(JsonWriter& j, const SideInfo& s) {
    j.beginObject();
    j.key("path").value(s.path);
    j.key("workload").value(s.workload);
    j.key("parameters").beginObject();
    for (const auto& [k, v] : s.workloadParameters) {
        j.key(k).value(v);
    }
    j.endObject();
    j.key("target").value(s.target);
    j.key("tiles").value(s.tiles);
    j.key("clock_hz").value(s.clockHz);
    j.key("complete").value(s.complete);
    j.endObject();
}

template <class T>
void countsJson(JsonWriter& j, const std::vector<T>& rows) {
    j.key("matched").value(
        std::uint64_t{countChanges(rows, Change::Same) + countChanges(rows, Change::Changed)});
    j.key("changed").value(std::uint64_t{countChanges(rows, Change::Changed)});
    j.key("added").value(std::uint64_t{countChanges(rows, Change::Added)});
    j.key("removed").value(std::uint64_t{countChanges(rows, Change::Removed)});
}

} // namespace

std::string formatCount(std::int64_t value, bool sign) {
    const bool negative = value < 0;
    // Magnitude without overflowing on INT64_MIN.
    const std::uint64_t magnitude = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(value)
                                             : static_cast<std::uint64_t>(value);
    const std::string digits = std::to_string(magnitude);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    if (negative) {
        return "-" + out;
    }
    return sign && value > 0 ? "+" + out : out;
}

std::string formatPercent(const Delta& delta) {
    const auto p = delta.percent();
    if (!p) {
        return "new";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f%%", *p);
    return *p == 0 ? std::string("0.0%") : std::string(text);
}

std::string formatDiffText(const ReportDiff& d, const DiffFormat& format) {
    std::string out;
    out += "Baseline    " + describe(d.baseline) + "\n";
    out += "Comparison  " + describe(d.comparison) + "\n";
    if (!d.notes.empty()) {
        out += "\nNotes\n";
        for (const std::string& note : d.notes) {
            out += "  - " + note + "\n";
        }
    }

    out += "\nTotals\n" + header("metric", "unit", 19);
    for (const Figure& f : d.totals) {
        out += row(f.key, f.value, f.unit, 19);
    }

    const auto steps = notSame(d.steps);
    out += "\nProgram steps by identity: " + counts(d.steps) +
           "; cycles over all executions, largest regressions first\n";
    if (!steps.empty()) {
        out += header("", "step (executions)");
        const std::size_t n = limit(steps.size(), format.top);
        for (std::size_t i = 0; i < n; ++i) {
            const StepDelta& s = *steps[i];
            std::string label = s.name.empty() ? s.identity : s.name;
            label += " (" + formatCount(s.executions.baseline) + " -> " +
                     formatCount(s.executions.comparison) + ")";
            out += row(changeName(s.change), s.cycles, label);
        }
        out += more(n, steps.size());
    }

    const auto sets = notSame(d.computeSets);
    out += "\nCompute sets: " + counts(d.computeSets) + "; cycles, largest regressions first\n";
    if (!sets.empty()) {
        out += header("", "compute set (vertices)");
        const std::size_t n = limit(sets.size(), format.top);
        for (std::size_t i = 0; i < n; ++i) {
            const ComputeSetDelta& c = *sets[i];
            out += row(changeName(c.change), c.cycles,
                       c.identity + " (" + formatCount(c.vertices.baseline) + " -> " +
                           formatCount(c.vertices.comparison) + ")");
        }
        out += more(n, sets.size());
    }

    if (d.tilesComparable) {
        std::vector<const TileMemoryDelta*> tiles;
        std::size_t grew = 0, shrank = 0;
        for (const TileMemoryDelta& t : d.tiles) {
            if (t.total.delta() != 0) {
                tiles.push_back(&t);
                (t.total.delta() > 0 ? grew : shrank) += 1;
            }
        }
        std::stable_sort(tiles.begin(), tiles.end(), [](const auto* x, const auto* y) {
            return x->total.delta() > y->total.delta();
        });
        out += "\nTile memory: " + std::to_string(d.tiles.size()) + " tiles, " +
               std::to_string(grew) + " grew, " + std::to_string(shrank) +
               " shrank; bytes with gaps, largest growth first\n";
        if (!tiles.empty()) {
            out += header("", "tile");
            const std::size_t n = limit(tiles.size(), format.top);
            for (std::size_t i = 0; i < n; ++i) {
                out += row("", tiles[i]->total, "tile " + std::to_string(tiles[i]->tile.value()));
            }
            out += more(n, tiles.size());
        }
    } else {
        out += "\nTile memory: not compared per tile (the tile counts differ)\n";
    }

    std::vector<const LivenessDelta*> live;
    for (const LivenessDelta& l : d.liveness) {
        if (l.bytes.delta() != 0 || l.change == Change::Added || l.change == Change::Removed) {
            live.push_back(&l);
        }
    }
    std::stable_sort(live.begin(), live.end(), [](const auto* x, const auto* y) {
        return x->bytes.delta() > y->bytes.delta();
    });
    out += "\nLiveness by program step: not-always-live bytes of all tiles; " +
           std::to_string(live.size()) + " of " + std::to_string(d.liveness.size()) +
           " steps differ, largest growth first\n";
    if (!live.empty()) {
        out += header("", "step");
        const std::size_t n = limit(live.size(), format.top);
        for (std::size_t i = 0; i < n; ++i) {
            out += row(changeName(live[i]->change), live[i]->bytes,
                       live[i]->name.empty() ? live[i]->identity : live[i]->name);
        }
        out += more(n, live.size());
    }

    const auto vars = notSame(d.variables);
    out += "\nVariables: " + counts(d.variables) + "; bytes over all tiles, largest growth first\n";
    if (!vars.empty()) {
        out += header("", "variable");
        const std::size_t n = limit(vars.size(), format.top);
        for (std::size_t i = 0; i < n; ++i) {
            const VariableDelta& v = *vars[i];
            std::string label = v.identity;
            if (v.typeOrShapeChanged) {
                label += "  [type/shape]";
            }
            if (v.alwaysLiveChanged) {
                label += "  [always-live]";
            }
            if (v.placementChanged) {
                label += "  [placement]";
            }
            if (v.tiles.delta() != 0 && v.change == Change::Changed) {
                label += "  [tiles " + formatCount(v.tiles.baseline) + " -> " +
                         formatCount(v.tiles.comparison) + "]";
            }
            out += row(changeName(v.change), v.bytes, label);
        }
        out += more(n, vars.size());
    }
    return out;
}

std::string formatDiffJson(const ReportDiff& d, const DiffFormat& format,
                           const std::function<void(JsonWriter&)>& extra) {
    JsonWriter j;
    j.beginObject();
    j.key("baseline");
    sideJson(j, d.baseline);
    j.key("comparison");
    sideJson(j, d.comparison);
    j.key("notes").beginArray();
    for (const std::string& note : d.notes) {
        j.value(note);
    }
    j.endArray();
    j.key("tiles_comparable").value(d.tilesComparable);

    j.key("totals").beginObject();
    for (const Figure& f : d.totals) {
        j.key(f.key).beginObject();
        j.key("label").value(f.label);
        j.key("unit").value(f.unit);
        deltaFields(j, f.value);
        j.endObject();
    }
    j.endObject();

    j.key("steps").beginObject();
    countsJson(j, d.steps);
    j.key("rows").beginArray();
    for (std::size_t i = 0; i < limit(d.steps.size(), format.top); ++i) {
        const StepDelta& s = d.steps[i];
        j.beginObject();
        j.key("identity").value(s.identity);
        j.key("name").value(s.name);
        j.key("kind").value(record::programKindName(s.kind));
        j.key("change").value(changeName(s.change));
        idJson(j, "baseline_step", s.baselineStep);
        idJson(j, "comparison_step", s.comparisonStep);
        deltaJson(j, "executions", s.executions);
        deltaJson(j, "cycles", s.cycles);
        deltaJson(j, "compute", s.compute);
        deltaJson(j, "exchange", s.exchange);
        deltaJson(j, "sync", s.sync);
        deltaJson(j, "cycles_per_execution", s.perExecution);
        j.endObject();
    }
    j.endArray().endObject();

    j.key("compute_sets").beginObject();
    countsJson(j, d.computeSets);
    j.key("rows").beginArray();
    for (std::size_t i = 0; i < limit(d.computeSets.size(), format.top); ++i) {
        const ComputeSetDelta& c = d.computeSets[i];
        j.beginObject();
        j.key("identity").value(c.identity);
        j.key("name").value(c.name);
        j.key("change").value(changeName(c.change));
        idJson(j, "baseline_id", c.baselineId);
        idJson(j, "comparison_id", c.comparisonId);
        deltaJson(j, "vertices", c.vertices);
        deltaJson(j, "executions", c.executions);
        deltaJson(j, "cycles", c.cycles);
        deltaJson(j, "compute", c.compute);
        j.endObject();
    }
    j.endArray().endObject();

    j.key("liveness").beginObject();
    j.key("rows").beginArray();
    for (std::size_t i = 0; i < limit(d.liveness.size(), format.top); ++i) {
        const LivenessDelta& l = d.liveness[i];
        j.beginObject();
        j.key("identity").value(l.identity);
        j.key("name").value(l.name);
        j.key("change").value(changeName(l.change));
        idJson(j, "baseline_step", l.baselineStep);
        idJson(j, "comparison_step", l.comparisonStep);
        deltaJson(j, "bytes", l.bytes);
        deltaJson(j, "max_tile_bytes", l.maxTileBytes);
        deltaJson(j, "live_variables", l.liveVariables);
        j.endObject();
    }
    j.endArray().endObject();

    j.key("tiles").beginObject();
    j.key("categories").beginArray();
    for (const MemoryCategoryEntry& c : d.categories) {
        j.value(c.key);
    }
    j.endArray();
    j.key("rows").beginArray();
    for (std::size_t i = 0; i < limit(d.tiles.size(), format.top); ++i) {
        const TileMemoryDelta& t = d.tiles[i];
        j.beginObject();
        j.key("tile").value(t.tile.value());
        deltaJson(j, "total", t.total);
        deltaJson(j, "always_live", t.alwaysLive);
        deltaJson(j, "not_always_live", t.notAlwaysLive);
        deltaJson(j, "gaps", t.gaps);
        j.key("categories").beginObject();
        for (std::size_t k = 0; k < t.categories.size() && k < d.categories.size(); ++k) {
            j.key(d.categories[k].key);
            deltaJson(j, t.categories[k]);
        }
        j.endObject();
        j.endObject();
    }
    j.endArray().endObject();

    j.key("variables").beginObject();
    countsJson(j, d.variables);
    j.key("rows").beginArray();
    for (std::size_t i = 0; i < limit(d.variables.size(), format.top); ++i) {
        const VariableDelta& v = d.variables[i];
        j.beginObject();
        j.key("identity").value(v.identity);
        j.key("name").value(v.name);
        j.key("change").value(changeName(v.change));
        idJson(j, "baseline_id", v.baselineId);
        idJson(j, "comparison_id", v.comparisonId);
        deltaJson(j, "bytes", v.bytes);
        deltaJson(j, "tiles", v.tiles);
        j.key("type_or_shape_changed").value(v.typeOrShapeChanged);
        j.key("always_live_changed").value(v.alwaysLiveChanged);
        j.key("placement_changed").value(v.placementChanged);
        j.endObject();
    }
    j.endArray().endObject();

    if (extra) {
        extra(j);
    }
    j.endObject();
    return j.str();
}

} // namespace tessera::reports
