// tessera-cli diff BASE.tsr NEW.tsr [--json] [--fail-on METRIC:+N%|+N]... [--top N]
#include "Commands.h"
#include "Output.h"
#include "reports/Compare.h"
#include "reports/CompareFormat.h"
#include "reports/JsonWriter.h"
#include "reports/ReportReader.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace tessera::cli {

namespace {

// One --fail-on bound: the metric may grow by at most `bound` (absolute, in
// the metric's unit, or percent of the baseline).
struct Threshold {
    std::string text; // as the user wrote it
    std::string metric;
    double bound = 0;
    bool percent = false;
};

Threshold parseThreshold(const std::string& text) {
    const auto colon = text.rfind(':');
    const auto bad = [&](const std::string& why) {
        return UsageError("--fail-on '" + text + "': " + why +
                          " (expected METRIC:+N% or METRIC:+N, see 'tessera-cli diff --help')");
    };
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
        throw bad("no bound");
    }
    Threshold t;
    t.text = text;
    t.metric = text.substr(0, colon);
    std::string bound = text.substr(colon + 1);
    if (!bound.empty() && bound.back() == '%') {
        t.percent = true;
        bound.pop_back();
    }
    if (!bound.empty() && bound.front() == '+') {
        bound.erase(0, 1);
    }
    std::size_t used = 0;
    try {
        t.bound = std::stod(bound, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (bound.empty() || used != bound.size() || !std::isfinite(t.bound) || t.bound < 0) {
        throw bad("'" + text.substr(colon + 1) + "' is not a growth bound");
    }
    const bool named = t.metric.rfind("step:", 0) == 0 || t.metric.rfind("compute-set:", 0) == 0;
    bool known = named;
    for (const std::string& m : reports::metricNames()) {
        known = known || m == t.metric;
    }
    if (!known) {
        throw bad("unknown metric '" + t.metric + "'");
    }
    return t;
}

struct Outcome {
    Threshold threshold;
    reports::Figure figure;
    bool failed = false;
};

std::string formatBound(const Threshold& t) {
    char text[48];
    std::snprintf(text, sizeof text, t.percent ? "+%g%%" : "+%.0f", t.bound);
    return text;
}

int diff(const ParsedArgs& args) {
    std::vector<Threshold> thresholds;
    for (const std::string& text : args.values("--fail-on")) {
        thresholds.push_back(parseThreshold(text));
    }
    const bool json = args.has("--json");
    reports::DiffFormat format;
    format.top = json ? 0 : 20;
    if (args.has("--top")) {
        const std::string text = args.value("--top");
        std::size_t used = 0;
        unsigned long n = 0;
        try {
            n = std::stoul(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (text.empty() || used != text.size() || text.front() == '-') {
            throw UsageError("option '--top' expects a number, not '" + text + "'");
        }
        format.top = n;
    }

    const reports::ReportReader baseReader(args.positionals[0]);
    const reports::ReportReader newReader(args.positionals[1]);
    const reports::Baseline baseline(baseReader);
    const reports::Comparison comparison(newReader);
    const reports::ReportDiff result = reports::compare(baseline, comparison);

    // Every threshold is resolved before anything is printed, so a metric
    // that names nothing is an input error with no half output.
    std::vector<Outcome> outcomes;
    for (const Threshold& t : thresholds) {
        const std::optional<reports::Figure> figure = reports::metric(result, t.metric);
        if (!figure) {
            throw UsageError("--fail-on '" + t.text + "': neither report has a " +
                             (t.metric.rfind("step:", 0) == 0 ? "program step" : "compute set") +
                             " named '" + t.metric.substr(t.metric.find(':') + 1) + "'");
        }
        Outcome o{t, *figure, false};
        const std::int64_t growth = figure->value.delta();
        if (t.percent) {
            const auto p = figure->value.percent();
            o.failed = p ? *p > t.bound : growth > 0; // from 0 to anything is unbounded growth
        } else {
            o.failed = static_cast<double>(growth) > t.bound;
        }
        outcomes.push_back(std::move(o));
    }

    if (json) {
        const std::string text =
            reports::formatDiffJson(result, format, [&](reports::JsonWriter& j) {
                j.key("thresholds").beginArray();
                for (const Outcome& o : outcomes) {
                    j.beginObject();
                    j.key("metric").value(o.threshold.metric);
                    j.key("bound").value(formatBound(o.threshold));
                    j.key("baseline").value(o.figure.value.baseline);
                    j.key("comparison").value(o.figure.value.comparison);
                    j.key("delta").value(o.figure.value.delta());
                    j.key("percent");
                    if (const auto p = o.figure.value.percent()) {
                        j.value(*p);
                    } else {
                        j.null();
                    }
                    j.key("failed").value(o.failed);
                    j.endObject();
                }
                j.endArray();
            });
        printText(text);
    } else {
        printText(reports::formatDiffText(result, format));
        if (!outcomes.empty()) {
            print("\nThresholds\n");
            for (const Outcome& o : outcomes) {
                print("  %-6s %s grew %s (%s), bound %s\n", o.failed ? "FAILED" : "ok",
                      o.threshold.metric.c_str(),
                      reports::formatCount(o.figure.value.delta(), true).c_str(),
                      reports::formatPercent(o.figure.value).c_str(),
                      formatBound(o.threshold).c_str());
            }
        }
    }
    flushStandardOutput();

    int failures = 0;
    for (const Outcome& o : outcomes) {
        if (o.failed) {
            ++failures;
            std::fprintf(stderr,
                         "tessera-cli: threshold exceeded: %s grew by %s (%s, from %s to %s), "
                         "over the bound %s\n",
                         o.threshold.metric.c_str(),
                         reports::formatCount(o.figure.value.delta(), true).c_str(),
                         reports::formatPercent(o.figure.value).c_str(),
                         reports::formatCount(o.figure.value.baseline).c_str(),
                         reports::formatCount(o.figure.value.comparison).c_str(),
                         formatBound(o.threshold).c_str());
        }
    }
    return failures > 0 ? kExitFailed : kExitOk;
}

std::string metricHelp() {
    std::string out;
    std::string line = " ";
    for (const std::string& m : reports::metricNames()) {
        if (line.size() + m.size() + 2 > 78) {
            out += line + "\n";
            line = " ";
        }
        line += " " + m + ",";
    }
    return out + line + "\n  step:NAME, compute-set:NAME";
}

} // namespace

Command diffCommand() {
    CommandSpec spec;
    spec.name = "diff";
    spec.summary = "Compare two reports: totals, tile memory, liveness, steps and compute sets";
    spec.synopsis = "BASE.tsr NEW.tsr [--json] [--fail-on METRIC:+N%|+N]... [--top N]";
    spec.description =
        "Prints the totals of both reports with their deltas, then the program steps and\n"
        "compute sets whose cycles changed (largest regressions first), per-tile memory,\n"
        "liveness per program step and variables. Steps are matched by their place in the\n"
        "program tree (kind and name from the root), so an inserted step shows as one\n"
        "added row. Cycles of a step are summed over its executions. Reports of targets\n"
        "with different tile counts are compared where they can be; the notes say what\n"
        "is not compared.\n\n"
        "--fail-on METRIC:+N% fails (exit 1) when METRIC grows by more than N percent of\n"
        "the baseline; METRIC:+N when it grows by more than N (cycles, bytes, ns or a\n"
        "count). Each failure is one line on stderr. Metrics:\n" +
        metricHelp() +
        "\n(cycles of the program steps or compute sets of that name, over all executions).\n"
        "Example: --fail-on cycles:+5% --fail-on peak-tile-memory:+4096";
    spec.options = {
        {"--json", "", "", "print the comparison as JSON (every row; see docs/report-format.md)"},
        {"--fail-on", "", "METRIC:+N%|+N", "exit 1 when METRIC grows past the bound", true},
        {"--top", "", "N", "rows per list (default 20 in text, all in JSON; 0: all)"},
    };
    spec.minPositionals = spec.maxPositionals = 2;
    spec.positionalNames = "two report files (BASE.tsr NEW.tsr)";
    return {spec, diff};
}

} // namespace tessera::cli
