// A report as CSV tables, one file per table in a directory.
#include "reports/Export.h"
#include "reports/Figures.h"
#include "reports/OutputFile.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <system_error>

namespace tessera::reports {

namespace {

constexpr std::uint64_t kPage = 1 << 16; // executed steps read at a time

// RFC 4180: quote a field holding a comma, quote or line break; double quotes.
std::string field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        return std::string(text);
    }
    std::string out = "\"";
    for (const char c : text) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

// An id column: empty for none.
template <class Tag>
std::string id(record::Typedef<Tag> value) {
    return value.isNone() ? std::string() : std::to_string(value.value());
}

// One table, written to a temporary beside its final name; close() makes it
// ready and the caller renames every table only once all of them are, so a
// failure (a full disk) leaves the directory as it was.
class CsvFile {
public:
    CsvFile(const std::filesystem::path& path, const std::vector<std::string>& header)
        : file_(std::make_unique<AtomicOutputFile>(path))
        , out_(file_->stream()) {
        row(header);
        rows_ = 0;
    }
    void row(const std::vector<std::string>& fields) {
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (i > 0) {
                out_ << ',';
            }
            out_ << field(fields[i]);
        }
        out_ << "\r\n";
        ++rows_;
    }
    std::pair<std::filesystem::path, std::uint64_t>
    close(std::vector<std::unique_ptr<AtomicOutputFile>>& ready) {
        file_->finishWriting();
        const std::filesystem::path path = file_->target();
        ready.push_back(std::move(file_));
        return {path, rows_};
    }

private:
    std::unique_ptr<AtomicOutputFile> file_;
    std::ostream& out_;
    std::uint64_t rows_ = 0;
};

constexpr const char* kTables[] = {"tiles.csv",         "variables.csv",    "executed_steps.csv",
                                   "program_steps.csv", "compute_sets.csv", "runs.csv"};

std::string n(std::uint64_t v) {
    return std::to_string(v);
}
template <class Tag>
std::string n(record::Typedef<Tag> v) {
    return std::to_string(v.value());
}

// What every table writer shares: the reader, the directory, the tables
// written so far (committed together at the end) and their names and rows.
struct Tables {
    const ReportReader& reader;
    std::filesystem::path directory;
    std::vector<std::unique_ptr<AtomicOutputFile>> ready;
    CsvResult result;

    CsvFile open(const char* name, const std::vector<std::string>& header) const {
        return CsvFile(directory / name, header);
    }
    void close(CsvFile& f) { result.files.push_back(f.close(ready)); }
};

void writeTiles(Tables& t) {
    std::vector<std::string> header = {"tile",
                                       "total_including_gaps",
                                       "total_excluding_gaps",
                                       "gap_bytes",
                                       "always_live_bytes",
                                       "not_always_live_peak_bytes",
                                       "not_always_live_sum_bytes",
                                       "overflow_bytes"};
    for (const MemoryCategoryEntry& c : t.reader.memoryCategories()) {
        header.push_back("category_" + c.key);
    }
    for (const RegionInfo& r : t.reader.target().regions) {
        header.push_back("region_" + r.name);
    }
    CsvFile f = t.open("tiles.csv", header);
    for (const TileMemoryEntry& m : t.reader.tileMemory()) {
        std::vector<std::string> row = {n(m.tile),
                                        n(m.totalIncludingGaps),
                                        n(m.totalExcludingGaps),
                                        n(m.gapBytes),
                                        n(m.alwaysLiveBytes),
                                        n(m.notAlwaysLivePeakBytes),
                                        n(m.notAlwaysLiveSumBytes),
                                        n(m.overflowBytes)};
        for (const std::uint64_t b : m.bytesByCategory) {
            row.push_back(n(b));
        }
        for (const std::uint64_t b : m.bytesByRegion) {
            row.push_back(n(b));
        }
        f.row(row);
    }
    t.close(f);
}

