// Execution queries of ReportReader: runs, executed steps, level-of-detail
// buckets, verification.
#include "reports/LodBuilder.h"
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Schema.h"

#include <algorithm>

namespace tessera::reports {

namespace {

std::int64_t i64(std::uint64_t v) {
    return static_cast<std::int64_t>(std::min<std::uint64_t>(v, std::uint64_t{INT64_MAX}));
}

} // namespace

std::vector<RunEntry> ReportReader::runs() const {
    std::vector<RunEntry> out;
    auto q = d_->db->prepare(
        "SELECT id, program_index, start_cycle, steps, cycles, compute_cycles, exchange_cycles,"
        " sync_cycles, completed, error_id FROM runs ORDER BY id");
    while (q.step()) {
        RunEntry r;
        r.id = static_cast<std::uint32_t>(q.integer(0));
        r.programIndex = static_cast<std::uint32_t>(q.integer(1));
        r.startCycle = q.unsignedInteger(2);
        r.steps = q.unsignedInteger(3);
        r.cycles = q.unsignedInteger(4);
        r.computeCycles = q.unsignedInteger(5);
        r.exchangeCycles = q.unsignedInteger(6);
        r.syncCycles = q.unsignedInteger(7);
        r.completed = q.integer(8) != 0;
        r.error = q.isNull(9) ? std::string() : d_->str(q, 9);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<ExecutedStep> ReportReader::executedSteps(std::uint32_t run, std::uint64_t firstSeq,
                                                      std::uint64_t endSeq) const {
    std::vector<ExecutedStep> out;
    if (endSeq <= firstSeq) {
        return out;
    }
    auto q = d_->db->prepare("SELECT seq, program_step, start_cycle, cycles FROM executed_steps"
                             " WHERE run = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq");
    q.bind(1, std::int64_t{run}).bind(2, i64(firstSeq)).bind(3, i64(endSeq));
    while (q.step()) {
        const std::uint64_t seq = q.unsignedInteger(0);
        // A damaged index can hand back rows outside the range or out of
        // order; callers page by sequence, so that would never end.
        if (seq < firstSeq || seq >= endSeq || (!out.empty() && seq <= out.back().sequence)) {
            throw ReportError(d_->info.path +
                              ": the report is corrupt (executed steps out of order)");
        }
        out.push_back({run, seq, static_cast<std::uint32_t>(q.integer(1)), q.unsignedInteger(2),
                       q.unsignedInteger(3)});
    }
    return out;
}

std::vector<LodLevel> ReportReader::lodLevels(std::uint32_t run) const {
    std::vector<LodLevel> stored;
    auto q =
        d_->db->prepare("SELECT level, bucket_steps, buckets, group_tiles, groups FROM lod_levels"
                        " WHERE run = ?1 ORDER BY level");
    q.bind(1, std::int64_t{run});
    while (q.step()) {
        stored.push_back({static_cast<std::uint32_t>(q.integer(0)), q.unsignedInteger(1),
                          q.unsignedInteger(2), static_cast<std::uint32_t>(q.integer(3)),
                          static_cast<std::uint32_t>(q.integer(4))});
    }
    auto steps = d_->db->prepare("SELECT steps FROM runs WHERE id = ?1");
    steps.bind(1, std::int64_t{run});
    if (!steps.step()) {
        throw ReportError(d_->info.path + ": no run " + std::to_string(run) + " in the report");
    }
    const std::uint32_t groupTiles = stored.empty() ? kLodGroupTiles : stored.front().groupTiles;
    std::vector<LodLevel> out{
        {0, 1, steps.unsignedInteger(0), groupTiles, groupCount(d_->target.numTiles, groupTiles)}};
    out.insert(out.end(), stored.begin(), stored.end());
    return out;
}

std::vector<LodBucket> ReportReader::lodBuckets(std::uint32_t run, std::uint32_t level,
                                                std::uint64_t firstSeq,
                                                std::uint64_t endSeq) const {
    std::vector<LodBucket> out;
    if (endSeq <= firstSeq) {
        return out;
    }
    if (level == 0) {
        const std::uint32_t groupTiles = lodLevels(run).front().groupTiles;
        auto phases =
            d_->db->prepare("SELECT compute_phase_cycles, exchange_phase_cycles, sync_cycles"
                            " FROM program_steps WHERE id = ?1");
        for (const ExecutedStep& e : executedSteps(run, firstSeq, endSeq)) {
            auto it = d_->stepGroups.find(e.programStep);
            if (it == d_->stepGroups.end()) {
                const StepTiles t = stepTiles(e.programStep);
                const std::vector<std::uint64_t> compute(t.computeCycles.begin(),
                                                         t.computeCycles.end());
                const std::vector<std::uint64_t> exchange(t.exchangeCycles.begin(),
                                                          t.exchangeCycles.end());
                LodBucket g;
                groupStats(compute, exchange, t.totalCycles, groupTiles, g);
                phases.bind(1, std::int64_t{e.programStep});
                if (phases.step()) {
                    g.computePhaseCycles = phases.unsignedInteger(0);
                    g.exchangePhaseCycles = phases.unsignedInteger(1);
                    g.syncPhaseCycles = phases.unsignedInteger(2);
                }
                phases.reset();
                it = d_->stepGroups.emplace(e.programStep, std::move(g)).first;
            }
            LodBucket b = it->second;
            b.level = 0;
            b.index = e.sequence;
            b.firstSeq = e.sequence;
            b.steps = 1;
            b.startCycle = e.startCycle;
            b.cycles = e.cycles;
            b.maxStepCycles = e.cycles;
            out.push_back(std::move(b));
        }
        return out;
    }

    auto info = d_->db->prepare(
        "SELECT bucket_steps, groups FROM lod_levels WHERE run = ?1 AND level = ?2");
    info.bind(1, std::int64_t{run}).bind(2, std::int64_t{level});
    if (!info.step()) {
        throw ReportError(d_->info.path + ": run " + std::to_string(run) +
                          " has no level-of-detail level " + std::to_string(level));
    }
    const std::uint64_t bucketSteps = std::max<std::uint64_t>(info.unsignedInteger(0), 1);
    const std::uint64_t entries = (info.unsignedInteger(1) + 1) * 3;
    auto q = d_->db->prepare(
        "SELECT bucket, first_seq, steps, start_cycle, cycles, compute_phase_cycles,"
        " exchange_phase_cycles, sync_phase_cycles, max_step_cycles, compute, exchange, sync"
        " FROM lod_buckets WHERE run = ?1 AND level = ?2 AND bucket >= ?3 AND bucket <= ?4"
        " ORDER BY bucket");
    q.bind(1, std::int64_t{run})
        .bind(2, std::int64_t{level})
        .bind(3, i64(firstSeq / bucketSteps))
        .bind(4, i64((endSeq - 1) / bucketSteps));
    auto decode = [&](int column, const char* what) {
        const std::vector<std::uint64_t> flat = sql::unpackU64(q.blob(column), what);
        if (flat.size() != entries) {
            d_->corrupt(std::string(what) + " has " + std::to_string(flat.size()) +
                        " values, expected " + std::to_string(entries));
        }
        std::vector<GroupStats> stats(flat.size() / 3);
        for (std::size_t i = 0; i < stats.size(); ++i) {
            stats[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
        }
        return stats;
    };
    while (q.step()) {
        LodBucket b;
        b.level = level;
        b.index = q.unsignedInteger(0);
        b.firstSeq = q.unsignedInteger(1);
        b.steps = q.unsignedInteger(2);
        b.startCycle = q.unsignedInteger(3);
        b.cycles = q.unsignedInteger(4);
        b.computePhaseCycles = q.unsignedInteger(5);
        b.exchangePhaseCycles = q.unsignedInteger(6);
        b.syncPhaseCycles = q.unsignedInteger(7);
        b.maxStepCycles = q.unsignedInteger(8);
        b.compute = decode(9, "lod_buckets.compute");
        b.exchange = decode(10, "lod_buckets.exchange");
        b.sync = decode(11, "lod_buckets.sync");
        out.push_back(std::move(b));
    }
    return out;
}

std::vector<VerificationEntry> ReportReader::verifications() const {
    std::vector<VerificationEntry> out;
    auto q = d_->db->prepare(
        "SELECT workload_id, passed, max_abs_error, detail_id FROM verification ORDER BY id");
    while (q.step()) {
        out.push_back({d_->str(q, 0), q.integer(1) != 0, q.real(2), d_->str(q, 3)});
    }
    return out;
}

} // namespace tessera::reports
