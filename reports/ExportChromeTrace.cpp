// A report as a Chrome trace: one track for the program steps (all tiles),
// one per tile or tile group, a counter for not-always-live memory.
#include "reports/Export.h"
#include "reports/JsonWriter.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/Saturating.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <unordered_map>

namespace tessera::reports {

namespace {

constexpr std::uint64_t kStepsPerRead = 1 << 16; // executed steps read at a time
constexpr int kPid = 1;
constexpr int kStepTid = 1;
constexpr int kFirstTileTid = 10;

// Cycles to integer nanoseconds, so a slice's end (ts + dur) is exact and
// nested slices never poke out of their parent.
class Clock {
public:
    explicit Clock(double hz)
        : nsPerCycle_(hz > 0 && std::isfinite(hz) ? 1e9 / hz : 1.0) {}
    std::int64_t ns(std::uint64_t cycle) const {
        const double v = std::round(static_cast<double>(cycle) * nsPerCycle_);
        return v >= 9e18 || !(v >= 0) ? std::int64_t{9'000'000'000'000'000'000}
                                      : static_cast<std::int64_t>(v);
    }

private:
    double nsPerCycle_;
};

// Microseconds with three decimals, from nanoseconds.
std::string micros(std::int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(ns / 1000),
                  static_cast<long long>(ns % 1000));
    return text;
}

// A track's share of one program step: for a tile, its own cycles; for a
// group, the slowest tile's (slice lengths) and the mean (args).
struct TrackCost {
    std::uint64_t computeMax = 0;
    std::uint64_t exchangeMax = 0;
    std::uint64_t computeSum = 0;
    std::uint64_t exchangeSum = 0;
    std::uint64_t syncSum = 0;
};

struct StepInfo {
    std::string nameJson; // the name, escaped and quoted
    record::ProgramKind kind = record::ProgramKind::Execute;
    std::uint64_t syncPhase = 0;
    std::uint64_t exchangePhase = 0;
    std::uint64_t computePhase = 0;
    std::uint64_t livenessSum = 0;
    std::uint64_t livenessMax = 0;
    std::vector<TrackCost> tracks; // filled only when tile tracks show single steps
};

class TraceWriter {
public:
    explicit TraceWriter(std::ostream& out)
        : out_(out) {}

    void event(const std::string& json) {
        out_ << (first_ ? "\n" : ",\n") << json;
        first_ = false;
        ++events_;
    }
    void metadata(const char* what, int tid, const std::string& argsJson) {
        event("{\"name\":\"" + std::string(what) +
              "\",\"ph\":\"M\",\"pid\":" + std::to_string(kPid) +
              (tid > 0 ? ",\"tid\":" + std::to_string(tid) : "") + ",\"args\":" + argsJson + "}");
    }
    void slice(const std::string& nameJson, const char* category, int tid, std::int64_t start,
               std::int64_t end, const std::string& argsJson) {
        event("{\"name\":" + nameJson + ",\"cat\":\"" + category + "\",\"ph\":\"X\",\"ts\":" +
              micros(start) + ",\"dur\":" + micros(std::max<std::int64_t>(end - start, 0)) +
              ",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(tid) +
              ",\"args\":" + argsJson + "}");
        ++slices_;
    }
    void counter(std::int64_t ts, std::uint64_t sum, std::uint64_t max) {
        event("{\"name\":\"not-always-live bytes\",\"ph\":\"C\",\"ts\":" + micros(ts) +
              ",\"pid\":" + std::to_string(kPid) + ",\"args\":{\"all tiles\":" +
              std::to_string(sum) + ",\"largest tile\":" + std::to_string(max) + "}}");
        ++counters_;
    }
    std::uint64_t events() const { return events_; }
    std::uint64_t slices() const { return slices_; }
    std::uint64_t counters() const { return counters_; }

private:
    std::ostream& out_;
    bool first_ = true;
    std::uint64_t events_ = 0;
    std::uint64_t slices_ = 0;
    std::uint64_t counters_ = 0;
};

std::string num(std::uint64_t v) {
    return std::to_string(v);
}

std::string tileRange(std::uint32_t first, std::uint32_t last) {
    return first == last ? "tile " + std::to_string(first)
                         : "tiles " + std::to_string(first) + "-" + std::to_string(last);
}

// The finest stored level whose buckets over all runs fit `budget`; the
// coarsest one if none does. 0 when single steps fit.
std::uint32_t chooseLevel(const std::vector<std::vector<LodLevel>>& levels, std::uint64_t steps,
                          std::uint64_t perStep, std::uint64_t perBucket, std::uint64_t budget) {
    if (steps == 0 || (perStep > 0 && steps <= budget / perStep)) {
        return 0;
    }
    std::uint32_t deepest = 0;
    for (const auto& run : levels) {
        for (const LodLevel& l : run) {
            deepest = std::max(deepest, l.level);
        }
    }
    for (std::uint32_t level = 1; level <= deepest; ++level) {
        std::uint64_t buckets = 0;
        for (const auto& run : levels) {
            // A run without this level shows its coarsest (one bucket).
            std::uint64_t n = run.size() > 1 ? 1 : 0;
            for (const LodLevel& l : run) {
                if (l.level == level) {
                    n = l.buckets;
                }
            }
            buckets = addSat(buckets, n);
        }
        if (perBucket > 0 && buckets <= budget / perBucket) {
            return level;
        }
    }
    return deepest;
}

// The stored level of a run to draw for `wanted`: that one, else its coarsest.
std::uint32_t levelOfRun(const std::vector<LodLevel>& levels, std::uint32_t wanted) {
    std::uint32_t best = 0;
    for (const LodLevel& l : levels) {
        if (l.level == wanted) {
            return wanted;
        }
        best = std::max(best, l.level);
    }
    return best;
}

// The memory counter: every change, or the largest value of each stride.
class MemoryCounter {
public:
    MemoryCounter(TraceWriter& w, std::uint64_t stride)
        : w_(w)
        , stride_(stride) {}