void writeVariables(Tables& t) {
    CsvFile f = t.open("variables.csv", {"id", "name", "type", "shape", "elements", "constant",
                                         "always_live", "host_access", "exchange_buffer",
                                         "first_step", "last_step", "total_bytes", "tiles"});
    for (const VariableEntry& v : t.reader.variables()) {
        f.row({n(v.id), v.name, v.type, shapeText(v.shape), n(v.numElements), n(v.isConstant),
               n(v.alwaysLive), n(v.hostAccess), n(v.isExchangeBuffer), id(v.firstStep),
               id(v.lastStep), n(v.totalBytes), n(v.numTiles)});
    }
    t.close(f);
}

void writeExecutedSteps(Tables& t, const std::vector<ProgramStepEntry>& steps) {
    CsvFile f = t.open("executed_steps.csv",
                       {"run", "seq", "program_step", "name", "start_cycle", "cycles"});
    for (const RunEntry& run : t.reader.runs()) {
        for (std::uint64_t first = 0;;) {
            const auto page = t.reader.executedSteps(run.id, first, first + kPage);
            if (page.empty()) {
                break;
            }
            for (const record::StepExecutionRecord& e : page) {
                const bool known = e.programStep.value() < steps.size();
                f.row({n(e.run), n(e.sequence), n(e.programStep),
                       known ? steps[e.programStep.value()].name : std::string(), n(e.startCycle),
                       n(e.cycles)});
            }
            first = page.back().sequence + 1;
            if (first == 0) {
                break;
            }
        }
    }
    t.close(f);
}

// Executions of each program step over every run, indexed by step id.
std::vector<std::uint64_t> stepExecutions(const ReportReader& reader, std::size_t steps) {
    std::vector<std::uint64_t> executions(steps, 0);
    for (const auto& [step, count] : reader.stepExecutions()) {
        if (step.value() < steps) {
            executions[step.value()] = count;
        }
    }
    return executions;
}

// cycles * runs, saturating instead of wrapping.
std::uint64_t allExecutions(std::uint64_t cycles, std::uint64_t runs) {
    return runs != 0 && cycles > std::numeric_limits<std::uint64_t>::max() / runs
               ? std::numeric_limits<std::uint64_t>::max()
               : cycles * runs;
}

void writeProgramSteps(Tables& t, const std::vector<ProgramStepEntry>& steps,
                       const std::vector<std::uint64_t>& executions,
                       const std::vector<record::ComputeSetRecord>& computeSets) {
    const std::vector<record::ProgramNodeRecord> nodes = t.reader.programNodes();
    const std::uint32_t tiles = t.reader.target().numTiles;
    // none() is past the end: an empty name.
    auto nameOfNode = [&](ProgramNodeId node) {
        return node.value() < nodes.size() ? nodes[node.value()].name : std::string();
    };
    auto nameOfSet = [&](ComputeSetId set) {
        return set.value() < computeSets.size() ? computeSets[set.value()].name : std::string();
    };
    CsvFile f = t.open("program_steps.csv", {"id",
                                             "name",
                                             "kind",
                                             "compute_set",
                                             "operation",
                                             "executions",
                                             "total_cycles",
                                             "cycles_all_executions",
                                             "sync_cycles",
                                             "exchange_phase_cycles",
                                             "compute_phase_cycles",
                                             "flops",
                                             "vertices",
                                             "crosses_ipus",
                                             "compute_cycles_max",
                                             "compute_cycles_sum",
                                             "tile_balance",
                                             "exchange_cycles_max",
                                             "exchange_cycles_sum",
                                             "bytes_in_sum",
                                             "bytes_out_sum",
                                             "not_always_live_bytes_max",
                                             "live_variables"});
    for (const ProgramStepEntry& s : steps) {
        const std::uint64_t runsOf =
            s.id.value() < executions.size() ? executions[s.id.value()] : 0;
        char balanceText[32];
        std::snprintf(balanceText, sizeof balanceText, "%.4f", tileBalance(s, tiles));
        f.row({n(s.id),
               s.name,
               record::programKindName(s.kind),
               nameOfSet(s.computeSet),
               nameOfNode(s.operation),
               n(runsOf),
               n(s.totalCycles),
               n(allExecutions(s.totalCycles, runsOf)),
               n(s.syncCycles),
               n(s.exchangePhaseCycles),
               n(s.computePhaseCycles),
               n(s.flops),
               n(s.vertices),
               n(s.crossesIpus),
               n(s.computeCyclesMax),
               n(s.computeCyclesSum),
               balanceText,
               n(s.exchangeCyclesMax),
               n(s.exchangeCyclesSum),
               n(s.bytesInSum),
               n(s.bytesOutSum),
               n(s.notAlwaysLiveBytesMax),
               n(s.liveVariableCount)});
    }
    t.close(f);
}

