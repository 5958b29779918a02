// A report as a Chrome trace: one track for the program steps (all tiles),
// one per tile or tile group, a counter for not-always-live memory.
#include "reports/Export.h"
#include "reports/JsonWriter.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <unordered_map>

namespace tessera::reports {

namespace {

constexpr std::uint64_t kPage = 1 << 16; // executed steps read at a time
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

std::uint64_t addSat(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
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

} // namespace

ChromeTraceResult exportChromeTrace(const ReportReader& reader, std::ostream& out,
                                    const ChromeTraceOptions& options) {
    const TargetInfo& target = reader.target();
    const ReportInfo& info = reader.info();
    const Clock clock(target.clockHz);
    const std::vector<RunEntry> runs = reader.runs();
    const std::vector<ProgramStepEntry> programSteps = reader.programSteps();
    std::vector<std::vector<LodLevel>> levels;
    std::uint64_t totalSteps = 0;
    for (const RunEntry& r : runs) {
        levels.push_back(reader.lodLevels(r.id));
        totalSteps = addSat(totalSteps, r.steps);
    }

    ChromeTraceResult result;
    const std::uint32_t numTiles = target.numTiles;
    const std::uint32_t groupTiles =
        std::max<std::uint32_t>(levels.empty() ? 16 : levels.front().front().groupTiles, 1);
    const std::uint32_t groups = numTiles == 0 ? 0 : (numTiles + groupTiles - 1) / groupTiles;
    const bool perTile = numTiles > 0 && numTiles <= options.perTileTracksUpTo;

    // The budget: a quarter for the step track, a quarter for the counter,
    // half for the tile tracks (up to five slices per track and step: sync,
    // exchange, sync, compute, sync).
    const std::uint64_t budget = std::max<std::uint64_t>(options.maxEvents, 64);
    const std::uint64_t tracksAtSteps = perTile ? numTiles : groups;
    result.stepLevel = chooseLevel(levels, totalSteps, 1, 1, budget / 4);
    result.tileLevel =
        numTiles == 0 ? 0 : chooseLevel(levels, totalSteps, 5 * tracksAtSteps, groups, budget / 2);
    const bool tileSteps = numTiles > 0 && result.tileLevel == 0;
    result.tilesPerTrack = tileSteps && perTile ? 1 : groupTiles;
    result.tileTracks = numTiles == 0 ? 0 : tileSteps && perTile ? numTiles : groups;
    result.counterStride =
        totalSteps <= budget / 4 ? 1 : (totalSteps + budget / 4 - 1) / (budget / 4);

    JsonWriter other(false);
    other.beginObject();
    other.key("report").value(info.path);
    other.key("workload").value(info.workload);
    other.key("target").value(target.name);
    other.key("tiles").value(numTiles);
    other.key("clock_hz").value(target.clockHz);
    other.key("complete").value(info.complete);
    other.key("tiles_per_track").value(result.tilesPerTrack);
    other.key("tile_track_lod_level").value(result.tileLevel);
    other.key("step_track_lod_level").value(result.stepLevel);
    other.key("memory_counter_stride").value(result.counterStride);
    other.endObject();
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":" << other.str() << ",\"traceEvents\":[";

    TraceWriter w(out);
    std::string processName = "Tessera";
    if (!info.workload.empty()) {
        processName += ": " + info.workload;
    }
    processName += " on " + target.name + " (" + std::to_string(numTiles) + " tiles)";
    w.metadata("process_name", 0, "{\"name\":" + JsonWriter::escape(processName) + "}");
    w.metadata("thread_name", kStepTid, "{\"name\":\"program steps (all tiles)\"}");
    w.metadata("thread_sort_index", kStepTid, "{\"sort_index\":0}");
    for (std::uint32_t t = 0; t < result.tileTracks; ++t) {
        const std::uint32_t first = t * result.tilesPerTrack;
        const std::uint32_t last = std::min(first + result.tilesPerTrack, numTiles) - 1;
        w.metadata("thread_name", kFirstTileTid + static_cast<int>(t),
                   "{\"name\":" + JsonWriter::escape(tileRange(first, last)) + "}");
        w.metadata("thread_sort_index", kFirstTileTid + static_cast<int>(t),
                   "{\"sort_index\":" + std::to_string(t + 1) + "}");
    }

    // Program steps, loaded when first executed.
    std::unordered_map<StepId, StepInfo> stepInfo;
    auto infoOf = [&](StepId id) -> const StepInfo& {
        auto it = stepInfo.find(id);
        if (it != stepInfo.end()) {
            return it->second;
        }
        if (id.value() >= programSteps.size() || programSteps[id.value()].id != id) {
            throw ReportError(info.path + ": the report is corrupt (an executed step refers to " +
                              "unknown program step " + std::to_string(id.value()) + ")");
        }
        const ProgramStepEntry& p = programSteps[id.value()];
        StepInfo s;
        s.nameJson = JsonWriter::escape(
            p.name.empty() ? std::string(record::programKindName(p.kind)) : p.name);
        s.kind = p.kind;
        s.syncPhase = p.syncCycles;
        s.exchangePhase = p.exchangePhaseCycles;
        s.computePhase = p.computePhaseCycles;
        const StepTiles tiles = reader.stepTiles(id);
        for (const std::uint32_t b : tiles.notAlwaysLiveBytes) {
            s.livenessSum += b;
            s.livenessMax = std::max<std::uint64_t>(s.livenessMax, b);
        }
        if (tileSteps) {
            s.tracks.resize(result.tileTracks);
            for (std::uint32_t tile = 0; tile < tiles.computeCycles.size(); ++tile) {
                TrackCost& c =
                    s.tracks[std::min(tile / result.tilesPerTrack, result.tileTracks - 1)];
                c.computeMax = std::max<std::uint64_t>(c.computeMax, tiles.computeCycles[tile]);
                c.exchangeMax = std::max<std::uint64_t>(c.exchangeMax, tiles.exchangeCycles[tile]);
                c.computeSum += tiles.computeCycles[tile];
                c.exchangeSum += tiles.exchangeCycles[tile];
                c.syncSum += tiles.syncCycles[tile];
            }
        }
        return stepInfo.emplace(id, std::move(s)).first->second;
    };

    std::uint64_t sampleMax = 0, sampleMaxTile = 0, inSample = 0;
    std::int64_t sampleTs = 0;
    std::uint64_t lastSum = std::numeric_limits<std::uint64_t>::max(), lastMax = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const RunEntry& run = runs[r];
        for (std::uint64_t firstSeq = 0;;) {
            const std::vector<record::StepExecutionRecord> page =
                reader.executedSteps(run.id, firstSeq, firstSeq + kPage);
            if (page.empty()) {
                break;
            }
            for (const record::StepExecutionRecord& e : page) {
                const StepInfo& s = infoOf(e.programStep);
                const std::int64_t start = clock.ns(e.startCycle);
                const std::int64_t end = clock.ns(addSat(e.startCycle, e.cycles));
                if (result.stepLevel == 0) {
                    w.slice(s.nameJson, "step", kStepTid, start, end,
                            "{\"run\":" + num(e.run) + ",\"seq\":" + num(e.sequence) +
                                ",\"program_step\":" + num(e.programStep.value()) + ",\"kind\":\"" +
                                record::programKindName(s.kind) + "\",\"cycles\":" + num(e.cycles) +
                                ",\"sync_phase\":" + num(s.syncPhase) +
                                ",\"exchange_phase\":" + num(s.exchangePhase) +
                                ",\"compute_phase\":" + num(s.computePhase) + "}");
                }
                if (tileSteps) {
                    const std::uint64_t exchangeStart = std::min(s.syncPhase, e.cycles);
                    const std::uint64_t computeStart =
                        std::min(addSat(s.syncPhase, s.exchangePhase), e.cycles);
                    for (std::uint32_t t = 0; t < result.tileTracks; ++t) {
                        const TrackCost& c = s.tracks[t];
                        const int tid = kFirstTileTid + static_cast<int>(t);
                        const std::uint32_t first = t * result.tilesPerTrack;
                        const std::uint64_t tiles =
                            std::min(first + result.tilesPerTrack, numTiles) - first;
                        std::string args =
                            result.tilesPerTrack == 1
                                ? "{\"step\":" + s.nameJson + ",\"seq\":" + num(e.sequence) +
                                      ",\"compute\":" + num(c.computeSum) +
                                      ",\"exchange\":" + num(c.exchangeSum) +
                                      ",\"sync\":" + num(c.syncSum) + "}"
                                : "{\"step\":" + s.nameJson + ",\"seq\":" + num(e.sequence) +
                                      ",\"tiles\":" + num(tiles) +
                                      ",\"compute_max\":" + num(c.computeMax) +
                                      ",\"compute_mean\":" + num(c.computeSum / tiles) +
                                      ",\"exchange_max\":" + num(c.exchangeMax) +
                                      ",\"exchange_mean\":" + num(c.exchangeSum / tiles) +
                                      ",\"sync_mean\":" + num(c.syncSum / tiles) + "}";
                        // The tile's own phases, side by side: sync until
                        // the exchange phase, its exchange, waiting for the
                        // slowest tile's exchange, its compute, waiting for
                        // the slowest tile. Imbalance shows as sync.
                        const std::uint64_t stepEnd = addSat(e.startCycle, e.cycles);
                        const std::uint64_t exA = addSat(e.startCycle, exchangeStart);
                        const std::uint64_t exB = std::min(addSat(exA, c.exchangeMax), stepEnd);
                        const std::uint64_t coA = addSat(e.startCycle, computeStart);
                        const std::uint64_t coB = std::min(addSat(coA, c.computeMax), stepEnd);
                        const std::uint64_t bounds[] = {e.startCycle, exA, exB, coA, coB, stepEnd};
                        static constexpr const char* kPhase[] = {"sync", "exchange", "sync",
                                                                 "compute", "sync"};
                        for (std::size_t i = 0; i < 5; ++i) {
                            if (bounds[i + 1] > bounds[i]) {
                                w.slice(std::string("\"") + kPhase[i] + "\"", kPhase[i], tid,
                                        clock.ns(bounds[i]), clock.ns(bounds[i + 1]), args);
                            }
                        }
                    }
                }
                // Memory: every change, or the largest value of each stride.
                if (result.counterStride == 1) {
                    if (s.livenessSum != lastSum || s.livenessMax != lastMax) {
                        w.counter(start, s.livenessSum, s.livenessMax);
                        lastSum = s.livenessSum;
                        lastMax = s.livenessMax;
                    }
                } else {
                    if (inSample == 0) {
                        sampleTs = start;
                        sampleMax = 0;
                        sampleMaxTile = 0;
                    }
                    sampleMax = std::max(sampleMax, s.livenessSum);
                    sampleMaxTile = std::max(sampleMaxTile, s.livenessMax);
                    if (++inSample == result.counterStride) {
                        w.counter(sampleTs, sampleMax, sampleMaxTile);
                        inSample = 0;
                    }
                }
            }
            firstSeq = page.back().sequence + 1;
            if (firstSeq == 0) {
                break;
            }
        }
        if (inSample > 0) {
            w.counter(sampleTs, sampleMax, sampleMaxTile);
            inSample = 0;
        }

        // Buckets for the tracks that do not show single steps.
        auto bucketsOf = [&](std::uint32_t wanted) {
            const std::uint32_t level = levelOfRun(levels[r], wanted);
            return level == 0 ? std::vector<LodBucket>{}
                              : reader.lodBuckets(run.id, level, 0,
                                                  std::numeric_limits<std::uint64_t>::max());
        };
        auto bucketName = [](const LodBucket& b) {
            return "\"steps " + std::to_string(b.firstSeq) + "-" +
                   std::to_string(b.firstSeq + (b.steps > 0 ? b.steps - 1 : 0)) + "\"";
        };
        if (result.stepLevel > 0) {
            for (const LodBucket& b : bucketsOf(result.stepLevel)) {
                w.slice(bucketName(b), "steps", kStepTid, clock.ns(b.startCycle),
                        clock.ns(addSat(b.startCycle, b.cycles)),
                        "{\"run\":" + num(run.id) + ",\"steps\":" + num(b.steps) + ",\"cycles\":" +
                            num(b.cycles) + ",\"sync_phase\":" + num(b.syncPhaseCycles) +
                            ",\"exchange_phase\":" + num(b.exchangePhaseCycles) +
                            ",\"compute_phase\":" + num(b.computePhaseCycles) +
                            ",\"longest_step\":" + num(b.maxStepCycles) + "}");
            }
        }
        if (!tileSteps && result.tileTracks > 0) {
            for (const LodBucket& b : bucketsOf(result.tileLevel)) {
                const std::string name = bucketName(b);
                const std::size_t n = std::min<std::size_t>(
                    {b.compute.size(), b.exchange.size(), b.sync.size(), result.tileTracks});
                for (std::size_t g = 0; g < n; ++g) {
                    const std::uint64_t first = g * result.tilesPerTrack;
                    const std::uint64_t tiles =
                        std::min<std::uint64_t>(first + result.tilesPerTrack, numTiles) - first;
                    w.slice(name, "tiles", kFirstTileTid + static_cast<int>(g),
                            clock.ns(b.startCycle), clock.ns(addSat(b.startCycle, b.cycles)),
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
    }
    out << "\n]}\n";
    if (!out) {
        throw ReportError("cannot write the trace (output error)");
    }
    result.events = w.events();
    result.slices = w.slices();
    result.counterSamples = w.counters();
    return result;
}

} // namespace tessera::reports