    void add(std::int64_t ts, std::uint64_t sum, std::uint64_t max) {
        if (stride_ == 1) {
            if (sum != lastSum_ || max != lastMax_) {
                w_.counter(ts, sum, max);
                lastSum_ = sum;
                lastMax_ = max;
            }
            return;
        }
        if (inSample_ == 0) {
            sampleTs_ = ts;
            sampleMax_ = 0;
            sampleMaxTile_ = 0;
        }
        sampleMax_ = std::max(sampleMax_, sum);
        sampleMaxTile_ = std::max(sampleMaxTile_, max);
        if (++inSample_ == stride_) {
            w_.counter(sampleTs_, sampleMax_, sampleMaxTile_);
            inSample_ = 0;
        }
    }
    // The end of a run: its last, partial stride.
    void flush() {
        if (inSample_ > 0) {
            w_.counter(sampleTs_, sampleMax_, sampleMaxTile_);
            inSample_ = 0;
        }
    }

private:
    TraceWriter& w_;
    std::uint64_t stride_;
    std::uint64_t sampleMax_ = 0, sampleMaxTile_ = 0, inSample_ = 0;
    std::int64_t sampleTs_ = 0;
    std::uint64_t lastSum_ = std::numeric_limits<std::uint64_t>::max(), lastMax_ = 0;
};

std::string bucketName(const LodBucket& b) {
    return "\"steps " + std::to_string(b.firstSeq) + "-" +
           std::to_string(b.firstSeq + (b.steps > 0 ? b.steps - 1 : 0)) + "\"";
}

// One export: the layout chosen up front, then each run's steps, counter
// samples and buckets in turn.
class ChromeTraceExporter {
public:
    ChromeTraceExporter(const ReportReader& reader, std::ostream& out,
                        const ChromeTraceOptions& options)
        : reader_(reader)
        , out_(out)
        , target_(reader.target())
        , info_(reader.info())
        , clock_(target_.clockHz)
        , runs_(reader.runs())
        , programSteps_(reader.programSteps())
        , w_(out) {
        for (const RunEntry& r : runs_) {
            levels_.push_back(reader.lodLevels(r.id));
            totalSteps_ = addSat(totalSteps_, r.steps);
        }
        chooseLayout(options);
    }

