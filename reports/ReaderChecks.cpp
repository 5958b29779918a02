// The structural checks a report gets at open (ReportReader::Impl::
// checkStructure): what single values cannot show. Each check that fails
// keeps one ReportError line for the part it covers, which the queries of
// that part throw; a check that cannot even run (a dropped table) is such a
// line too. All of it reads little: the program tree, the program steps'
// blob sizes (not their contents), a few rows per run.
#include "reports/LodBuilder.h"
#include "reports/ReaderImpl.h"
#include "reports/ReportError.h"
#include "reports/Tables.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>

namespace tessera::reports {

using tables::col;

namespace {

// Runs a check; a ReportError it throws becomes `problem` (when still empty).
void record(std::string& problem, const std::function<void()>& check) {
    try {
        check();
    } catch (const ReportError& e) {
        if (problem.empty()) {
            problem = e.what();
        }
    }
}

std::string ofRun(std::uint32_t run) {
    return " of run " + std::to_string(run);
}

// The SELECT of program_step_tiles: step_id, then the type and length of each
// array column, from the table's column list: result column 2k - 1 is the
// type of column k, 2k its length.
std::string stepTileSizesSql() {
    const tables::Table& t = tables::program_step_tiles::kTable;
    static_assert(col(tables::program_step_tiles::Col::step_id) == 0, "the arrays follow the step");
    std::string sql = "SELECT step_id";
    for (std::size_t c = 1; c < t.count; ++c) {
        const std::string name(t.columns[c].name);
        sql += ", typeof(" + name + "), length(" + name + ")";
    }
    return sql + " FROM program_step_tiles";
}

// One row of lod_levels.
struct LevelRow {
    std::uint32_t run = 0;
    std::uint32_t level = 0;
    std::uint64_t bucketSteps = 0;
    std::uint64_t buckets = 0;
    std::uint32_t groupTiles = 0;
    std::uint32_t groups = 0;
};

// What a run's levels read so far left: the next level must follow on.
struct LevelsBelow {
    std::uint32_t level = 0;
    std::uint64_t bucketSteps = 0;
    std::optional<std::uint32_t> groupTiles;
    std::uint64_t buckets = 0; // of the highest level
};

// The buckets stored per (run, level): their count, first and last.
using StoredBuckets =
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::array<std::uint64_t, 3>>;

// The checks, one function per part of the report; what they find goes to
// the reader's `problems`.
class StructureChecks {
public:
    explicit StructureChecks(ReportReader::Impl& reader)
        : r_(reader) {}

    void run() {
        checkProgramTree();
        checkProgramSteps();
        checkStepTiles();
        if (!readRuns()) {
            return;
        }
        for (const auto& [id, steps] : runSteps_) {
            std::string& problem = r_.problems.runs[id];
            record(problem,
                   [&, id = id, steps = steps] { checkExecutedSteps(id, steps, problem); });
        }
        if (r_.hasStoredFigures()) {
            record(runsProblem_, [&] { checkStepExecutions(); });
        }
        record(runsProblem_, [&] { checkLodLevels(readStoredBuckets()); });
        spreadRunsProblem();
    }

private:
    std::string damaged(const std::string& why) const {
        return r_.info.path + ": the report is corrupt (" + why + ")";
    }

    // The program tree: every parent exists, and walking up from any node
    // ends at a root (no cycles).
    void checkProgramTree() {
        record(r_.problems.programTree, [&] {
            using N = tables::program_nodes::Col;
            auto q = r_.db->prepare(tables::selectSql(tables::program_nodes::kTable));
            while (q.step()) {
                parent_[q.index(col(N::id))] = q.optionalIndex(col(N::parent_id));
            }
            if (std::string problem = programTreeProblem(); !problem.empty()) {
                r_.problems.programTree = std::move(problem);
            }
        });
    }

    std::string programTreeProblem() const {
        // 0: not seen, 1: on the current walk, 2: known to reach a root.
        std::unordered_map<std::uint32_t, int> state;
        std::vector<std::uint32_t> walk;
        for (const auto& [node, up] : parent_) {
            walk.clear();
            std::uint32_t n = node;
            while (n != record::kNone && state[n] == 0) {
                state[n] = 1;
                walk.push_back(n);
                const auto it = parent_.find(n);
                if (it == parent_.end()) {
                    return damaged("program_nodes.parent_id of node " +
                                   std::to_string(walk.end()[-2]) + " names node " +
                                   std::to_string(n) + ", which does not exist");
                }
                n = it->second;
            }
            if (n != record::kNone && state[n] == 1) {
                return damaged("program_nodes.parent_id: node " + std::to_string(n) +
                               " is its own ancestor, the program tree has a cycle");
            }
            for (const std::uint32_t w : walk) {
                state[w] = 2;
            }
        }
        return {};
    }

