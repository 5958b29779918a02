// Execution queries of ReportReader: runs, executed steps, level-of-detail
// buckets, verification.
#include "reports/LodBuilder.h"
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Schema.h"
#include "reports/Tables.h"

#include <algorithm>

namespace tessera::reports {

namespace {

std::int64_t i64(std::uint64_t v) {
    return static_cast<std::int64_t>(std::min<std::uint64_t>(v, std::uint64_t{INT64_MAX}));
}

} // namespace

std::vector<RunEntry> ReportReader::runs() const {
    std::vector<RunEntry> out;
    using tables::col;
    using C = tables::runs::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::runs::kTable) + " ORDER BY id");
    while (q.step()) {
        RunEntry r;
        r.id = q.index(col(C::id));
        r.programIndex = q.index(col(C::program_index));
        r.startCycle = q.count(col(C::start_cycle));
        r.steps = q.count(col(C::steps));
        r.cycles = q.count(col(C::cycles));
        r.computeCycles = q.count(col(C::compute_cycles));
        r.exchangeCycles = q.count(col(C::exchange_cycles));
        r.syncCycles = q.count(col(C::sync_cycles));
        r.completed = q.flag(col(C::completed));
        r.error = d_->optionalStr(q, col(C::error_id));
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<ExecutedStep> ReportReader::executedSteps(std::uint32_t run, std::uint64_t firstSeq,
                                                      std::uint64_t endSeq) const {
    std::vector<ExecutedStep> out;
    d_->checkRun(run);
    if (endSeq <= firstSeq) {
        return out;
    }
    using tables::col;
    using C = tables::executed_steps::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::executed_steps::kTable) +
                             " WHERE run = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq");
    q.bind(1, std::int64_t{run}).bind(2, i64(firstSeq)).bind(3, i64(endSeq));
    while (q.step()) {
        const std::uint64_t seq = q.count(col(C::seq));
        // A damaged index can hand back rows outside the range or out of
        // order; callers page by sequence, so that would never end.
        if (seq < firstSeq || seq >= endSeq || (!out.empty() && seq <= out.back().sequence)) {
            throw ReportError(d_->info.path +
                              ": the report is corrupt (executed steps out of order)");
        }
        const std::uint32_t step = q.index(col(C::program_step));
        if (!d_->programStepIds.contains(step)) {
            q.damaged(col(C::program_step), std::to_string(step) + " (step " + std::to_string(seq) +
                                                " of run " + std::to_string(run) +
                                                ") names no program step");
        }
        out.push_back({run, seq, step, q.count(col(C::start_cycle)), q.count(col(C::cycles))});
    }
    return out;
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> ReportReader::stepExecutions() const {
    for (const RunEntry& run : runs()) {
        d_->checkRun(run.id);
    }
    std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
    // Since 1.2 the writer stores the counts (a row per step and run, summed
    // here so each value is checked); an older report counts its executed
    // steps, a scan of all of them.
    auto q = d_->db->prepare(d_->hasStoredFigures()
                                 ? "SELECT program_step, executions FROM step_executions"
                                   " ORDER BY program_step"
                                 : "SELECT program_step, count(*) FROM executed_steps"
                                   " GROUP BY program_step ORDER BY program_step");
    while (q.step()) {
        const std::uint32_t step = q.index(0);
        if (!d_->programStepIds.contains(step)) {
            q.damaged(0, std::to_string(step) + " names no program step");
        }
        const std::uint64_t count = q.count(1);
        if (!out.empty() && out.back().first == step) {
            out.back().second += count;
        } else {
            out.emplace_back(step, count);
        }
    }
    return out;
}

std::vector<LodLevel> ReportReader::lodLevels(std::uint32_t run) const {
    std::vector<LodLevel> stored;
    d_->checkRun(run);
    auto q =
        d_->db->prepare("SELECT level, bucket_steps, buckets, group_tiles, groups FROM lod_levels"
                        " WHERE run = ?1 ORDER BY level");
    q.bind(1, std::int64_t{run});
    while (q.step()) {
        stored.push_back({q.index(0), q.count(1), q.count(2), q.index(3), q.index(4)});
    }
    auto steps = d_->db->prepare("SELECT steps FROM runs WHERE id = ?1");
    steps.bind(1, std::int64_t{run});
    if (!steps.step()) {
        throw ReportError(d_->info.path + ": no run " + std::to_string(run) + " in the report");
    }
    const std::uint32_t groupTiles = stored.empty() ? kLodGroupTiles : stored.front().groupTiles;
    std::vector<LodLevel> out{
        {0, 1, steps.count(0), groupTiles, groupCount(d_->target.numTiles, groupTiles)}};
    out.insert(out.end(), stored.begin(), stored.end());
    return out;
}