    ChromeTraceResult write() {
        writeHeader();
        writeTrackNames();
        MemoryCounter memory(w_, result_.counterStride);
        for (std::size_t r = 0; r < runs_.size(); ++r) {
            writeExecutions(runs_[r], memory);
            memory.flush();
            writeStepBuckets(r);
            writeTileBuckets(r);
        }
        out_ << "\n]}\n";
        if (!out_) {
            throw ReportError("cannot write the trace (output error)");
        }
        result_.events = w_.events();
        result_.slices = w_.slices();
        result_.counterSamples = w_.counters();
        return result_;
    }

private:
    // The budget: a quarter for the step track, a quarter for the counter,
    // half for the tile tracks (up to five slices per track and step: sync,
    // exchange, sync, compute, sync).
    void chooseLayout(const ChromeTraceOptions& options) {
        numTiles_ = target_.numTiles;
        const std::uint32_t groupTiles =
            std::max<std::uint32_t>(levels_.empty() ? 16 : levels_.front().front().groupTiles, 1);
        const std::uint32_t groups = numTiles_ == 0 ? 0 : (numTiles_ + groupTiles - 1) / groupTiles;
        const bool perTile = numTiles_ > 0 && numTiles_ <= options.perTileTracksUpTo;
        const std::uint64_t budget = std::max<std::uint64_t>(options.maxEvents, 64);
        const std::uint64_t tracksAtSteps = perTile ? numTiles_ : groups;
        result_.stepLevel = chooseLevel(levels_, totalSteps_, 1, 1, budget / 4);
        result_.tileLevel = numTiles_ == 0 ? 0
                                           : chooseLevel(levels_, totalSteps_, 5 * tracksAtSteps,
                                                         groups, budget / 2);
        tileSteps_ = numTiles_ > 0 && result_.tileLevel == 0;
        result_.tilesPerTrack = tileSteps_ && perTile ? 1 : groupTiles;
        result_.tileTracks = numTiles_ == 0 ? 0 : tileSteps_ && perTile ? numTiles_ : groups;
        result_.counterStride =
            totalSteps_ <= budget / 4 ? 1 : (totalSteps_ + budget / 4 - 1) / (budget / 4);
    }

    // The trace's otherData: the report and the layout chosen.
    void writeHeader() {
        JsonWriter other(false);
        other.beginObject();
        other.key("report").value(info_.path);
        other.key("workload").value(info_.workload);
        other.key("target").value(target_.name);
        other.key("tiles").value(numTiles_);
        other.key("clock_hz").value(target_.clockHz);
        other.key("complete").value(info_.complete);
        other.key("tiles_per_track").value(result_.tilesPerTrack);
        other.key("tile_track_lod_level").value(result_.tileLevel);
        other.key("step_track_lod_level").value(result_.stepLevel);
        other.key("memory_counter_stride").value(result_.counterStride);
        other.endObject();
        out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":" << other.str() << ",\"traceEvents\":[";
    }

    void writeTrackNames() {
        std::string processName = "Tessera";
        if (!info_.workload.empty()) {
            processName += ": " + info_.workload;
        }
        processName += " on " + target_.name + " (" + std::to_string(numTiles_) + " tiles)";
        w_.metadata("process_name", 0, "{\"name\":" + JsonWriter::escape(processName) + "}");
        w_.metadata("thread_name", kStepTid, "{\"name\":\"program steps (all tiles)\"}");
        w_.metadata("thread_sort_index", kStepTid, "{\"sort_index\":0}");
        for (std::uint32_t t = 0; t < result_.tileTracks; ++t) {
            const std::uint32_t first = t * result_.tilesPerTrack;
            const std::uint32_t last = std::min(first + result_.tilesPerTrack, numTiles_) - 1;
            w_.metadata("thread_name", kFirstTileTid + static_cast<int>(t),
                        "{\"name\":" + JsonWriter::escape(tileRange(first, last)) + "}");
            w_.metadata("thread_sort_index", kFirstTileTid + static_cast<int>(t),
                        "{\"sort_index\":" + std::to_string(t + 1) + "}");
        }
    }

    // A program step, loaded when first executed.
    const StepInfo& stepInfo(StepId id) {
        auto it = stepInfo_.find(id);
        if (it != stepInfo_.end()) {
            return it->second;
        }
        return stepInfo_.emplace(id, loadStep(id)).first->second;
    }