    // Program steps: their nodes exist; remember which steps there are.
    void checkProgramSteps() {
        record(r_.problems.programSteps, [&] {
            using S = tables::program_steps::Col;
            auto ids = r_.db->prepare(r_.programStepsSql());
            while (ids.step()) {
                r_.programStepIds.insert(ids.index(col(S::id)));
            }
            auto q = r_.db->prepare(r_.programStepsSql());
            while (q.step()) {
                const std::uint32_t node = q.index(col(S::node_id));
                if (r_.problems.programTree.empty() && !parent_.contains(node)) {
                    q.damaged(col(S::node_id), std::to_string(node) + " of step " +
                                                   std::to_string(q.index(col(S::id))) +
                                                   " names no program node");
                }
            }
        });
    }

    // Per-step tile arrays: blobs of 4 bytes per tile (or empty), read by
    // size and type only. A table that cannot be read damages every step.
    void checkStepTiles() {
        std::string tilesProblem;
        record(tilesProblem, [&] {
            const tables::Table& t = tables::program_step_tiles::kTable;
            auto q = r_.db->prepare(stepTileSizesSql());
            const std::uint64_t expected = std::uint64_t{4} * r_.target.numTiles;
            while (q.step()) {
                const std::uint32_t step = q.index(col(tables::program_step_tiles::Col::step_id));
                for (std::size_t c = 1; c < t.count; ++c) {
                    const auto k = static_cast<int>(c);
                    const std::string type = q.text(2 * k - 1);
                    const auto length = static_cast<std::uint64_t>(q.integer(2 * k));
                    const std::string what = "program_step_tiles." +
                                             std::string(t.columns[c].name) + " of step " +
                                             std::to_string(step);
                    if (type != "blob") {
                        r_.problems.stepTiles.emplace(
                            step, damaged(what + " is " + type + ", not a blob"));
                    } else if (length != 0 && length != expected) {
                        r_.problems.stepTiles.emplace(
                            step,
                            damaged(what + " has " + std::to_string(length) + " bytes, expected " +
                                    std::to_string(expected) + " (4 per tile)"));
                    }
                }
            }
        });
        if (!tilesProblem.empty()) {
            for (const std::uint32_t step : r_.programStepIds) {
                r_.problems.stepTiles.emplace(step, tilesProblem);
            }
        }
    }

    // The runs and their step counts; false (every run damaged) when the
    // table cannot be read.
    bool readRuns() {
        record(runsProblem_, [&] {
            using R = tables::runs::Col;
            auto q = r_.db->prepare(tables::selectSql(tables::runs::kTable));
            while (q.step()) {
                runSteps_[q.index(col(R::id))] = q.count(col(R::steps));
            }
        });
        if (!runsProblem_.empty()) {
            r_.problems.runs.emplace(record::kNone, runsProblem_);
            return false;
        }
        return true;
    }

    // The executed steps of a run number 0 .. steps-1.
    void checkExecutedSteps(std::uint32_t id, std::uint64_t steps, std::string& problem) {
        using E = tables::executed_steps::Col;
        const std::string bySeq =
            tables::selectSql(tables::executed_steps::kTable) + " WHERE run = :run ORDER BY seq";
        auto q = r_.db->prepare(bySeq + " DESC LIMIT 1");
        q.bind(":run", std::int64_t{id});
        const std::uint64_t end = q.step() ? q.count(col(E::seq)) + 1 : 0;
        auto first = r_.db->prepare(bySeq + " LIMIT 1");
        first.bind(":run", std::int64_t{id});
        const std::uint64_t begin = first.step() ? first.count(col(E::seq)) : 0;
        if (end != steps || begin != 0) {
            problem =
                damaged("runs.steps" + ofRun(id) + " is " + std::to_string(steps) + ", but " +
                        (end == 0 ? std::string("executed_steps holds none of its steps")
                                  : "executed_steps numbers its steps from " +
                                        std::to_string(begin) + " to " + std::to_string(end - 1)));
        }
    }

    // The executions stored per step add up to the run's steps. Summed here:
    // each value is checked (SQLite's sum() of a damaged one would overflow
    // without naming the column).
    void checkStepExecutions() {
        using X = tables::step_executions::Col;
        auto q = r_.db->prepare(tables::selectSql(tables::step_executions::kTable));
        std::map<std::uint32_t, std::uint64_t> sums;
        while (q.step()) {
            sums[q.index(col(X::run))] += q.count(col(X::executions));
        }
        for (const auto& [id, steps] : runSteps_) {
            std::string& problem = r_.problems.runs[id];
            const std::uint64_t sum = sums.contains(id) ? sums[id] : 0;
            if (problem.empty() && sum != steps) {
                problem =
                    damaged("step_executions" + ofRun(id) + " add up to " + std::to_string(sum) +
                            " executions, but runs.steps is " + std::to_string(steps));
            }
        }
    }

    // The aliases name the column in errors about the aggregates.
    StoredBuckets readStoredBuckets() const {
        enum class Stored { run, level, buckets, first, last };
        auto counts = r_.db->prepare(
            "SELECT run, level, count(*), min(bucket) AS \"lod_buckets.bucket\","
            " max(bucket) AS \"lod_buckets.bucket\" FROM lod_buckets GROUP BY run, level");
        StoredBuckets stored;
        while (counts.step()) {
            stored[{counts.index(col(Stored::run)), counts.index(col(Stored::level))}] = {
                counts.count(col(Stored::buckets)), counts.count(col(Stored::first)),
                counts.count(col(Stored::last))};
        }
        return stored;
    }