std::vector<LodBucket> ReportReader::lodBuckets(std::uint32_t run, std::uint32_t level,
                                                std::uint64_t firstSeq,
                                                std::uint64_t endSeq) const {
    std::vector<LodBucket> out;
    d_->checkRun(run);
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
                    g.computePhaseCycles = phases.count(0);
                    g.exchangePhaseCycles = phases.count(1);
                    g.syncPhaseCycles = phases.count(2);
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
    // Checked at open: bucket_steps > 0, groups agree with the tiles.
    const std::uint64_t bucketSteps = std::max<std::uint64_t>(info.count(0), 1);
    const std::uint64_t entries = (std::uint64_t{info.index(1)} + 1) * 3;
    using tables::col;
    using C = tables::lod_buckets::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::lod_buckets::kTable) +
                             " WHERE run = ?1 AND level = ?2 AND bucket >= ?3 AND bucket <= ?4"
                             " ORDER BY bucket");
    q.bind(1, std::int64_t{run})
        .bind(2, std::int64_t{level})
        .bind(3, i64(firstSeq / bucketSteps))
        .bind(4, i64((endSeq - 1) / bucketSteps));
    auto decode = [&](int column) {
        const std::span<const std::byte> blob = q.bytes(column);
        const std::string where = " of bucket " + std::to_string(q.count(col(C::bucket))) +
                                  " of level " + std::to_string(level) + " of run " +
                                  std::to_string(run);
        if (blob.size() != entries * 8) {
            q.damaged(column, where + " has " + std::to_string(blob.size()) + " bytes, expected " +
                                  std::to_string(entries * 8));
        }
        const std::vector<std::uint64_t> flat = sql::unpackU64(blob, q.columnName(column));
        std::vector<GroupStats> stats(flat.size() / 3);
        for (std::size_t i = 0; i < stats.size(); ++i) {
            stats[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
            if (stats[i].min > stats[i].max || stats[i].sum > sql::kMaxCount) {
                q.damaged(column, where + " holds " + std::to_string(stats[i].min) + ", " +
                                      std::to_string(stats[i].max) + ", " +
                                      std::to_string(stats[i].sum) + ": not min, max and sum");
            }
        }
        return stats;
    };
    while (q.step()) {
        LodBucket b;
        b.level = level;
        b.index = q.count(col(C::bucket));
        b.firstSeq = q.count(col(C::first_seq));
        b.steps = q.count(col(C::steps));
        b.startCycle = q.count(col(C::start_cycle));
        b.cycles = q.count(col(C::cycles));
        b.computePhaseCycles = q.count(col(C::compute_phase_cycles));
        b.exchangePhaseCycles = q.count(col(C::exchange_phase_cycles));
        b.syncPhaseCycles = q.count(col(C::sync_phase_cycles));
        b.maxStepCycles = q.count(col(C::max_step_cycles));
        // Buckets tile the run: bucket k holds steps [k * bucketSteps, ...).
        if (b.firstSeq != b.index * bucketSteps || b.steps == 0 || b.steps > bucketSteps) {
            q.damaged(col(C::first_seq),
                      "of bucket " + std::to_string(b.index) + " of level " +
                          std::to_string(level) + " of run " + std::to_string(run) + " is " +
                          std::to_string(b.firstSeq) + " with " + std::to_string(b.steps) +
                          " steps, not a bucket of " + std::to_string(bucketSteps));
        }
        b.compute = decode(col(C::compute));
        b.exchange = decode(col(C::exchange));
        b.sync = decode(col(C::sync));
        out.push_back(std::move(b));
    }
    return out;
}

std::vector<VerificationEntry> ReportReader::verifications() const {
    std::vector<VerificationEntry> out;
    auto q = d_->db->prepare(
        "SELECT workload_id, passed, max_abs_error, detail_id FROM verification ORDER BY id");
    while (q.step()) {
        out.push_back({d_->str(q, 0), q.flag(1), q.number(2), d_->str(q, 3)});
    }
    return out;
}

} // namespace tessera::reports