    StepInfo loadStep(StepId id) const {
        if (id.value() >= programSteps_.size() || programSteps_[id.value()].id != id) {
            throw ReportError(info_.path + ": the report is corrupt (an executed step refers to " +
                              "unknown program step " + std::to_string(id.value()) + ")");
        }
        const ProgramStepEntry& p = programSteps_[id.value()];
        StepInfo s;
        s.nameJson = JsonWriter::escape(
            p.name.empty() ? std::string(record::programKindName(p.kind)) : p.name);
        s.kind = p.kind;
        s.syncPhase = p.syncCycles;
        s.exchangePhase = p.exchangePhaseCycles;
        s.computePhase = p.computePhaseCycles;
        const StepTiles tiles = reader_.stepTiles(id);
        for (const std::uint32_t b : tiles.notAlwaysLiveBytes) {
            s.livenessSum += b;
            s.livenessMax = std::max<std::uint64_t>(s.livenessMax, b);
        }
        if (tileSteps_) {
            s.tracks.resize(result_.tileTracks);
            for (std::uint32_t tile = 0; tile < tiles.computeCycles.size(); ++tile) {
                TrackCost& c =
                    s.tracks[std::min(tile / result_.tilesPerTrack, result_.tileTracks - 1)];
                c.computeMax = std::max<std::uint64_t>(c.computeMax, tiles.computeCycles[tile]);
                c.exchangeMax = std::max<std::uint64_t>(c.exchangeMax, tiles.exchangeCycles[tile]);
                c.computeSum += tiles.computeCycles[tile];
                c.exchangeSum += tiles.exchangeCycles[tile];
                c.syncSum += tiles.syncCycles[tile];
            }
        }
        return s;
    }

    // A run's executed steps, a page at a time.
    void writeExecutions(const RunEntry& run, MemoryCounter& memory) {
        for (std::uint64_t firstSeq = 0;;) {
            const std::vector<record::StepExecutionRecord> page =
                reader_.executedSteps(run.id, firstSeq, firstSeq + kStepsPerRead);
            if (page.empty()) {
                break;
            }
            for (const record::StepExecutionRecord& e : page) {
                const StepInfo& s = stepInfo(e.programStep);
                const std::int64_t start = clock_.ns(e.startCycle);
                if (result_.stepLevel == 0) {
                    writeStepSlice(e, s, start);
                }
                if (tileSteps_) {
                    writeTileSlices(e, s);
                }
                memory.add(start, s.livenessSum, s.livenessMax);
            }
            firstSeq = page.back().sequence + 1;
            if (firstSeq == 0) {
                break;
            }
        }
    }

    void writeStepSlice(const record::StepExecutionRecord& e, const StepInfo& s,
                        std::int64_t start) {
        w_.slice(s.nameJson, "step", kStepTid, start, clock_.ns(addSat(e.startCycle, e.cycles)),
                 "{\"run\":" + num(e.run) + ",\"seq\":" + num(e.sequence) + ",\"program_step\":" +
                     num(e.programStep.value()) + ",\"kind\":\"" + record::programKindName(s.kind) +
                     "\",\"cycles\":" + num(e.cycles) + ",\"sync_phase\":" + num(s.syncPhase) +
                     ",\"exchange_phase\":" + num(s.exchangePhase) +
                     ",\"compute_phase\":" + num(s.computePhase) + "}");
    }

    // The tile's own phases, side by side: sync until the exchange phase, its
    // exchange, waiting for the slowest tile's exchange, its compute, waiting
    // for the slowest tile. Imbalance shows as sync.
    void writeTileSlices(const record::StepExecutionRecord& e, const StepInfo& s) {
        const std::uint64_t exchangeStart = std::min(s.syncPhase, e.cycles);
        const std::uint64_t computeStart = std::min(addSat(s.syncPhase, s.exchangePhase), e.cycles);
        for (std::uint32_t t = 0; t < result_.tileTracks; ++t) {
            const TrackCost& c = s.tracks[t];
            const int tid = kFirstTileTid + static_cast<int>(t);
            const std::string args = tileStepArgs(e, s, t);
            const std::uint64_t stepEnd = addSat(e.startCycle, e.cycles);
            const std::uint64_t exA = addSat(e.startCycle, exchangeStart);
            const std::uint64_t exB = std::min(addSat(exA, c.exchangeMax), stepEnd);
            const std::uint64_t coA = addSat(e.startCycle, computeStart);
            const std::uint64_t coB = std::min(addSat(coA, c.computeMax), stepEnd);
            const std::uint64_t bounds[] = {e.startCycle, exA, exB, coA, coB, stepEnd};
            static constexpr const char* kPhase[] = {"sync", "exchange", "sync", "compute", "sync"};
            for (std::size_t i = 0; i < 5; ++i) {
                if (bounds[i + 1] > bounds[i]) {
                    w_.slice(std::string("\"") + kPhase[i] + "\"", kPhase[i], tid,
                             clock_.ns(bounds[i]), clock_.ns(bounds[i + 1]), args);
                }
            }
        }
    }

