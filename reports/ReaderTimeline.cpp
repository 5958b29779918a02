// Execution queries of ReportReader: runs, executed steps, level-of-detail
// buckets, verification.
#include "reports/LodBuilder.h"
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Saturating.h"
#include "reports/Schema.h"
#include "reports/Tables.h"

#include <algorithm>

namespace tessera::reports {

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

std::vector<record::StepExecutionRecord>
ReportReader::executedSteps(std::uint32_t run, std::uint64_t firstSeq, std::uint64_t endSeq) const {
    std::vector<record::StepExecutionRecord> out;
    d_->checkRun(run);
    if (endSeq <= firstSeq) {
        return out;
    }
    using tables::col;
    using C = tables::executed_steps::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::executed_steps::kTable) +
                             " WHERE run = :run AND seq >= :first AND seq < :end ORDER BY seq");
    q.bind(":run", std::int64_t{run}).bind(":first", i64(firstSeq)).bind(":end", i64(endSeq));
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
        out.push_back(
            {run, seq, StepId{step}, q.count(col(C::start_cycle)), q.count(col(C::cycles))});
    }
    return out;
}

std::vector<std::pair<StepId, std::uint64_t>> ReportReader::stepExecutions() const {
    for (const RunEntry& run : runs()) {
        d_->checkRun(run.id);
    }
    std::vector<std::pair<StepId, std::uint64_t>> out;
    // Since 1.2 the writer stores the counts (a row per step and run, summed
    // here so each value is checked); an older report counts its executed
    // steps, a scan of all of them.
    using tables::col;
    using C = tables::step_executions::Col;
    const auto& table = tables::step_executions::kTable;
    auto q = d_->db->prepare(
        d_->hasStoredFigures()
            ? tables::selectSql(table) + " ORDER BY program_step"
            : tables::selectSql(table, "executed_steps", {{"executions", "count(*)"}}) +
                  " GROUP BY run, program_step ORDER BY program_step");
    while (q.step()) {
        const auto step = q.indexAs<StepId>(col(C::program_step));
        if (!d_->programStepIds.contains(step.value())) {
            q.damaged(col(C::program_step),
                      std::to_string(step.value()) + " names no program step");
        }
        const std::uint64_t count = q.count(col(C::executions));
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
    using tables::col;
    using L = tables::lod_levels::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::lod_levels::kTable) +
                             " WHERE run = :run ORDER BY level");
    q.bind(":run", std::int64_t{run});
    while (q.step()) {
        stored.push_back({q.index(col(L::level)), q.count(col(L::bucket_steps)),
                          q.count(col(L::buckets)), q.index(col(L::group_tiles)),
                          q.index(col(L::groups))});
    }
    using R = tables::runs::Col;
    auto steps = d_->db->prepare(tables::selectSql(tables::runs::kTable) + " WHERE id = :run");
    steps.bind(":run", std::int64_t{run});
    if (!steps.step()) {
        throw ReportError(d_->info.path + ": no run " + std::to_string(run) + " in the report");
    }
    const std::uint32_t groupTiles = stored.empty() ? kLodGroupTiles : stored.front().groupTiles;
    std::vector<LodLevel> out{{0, 1, steps.count(col(R::steps)), groupTiles,
                               groupCount(d_->target.numTiles, groupTiles)}};
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
        using P = tables::program_steps::Col;
        auto phases = d_->db->prepare(d_->programStepsSql() + " WHERE id = :step");
        for (const record::StepExecutionRecord& e : executedSteps(run, firstSeq, endSeq)) {
            auto it = d_->stepGroups.find(e.programStep);
            if (it == d_->stepGroups.end()) {
                const StepTiles t = stepTiles(e.programStep);
                const std::vector<std::uint64_t> compute(t.computeCycles.begin(),
                                                         t.computeCycles.end());
                const std::vector<std::uint64_t> exchange(t.exchangeCycles.begin(),
                                                          t.exchangeCycles.end());
                LodBucket g;
                groupStats(compute, exchange, t.totalCycles, groupTiles, g);
                phases.bind(":step", std::int64_t{e.programStep.value()});
                if (phases.step()) {
                    g.computePhaseCycles = phases.count(tables::col(P::compute_phase_cycles));
                    g.exchangePhaseCycles = phases.count(tables::col(P::exchange_phase_cycles));
                    g.syncPhaseCycles = phases.count(tables::col(P::sync_cycles));
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

    using tables::col;
    using L = tables::lod_levels::Col;
    auto info = d_->db->prepare(tables::selectSql(tables::lod_levels::kTable) +
                                " WHERE run = :run AND level = :level");
    info.bind(":run", std::int64_t{run}).bind(":level", std::int64_t{level});
    if (!info.step()) {
        throw ReportError(d_->info.path + ": run " + std::to_string(run) +
                          " has no level-of-detail level " + std::to_string(level));
    }
    // Checked at open: bucket_steps > 0, groups agree with the tiles.
    const std::uint64_t bucketSteps = std::max<std::uint64_t>(info.count(col(L::bucket_steps)), 1);
    const std::uint64_t entries = (std::uint64_t{info.index(col(L::groups))} + 1) * 3;
    using C = tables::lod_buckets::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::lod_buckets::kTable) +
                             " WHERE run = :run AND level = :level AND bucket >= :first"
                             " AND bucket <= :last ORDER BY bucket");
    q.bind(":run", std::int64_t{run})
        .bind(":level", std::int64_t{level})
        .bind(":first", i64(firstSeq / bucketSteps))
        .bind(":last", i64((endSeq - 1) / bucketSteps));
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

std::vector<record::VerificationRecord> ReportReader::verifications() const {
    std::vector<record::VerificationRecord> out;
    using tables::col;
    using C = tables::verification::Col;
    auto q = d_->db->prepare(tables::selectSql(tables::verification::kTable) + " ORDER BY id");
    while (q.step()) {
        out.push_back({d_->str(q, col(C::workload_id)), q.flag(col(C::passed)),
                       q.number(col(C::max_abs_error)), d_->str(q, col(C::detail_id))});
    }
    return out;
}

} // namespace tessera::reports
