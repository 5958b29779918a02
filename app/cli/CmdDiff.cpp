// tessera-cli diff BASE.tsr NEW.tsr [--json] [--fail-on METRIC:+N%|+N]... [--top N]
#include "Commands.h"
#include "InputErrors.h"
#include "Output.h"
#include "reports/Compare.h"
#include "reports/CompareFormat.h"
#include "reports/JsonWriter.h"
#include "reports/ReportReader.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <string_view>

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

constexpr std::uint64_t kMaxTop = 1000000000;

// The largest bound: no metric (an int64 in the report) can grow further.
constexpr std::uint64_t kMaxBound = 9223372036854775807ull;

// A bound is ['+'] DIGITS ['.' DIGITS] ['%']: "+5%", "2.5%", "+4096", "0".
// Anything else ("+ 5%", "+0x10", "+-0", "1e3", "5.") is refused, as is an
// integer part no metric could reach.
bool parseBound(std::string text, Threshold& t, std::string& why) {
    if (!text.empty() && text.back() == '%') {
        t.percent = true;
        text.pop_back();
    }
    if (!text.empty() && text.front() == '+') {
        text.erase(0, 1);
    }
    const auto digits = [](std::string_view s) {
        return !s.empty() &&
               std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto dot = text.find('.');
    const std::string whole = text.substr(0, dot);
    if (!digits(whole) || (dot != std::string::npos && !digits(text.substr(dot + 1)))) {
        why = "is not a growth bound";
        return false;
    }
    std::uint64_t integer = 0;
    const auto [ptr, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), integer);
    if (ec != std::errc() || integer > kMaxBound) {
        why = "is larger than any metric can grow (at most " + std::to_string(kMaxBound) + ")";
        return false;
    }
    double value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    t.bound = value;
    return true;
}

Threshold parseThreshold(const std::string& text) {
    const auto colon = text.rfind(':');
    const auto bad = [&](const std::string& why) {
        return UsageError("--fail-on '" + text + "': " + why +
                          " (expected METRIC:+N% or METRIC:+N, N a decimal number such as 5 or "
                          "2.5; see 'tessera-cli diff --help')");
    };
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
        throw bad("no bound");
    }
    Threshold t;
    t.text = text;
    t.metric = text.substr(0, colon);
    std::string why;
    if (!parseBound(text.substr(colon + 1), t, why)) {
        throw bad("'" + text.substr(colon + 1) + "' " + why);
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
        format.top = parseCount("--top", args.value("--top"), 0, kMaxTop);
    }

    // An error names the report and which side it is.
    const std::string& basePath = args.positionals[0];
    const std::string& newPath = args.positionals[1];
    const reports::Baseline baseline = readingInput(basePath, "baseline", [&] {
        const reports::ReportReader reader(basePath);
        return reports::Baseline(reader);
    });
    const reports::Comparison comparison = readingInput(newPath, "comparison", [&] {
        const reports::ReportReader reader(newPath);
        return reports::Comparison(reader);
    });
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
        "Errors name the report and its side (\"baseline BASE.tsr: ...\").\n"
        "Prints the totals of both reports with their deltas, then the program steps and\n"
        "compute sets whose cycles changed (largest regressions first), per-tile memory,\n"
        "liveness per program step and variables. Steps are matched by their place in the\n"
        "program tree (kind and name from the root), so an inserted step shows as one\n"
        "added row. Cycles of a step are summed over its executions. Reports of targets\n"
        "with different tile counts are compared where they can be; the notes say what\n"
        "is not compared.\n\n"
        "--fail-on METRIC:+N% fails (exit 1) when METRIC grows by more than N percent of\n"
        "the baseline; METRIC:+N when it grows by more than N (cycles, bytes, ns or a\n"
        "count). N is a decimal number: digits, optionally a '.' and more digits (5, 2.5,\n"
        "4096); the '+' may be left out. Anything else (a space, a sign, 0x, an exponent,\n"
        "more than 9223372036854775807) is a usage error (exit 2). Each failure is one\n"
        "line on stderr. Metrics:\n" +
        metricHelp() +
        "\n(cycles of the program steps or compute sets of that name, over all executions).\n"
        "Example: --fail-on cycles:+5% --fail-on peak-tile-memory:+4096";
    spec.options = {
        {"--json", "", "", "print the comparison as JSON (every row; see docs/report-format.md)"},
        {"--fail-on", "", "METRIC:+N%|+N", "exit 1 when METRIC grows past the bound", true},
        {"--top", "", "N",
         "rows per list, 0 to 1000000000 (default 20 in text, all in JSON; 0: all)"},
    };
    spec.minPositionals = spec.maxPositionals = 2;
    spec.positionalNames = "two report files (BASE.tsr NEW.tsr)";
    return {spec, diff};
}

} // namespace tessera::cli