    // A tile's own cycles; a group's slowest tile and means.
    std::string tileStepArgs(const record::StepExecutionRecord& e, const StepInfo& s,
                             std::uint32_t track) const {
        const TrackCost& c = s.tracks[track];
        const std::uint32_t first = track * result_.tilesPerTrack;
        const std::uint64_t tiles = std::min(first + result_.tilesPerTrack, numTiles_) - first;
        if (result_.tilesPerTrack == 1) {
            return "{\"step\":" + s.nameJson + ",\"seq\":" + num(e.sequence) +
                   ",\"compute\":" + num(c.computeSum) + ",\"exchange\":" + num(c.exchangeSum) +
                   ",\"sync\":" + num(c.syncSum) + "}";
        }
        return "{\"step\":" + s.nameJson + ",\"seq\":" + num(e.sequence) +
               ",\"tiles\":" + num(tiles) + ",\"compute_max\":" + num(c.computeMax) +
               ",\"compute_mean\":" + num(c.computeSum / tiles) +
               ",\"exchange_max\":" + num(c.exchangeMax) +
               ",\"exchange_mean\":" + num(c.exchangeSum / tiles) +
               ",\"sync_mean\":" + num(c.syncSum / tiles) + "}";
    }

    // Buckets for the tracks that do not show single steps.
    std::vector<LodBucket> bucketsOf(std::size_t r, std::uint32_t wanted) const {
        const std::uint32_t level = levelOfRun(levels_[r], wanted);
        return level == 0 ? std::vector<LodBucket>{}
                          : reader_.lodBuckets(runs_[r].id, level, 0,
                                               std::numeric_limits<std::uint64_t>::max());
    }

    void writeStepBuckets(std::size_t r) {
        if (result_.stepLevel == 0) {
            return;
        }
        for (const LodBucket& b : bucketsOf(r, result_.stepLevel)) {
            w_.slice(bucketName(b), "steps", kStepTid, clock_.ns(b.startCycle),
                     clock_.ns(addSat(b.startCycle, b.cycles)),
                     "{\"run\":" + num(runs_[r].id) + ",\"steps\":" + num(b.steps) +
                         ",\"cycles\":" + num(b.cycles) +
                         ",\"sync_phase\":" + num(b.syncPhaseCycles) +
                         ",\"exchange_phase\":" + num(b.exchangePhaseCycles) +
                         ",\"compute_phase\":" + num(b.computePhaseCycles) +
                         ",\"longest_step\":" + num(b.maxStepCycles) + "}");
        }
    }

    void writeTileBuckets(std::size_t r) {
        if (tileSteps_ || result_.tileTracks == 0) {
            return;
        }
        for (const LodBucket& b : bucketsOf(r, result_.tileLevel)) {
            const std::string name = bucketName(b);
            const std::size_t n = std::min<std::size_t>(
                {b.compute.size(), b.exchange.size(), b.sync.size(), result_.tileTracks});
            for (std::size_t g = 0; g < n; ++g) {
                const std::uint64_t first = g * result_.tilesPerTrack;
                const std::uint64_t tiles =
                    std::min<std::uint64_t>(first + result_.tilesPerTrack, numTiles_) - first;
                w_.slice(name, "tiles", kFirstTileTid + static_cast<int>(g),
                         clock_.ns(b.startCycle), clock_.ns(addSat(b.startCycle, b.cycles)),
                         "{\"steps\":" + num(b.steps) +
                             ",\"compute_mean\":" + num(b.compute[g].sum / tiles) +
                             ",\"compute_max\":" + num(b.compute[g].max) +
                             ",\"compute_min\":" + num(b.compute[g].min) +
                             ",\"exchange_mean\":" + num(b.exchange[g].sum / tiles) +
                             ",\"exchange_max\":" + num(b.exchange[g].max) +
                             ",\"sync_mean\":" + num(b.sync[g].sum / tiles) + "}");
            }
        }
    }

    const ReportReader& reader_;
    std::ostream& out_;
    const TargetInfo& target_;
    const ReportInfo& info_;
    const Clock clock_;
    const std::vector<RunEntry> runs_;
    const std::vector<ProgramStepEntry> programSteps_;
    std::vector<std::vector<LodLevel>> levels_; // by run
    std::uint64_t totalSteps_ = 0;
    std::uint32_t numTiles_ = 0;
    bool tileSteps_ = false; // the tile tracks show single steps
    ChromeTraceResult result_;
    TraceWriter w_;
    std::unordered_map<StepId, StepInfo> stepInfo_;
};

} // namespace

ChromeTraceResult exportChromeTrace(const ReportReader& reader, std::ostream& out,
                                    const ChromeTraceOptions& options) {
    return ChromeTraceExporter(reader, out, options).write();
}

} // namespace tessera::reports