    // The level-of-detail levels agree with the step count, the tiles and
    // the stored buckets; a run that executed steps has levels up to one of
    // a single bucket (the timeline's coarsest view).
    void checkLodLevels(const StoredBuckets& stored) {
        using L = tables::lod_levels::Col;
        auto q =
            r_.db->prepare(tables::selectSql(tables::lod_levels::kTable) + " ORDER BY run, level");
        std::map<std::uint32_t, LevelsBelow> below;
        while (q.step()) {
            const std::uint32_t run = q.index(col(L::run));
            const auto it = runSteps_.find(run);
            std::string& problem = r_.problems.runs[run];
            if (it == runSteps_.end() || !problem.empty()) {
                continue; // a level of no run is never read
            }
            const LevelRow row{run,
                               q.index(col(L::level)),
                               q.count(col(L::bucket_steps)),
                               q.count(col(L::buckets)),
                               q.index(col(L::group_tiles)),
                               q.index(col(L::groups))};
            LevelsBelow& b = below[run];
            problem = levelProblem(row, b, it->second, stored);
            b = {row.level, row.bucketSteps, row.groupTiles, row.buckets};
        }
        for (const auto& [id, steps] : runSteps_) {
            std::string& problem = r_.problems.runs[id];
            const std::uint64_t top = below[id].buckets;
            if (problem.empty() && steps > 0 && top != 1) {
                problem = damaged("lod_levels" + ofRun(id) + " of " + std::to_string(steps) +
                                  " steps ends with " + std::to_string(top) + " buckets, not one");
            }
        }
    }

    // What is wrong with one level of a run of `steps` steps; empty if nothing.
    std::string levelProblem(const LevelRow& row, const LevelsBelow& below, std::uint64_t steps,
                             const StoredBuckets& stored) const {
        const std::uint64_t numTiles = r_.target.numTiles;
        const std::string what = " of level " + std::to_string(row.level) + ofRun(row.run);
        if (row.bucketSteps == 0) {
            return damaged("lod_levels.bucket_steps" + what + " is 0: no bucket holds a step");
        }
        const std::uint64_t wanted = (steps + row.bucketSteps - 1) / row.bucketSteps;
        if (row.level != below.level + 1) {
            return damaged("lod_levels.level" + ofRun(row.run) + " goes from " +
                           std::to_string(below.level) + " to " + std::to_string(row.level));
        }
        if (row.bucketSteps <= below.bucketSteps) {
            return damaged("lod_levels.bucket_steps" + what + " is " +
                           std::to_string(row.bucketSteps) + ", not more than the level below");
        }
        if (row.buckets != wanted) {
            return damaged("lod_levels.buckets" + what + " is " + std::to_string(row.buckets) +
                           ", but " + std::to_string(steps) + " steps in buckets of " +
                           std::to_string(row.bucketSteps) + " make " + std::to_string(wanted));
        }
        if (row.groupTiles == 0 || (below.groupTiles && *below.groupTiles != row.groupTiles)) {
            return damaged("lod_levels.group_tiles" + what + " is " +
                           std::to_string(row.groupTiles));
        }
        const std::uint32_t groups = groupCount(r_.target.numTiles, row.groupTiles);
        if (row.groups != groups) {
            return damaged("lod_levels.groups" + what + " is " + std::to_string(row.groups) +
                           ", but " + std::to_string(numTiles) + " tiles in groups of " +
                           std::to_string(row.groupTiles) + " make " + std::to_string(groups));
        }
        const auto s = stored.find({row.run, row.level});
        const std::array<std::uint64_t, 3> found =
            s == stored.end() ? std::array<std::uint64_t, 3>{0, 0, 0} : s->second;
        if (found[0] != row.buckets ||
            (row.buckets > 0 && (found[1] != 0 || found[2] + 1 != row.buckets))) {
            return damaged("lod_buckets" + what + " holds " + std::to_string(found[0]) +
                           " buckets, lod_levels.buckets says " + std::to_string(row.buckets));
        }
        return {};
    }

    // A failure over all runs damages each run not already damaged.
    void spreadRunsProblem() {
        if (!runsProblem_.empty()) {
            for (auto& [id, problem] : r_.problems.runs) {
                if (problem.empty()) {
                    problem = runsProblem_;
                }
            }
        }
        std::erase_if(r_.problems.runs, [](const auto& entry) { return entry.second.empty(); });
    }

    ReportReader::Impl& r_;
    std::unordered_map<std::uint32_t, std::uint32_t> parent_; // program node -> parent
    std::map<std::uint32_t, std::uint64_t> runSteps_;         // run -> steps
    std::string runsProblem_;                                 // a check over all runs that failed
};

} // namespace

void ReportReader::Impl::checkStructure() {
    StructureChecks(*this).run();
}

void ReportReader::Impl::checkRun(std::uint32_t run) const {
    for (const std::uint32_t key : {run, record::kNone}) {
        if (const auto it = problems.runs.find(key); it != problems.runs.end()) {
            throw ReportError(it->second);
        }
    }
}

} // namespace tessera::reports
