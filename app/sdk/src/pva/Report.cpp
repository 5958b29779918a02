// libpva's Report and openReport: the shared report data (ReportData) with
// its caches and handle factories.
#include "ReportData.h"

#include <filesystem>
#include <sstream>

namespace pva {

namespace detail {

namespace {

Version parseVersion(const std::string& text) {
    unsigned parts[3] = {0, 0, 0};
    std::istringstream in(text);
    for (unsigned& p : parts) {
        if (!(in >> p)) {
            break;
        }
        if (in.peek() != '.') {
            break;
        }
        in.get();
    }
    return Version(parts[0], parts[1], parts[2], text);
}

} // namespace

ReportData::ReportData(const std::string& p)
    : reader(p)
    , path(p) {}

const std::vector<tessera::reports::VariableEntry>& ReportData::variables() {
    if (!variableCache) {
        variableCache = reader.variables();
    }
    return *variableCache;
}

const std::vector<tessera::record::ComputeSetRecord>& ReportData::computeSetEntries() {
    if (!computeSetCache) {
        computeSetCache = reader.computeSets();
    }
    return *computeSetCache;
}

const tessera::reports::StepTiles& ReportData::stepTiles(std::uint32_t step) {
    auto it = stepTilesCache.find(step);
    if (it == stepTilesCache.end()) {
        it = stepTilesCache.emplace(step, reader.stepTiles(tessera::record::StepId{step})).first;
    }
    return it->second;
}

BlockOptions ReportData::blockOptions() const {
    BlockOptions o;
    for (const auto& [key, value] : reader.info().workloadParameters) {
        if (key == "profiler.blocks.filter") {
            o.blocksFilter = value;
        } else if (key == "profiler.programs.filter") {
            o.programsFilter = value;
        } else if (key == "debug.instrumentExternalExchange") {
            o.instrumentExternalExchange = value == "true" || value == "1";
        } else if (key == "profiler.blocks.bufferSize") {
            try {
                o.bufferSize = std::stoull(value);
            } catch (const std::exception&) {
                // the engine validated it when capturing; keep the default
            }
        }
    }
    return o;
}

Report ReportData::report() {
    Report r;
    r.d_ = shared_from_this();
    return r;
}

Compilation ReportData::compilation() {
    Compilation c;
    c.d_ = shared_from_this();
    return c;
}

Execution ReportData::execution() {
    Execution e;
    e.d_ = shared_from_this();
    return e;
}

Target ReportData::target() {
    Target t;
    t.d_ = shared_from_this();
    return t;
}

Graph ReportData::graph() {
    Graph g;
    g.d_ = shared_from_this();
    return g;
}

} // namespace detail

Report openReport(const std::string& reportPath, const std::string&) {
    try {
        auto d = std::make_shared<detail::ReportData>(reportPath);
        return d->report();
    } catch (const std::exception& e) {
        std::string what = std::string("pva: cannot open report: ") + e.what();
        if (std::filesystem::path(reportPath).extension() == ".pop" &&
            what.find("not a database") != std::string::npos) {
            what += " (a profile.pop written by Graphcore's Poplar is PopVision's own format, "
                    "which Tessera does not read; Tessera reads the profile.pop its SDK writes)";
        }
        throw error(what);
    }
}

Version Report::version() const {
    const auto& info = d_->reader.info();
    return Version(unsigned(info.schemaMajor), unsigned(info.schemaMinor), 0, info.schemaVersion);
}

Version Report::poplarVersion() const {
    return detail::parseVersion(d_->reader.info().toolVersion);
}

Compilation Report::compilation() const {
    return d_->compilation();
}

Execution Report::execution() const {
    return d_->execution();
}

std::string Report::path() const {
    return d_->path;
}

} // namespace pva