void writeComputeSets(Tables& t, const std::vector<ProgramStepEntry>& steps,
                      const std::vector<std::uint64_t>& executions,
                      const std::vector<record::ComputeSetRecord>& computeSets) {
    std::vector<std::uint64_t> setRuns(computeSets.size(), 0), setCycles(computeSets.size(), 0);
    for (const ProgramStepEntry& s : steps) {
        const std::uint32_t set = s.computeSet.value(), step = s.id.value();
        if (set < computeSets.size() && step < executions.size()) {
            setRuns[set] += executions[step];
            setCycles[set] += s.totalCycles * executions[step];
        }
    }
    CsvFile f = t.open("compute_sets.csv",
                       {"id", "name", "vertices", "executions", "cycles_all_executions"});
    for (std::size_t i = 0; i < computeSets.size(); ++i) {
        const record::ComputeSetRecord& c = computeSets[i];
        f.row({n(c.id), c.name, n(c.vertexCount), n(setRuns[i]), n(setCycles[i])});
    }
    t.close(f);
}

void writeRuns(Tables& t) {
    CsvFile f = t.open("runs.csv",
                       {"id", "program_index", "start_cycle", "steps", "cycles", "compute_cycles",
                        "exchange_cycles", "sync_cycles", "completed", "error"});
    for (const RunEntry& r : t.reader.runs()) {
        f.row({n(r.id), n(r.programIndex), n(r.startCycle), n(r.steps), n(r.cycles),
               n(r.computeCycles), n(r.exchangeCycles), n(r.syncCycles), n(r.completed), r.error});
    }
    t.close(f);
}

// Writes every table beside its final name, then commits them all at once.
CsvResult writeTables(const ReportReader& reader, const std::filesystem::path& directory) {
    Tables t{reader, directory, {}, {}};
    const std::vector<ProgramStepEntry> steps = reader.programSteps();
    const std::vector<record::ComputeSetRecord> computeSets = reader.computeSets();
    writeTiles(t);
    writeVariables(t);
    writeExecutedSteps(t, steps);
    const std::vector<std::uint64_t> executions = stepExecutions(reader, steps.size());
    writeProgramSteps(t, steps, executions, computeSets);
    writeComputeSets(t, steps, executions, computeSets);
    writeRuns(t);
    for (const auto& file : t.ready) {
        file->commit();
    }
    return t.result;
}

} // namespace

CsvResult exportCsv(const ReportReader& reader, const std::filesystem::path& directory) {
    const std::filesystem::path input = reader.info().path;
    for (const char* table : kTables) {
        refuseToOverwriteInput(directory / table, std::span(&input, 1));
    }
    std::error_code ec;
    const bool existed = std::filesystem::exists(directory, ec);
    std::filesystem::create_directories(directory, ec);
    if (ec || !std::filesystem::is_directory(directory)) {
        throw ReportError(directory.string() + ": cannot create the directory" +
                          (ec ? ": " + writeErrorText(ec.value()) : std::string()));
    }
    try {
        return writeTables(reader, directory);
    } catch (...) {
        if (!existed) { // leave nothing behind: remove() only removes it empty
            std::filesystem::remove(directory, ec);
        }
        throw;
    }
}

} // namespace tessera::reports
