#include "reports/Summary.h"

#include "reports/JsonWriter.h"

#include <cstdio>

namespace tessera::reports {

namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%",
                  whole == 0 ? 0.0 : 100.0 * double(part) / double(whole));
    return text;
}

// 12345678 -> "12,345,678": cycle counts people can read at a glance.
std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return out;
}

std::string bytes(std::uint64_t n) {
    char text[32];
    if (n >= 1024ull * 1024) {
        std::snprintf(text, sizeof text, "%.2f MiB", double(n) / (1024.0 * 1024.0));
    } else if (n >= 1024) {
        std::snprintf(text, sizeof text, "%.1f KiB", double(n) / 1024.0);
    } else {
        std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(n));
    }
    return text;
}

std::string line(const char* label, const std::string& value) {
    char head[32];
    std::snprintf(head, sizeof head, "  %-16s", label);
    return head + value + "\n";
}

} // namespace

std::string formatText(const Summary& s) {
    std::string out;
    out += "Report   " + s.report.path +
           (s.report.complete ? "" : "  (INCOMPLETE: the capture stopped early)") + "\n";
    if (!s.report.workload.empty()) {
        out += line("workload", s.report.workload);
    }
    out += line("schema",
                s.report.schemaVersion + ", written " + s.report.createdAt +
                    (s.report.toolVersion.empty() ? "" : " by tessera " + s.report.toolVersion));
    char clock[32];
    std::snprintf(clock, sizeof clock, "%.3f GHz", s.target.clockHz / 1e9);
    out += "Target\n";
    out += line("name", s.target.name);
    out += line("tiles", std::to_string(s.target.tiles) + " on " + std::to_string(s.target.ipus) +
                             " IPU" + (s.target.ipus == 1 ? "" : "s"));
    out += line("memory/tile", bytes(s.target.bytesPerTile));
    out += line("clock", clock);

    out += "Cycles (all runs)\n";
    out += line("total", grouped(s.cycles.total));
    if (s.target.clockHz > 0) {
        char time[32];
        std::snprintf(time, sizeof time, "%.3f ms",
                      1e3 * double(s.cycles.total) / s.target.clockHz);
        out += line("time", time);
    }
    out += line("compute", grouped(s.cycles.compute) + "  (" +
                               percent(s.cycles.compute, s.cycles.total) + ")");
    out += line("exchange", grouped(s.cycles.exchange) + "  (" +
                                percent(s.cycles.exchange, s.cycles.total) + ")");
    out +=
        line("sync", grouped(s.cycles.sync) + "  (" + percent(s.cycles.sync, s.cycles.total) + ")");
    out += line("runs", std::to_string(s.runs.count) + ", " + grouped(s.runs.executedSteps) +
                            " steps executed" +
                            (s.runs.incomplete > 0
                                 ? ", " + std::to_string(s.runs.incomplete) + " stopped early"
                                 : ""));

    out += "Memory\n";
    out +=
        line("total", bytes(s.memory.totalBytes) + " (" + grouped(s.memory.totalBytes) + " bytes)");
    out +=
        line("peak tile",
             bytes(s.memory.peakTileBytes) + " on tile " + std::to_string(s.memory.peakTile) +
                 " (" + percent(s.memory.peakTileBytes, s.target.bytesPerTile) + " of the tile)");
    out += line("out of memory",
                s.memory.outOfMemory
                    ? "YES, " + std::to_string(s.memory.tilesOverCapacity) + " tiles over capacity"
                    : "no");

    out += "Program\n";
    out += line("steps", grouped(s.program.steps));
    out += line("compute sets", grouped(s.program.computeSets));
    out += line("vertices", grouped(s.program.vertices));
    out += line("variables", grouped(s.program.variables));

    out += "Verification\n";
    if (!s.verification) {
        out += line("result", "not verified");
    } else {
        char error[32];
        std::snprintf(error, sizeof error, "%.3g", s.verification->maxAbsError);
        out += line("result", std::string(s.verification->passed ? "passed" : "FAILED") +
                                  ", max abs error " + error);
        if (!s.verification->detail.empty()) {
            out += line("detail", s.verification->detail);
        }
    }
    return out;
}

std::string formatJson(const Summary& s) {
    JsonWriter j;
    j.beginObject();
    j.key("report").beginObject();
    j.key("path").value(s.report.path);
    j.key("schema_version").value(s.report.schemaVersion);
    j.key("complete").value(s.report.complete);
    j.key("created_at").value(s.report.createdAt);
    j.key("tool_version").value(s.report.toolVersion);
    j.key("workload").value(s.report.workload);
    j.endObject();

    j.key("target").beginObject();
    j.key("name").value(s.target.name);
    j.key("ipus").value(s.target.ipus);
    j.key("tiles").value(s.target.tiles);
    j.key("bytes_per_tile").value(s.target.bytesPerTile);
    j.key("clock_hz").value(s.target.clockHz);
    j.endObject();

    j.key("cycles").beginObject();
    j.key("total").value(s.cycles.total);
    j.key("compute").value(s.cycles.compute);
    j.key("exchange").value(s.cycles.exchange);
    j.key("sync").value(s.cycles.sync);
    j.endObject();

    j.key("memory").beginObject();
    j.key("total_bytes").value(s.memory.totalBytes);
    j.key("peak_tile_bytes").value(s.memory.peakTileBytes);
    j.key("peak_tile").value(s.memory.peakTile);
    j.key("out_of_memory").value(s.memory.outOfMemory);
    j.key("tiles_over_capacity").value(s.memory.tilesOverCapacity);
    j.endObject();

    j.key("program").beginObject();
    j.key("steps").value(s.program.steps);
    j.key("compute_sets").value(s.program.computeSets);
    j.key("vertices").value(s.program.vertices);
    j.key("variables").value(s.program.variables);
    j.endObject();

    j.key("runs").beginObject();
    j.key("count").value(s.runs.count);
    j.key("executed_steps").value(s.runs.executedSteps);
    j.key("incomplete").value(s.runs.incomplete);
    j.endObject();

    j.key("verification").beginObject();
    if (s.verification) {
        j.key("passed").value(s.verification->passed);
        j.key("max_abs_error").value(s.verification->maxAbsError);
        j.key("detail").value(s.verification->detail);
    } else {
        j.key("passed").null();
        j.key("max_abs_error").null();
        j.key("detail").null();
    }
    j.endObject();
    j.endObject();
    return j.str();
}

} // namespace tessera::reports
