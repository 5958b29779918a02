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

#include <array>
#include <functional>
#include <map>
#include <unordered_map>

namespace tessera::reports {

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

} // namespace

using tables::col;

void ReportReader::Impl::checkStructure() {
    const std::string& p = info.path;
    auto damaged = [&](const std::string& why) {
        return p + ": the report is corrupt (" + why + ")";
    };

    // The program tree: every parent exists, and walking up from any node
    // ends at a root (no cycles).
    std::unordered_map<std::uint32_t, std::uint32_t> parent;
    record(problems.programTree, [&] {
        using N = tables::program_nodes::Col;
        auto q = db->prepare(tables::selectSql(tables::program_nodes::kTable));
        while (q.step()) {
            parent[q.index(col(N::id))] = q.optionalIndex(col(N::parent_id));
        }
        // 0: not seen, 1: on the current walk, 2: known to reach a root.
        std::unordered_map<std::uint32_t, int> state;
        std::vector<std::uint32_t> walk;
        for (const auto& [node, up] : parent) {
            walk.clear();
            std::uint32_t n = node;
            while (n != record::kNone && state[n] == 0) {
                state[n] = 1;
                walk.push_back(n);
                const auto it = parent.find(n);
                if (it == parent.end()) {
                    problems.programTree = damaged("program_nodes.parent_id of node " +
                                                   std::to_string(walk.end()[-2]) + " names node " +
                                                   std::to_string(n) + ", which does not exist");
                    return;
                }
                n = it->second;
            }
            if (n != record::kNone && state[n] == 1) {
                problems.programTree =
                    damaged("program_nodes.parent_id: node " + std::to_string(n) +
                            " is its own ancestor, the program tree has a cycle");
                return;
            }
            for (const std::uint32_t w : walk) {
                state[w] = 2;
            }
        }
    });

    // Program steps: their nodes exist; remember which steps there are.
    record(problems.programSteps, [&] {
        using S = tables::program_steps::Col;
        auto ids = db->prepare(programStepsSql());
        while (ids.step()) {
            programStepIds.insert(ids.index(col(S::id)));
        }
        auto q = db->prepare(programStepsSql());
        while (q.step()) {
            const std::uint32_t node = q.index(col(S::node_id));
            if (problems.programTree.empty() && !parent.contains(node)) {
                q.damaged(col(S::node_id), std::to_string(node) + " of step " +
                                               std::to_string(q.index(col(S::id))) +
                                               " names no program node");
            }
        }
    });

    // Per-step tile arrays: blobs of 4 bytes per tile (or empty), read by
    // size and type only.
    std::string tilesProblem;
    record(tilesProblem, [&] {
        // step_id, then the type and length of each array column, from the
        // table's column list: result column 2k - 1 is the type of column k,
        // 2k its length.
        const tables::Table& t = tables::program_step_tiles::kTable;
        using T = tables::program_step_tiles::Col;
        static_assert(col(T::step_id) == 0, "the arrays follow the step");
        std::string sql = "SELECT step_id";
        for (std::size_t c = 1; c < t.count; ++c) {
            const std::string name(t.columns[c].name);
            sql += ", typeof(" + name + "), length(" + name + ")";
        }
        auto q = db->prepare(sql + " FROM program_step_tiles");
        const std::uint64_t expected = std::uint64_t{4} * target.numTiles;
        while (q.step()) {
            const std::uint32_t step = q.index(col(T::step_id));
            for (std::size_t c = 1; c < t.count; ++c) {
                const auto k = static_cast<int>(c);
                const std::string type = q.text(2 * k - 1);
                const auto length = static_cast<std::uint64_t>(q.integer(2 * k));
                const std::string what = "program_step_tiles." + std::string(t.columns[c].name) +
                                         " of step " + std::to_string(step);
                if (type != "blob") {
                    problems.stepTiles.emplace(step,
                                               damaged(what + " is " + type + ", not a blob"));
                } else if (length != 0 && length != expected) {
                    problems.stepTiles.emplace(step,
                                               damaged(what + " has " + std::to_string(length) +
                                                       " bytes, expected " +
                                                       std::to_string(expected) + " (4 per tile)"));
                }
            }
        }
    });
    if (!tilesProblem.empty()) {
        for (const std::uint32_t step : programStepIds) {
            problems.stepTiles.emplace(step, tilesProblem);
        }
    }

    // Runs: the executed steps number 0 .. steps-1, and the level-of-detail
    // levels agree with the step count, the tiles and the stored buckets.
    struct Run {
        std::uint64_t steps = 0;
    };
    std::map<std::uint32_t, Run> runs;
    std::string runsProblem;
    record(runsProblem, [&] {
        using R = tables::runs::Col;
        auto q = db->prepare(tables::selectSql(tables::runs::kTable));
        while (q.step()) {
            runs[q.index(col(R::id))].steps = q.count(col(R::steps));
        }
    });
    if (!runsProblem.empty()) {
        problems.runs.emplace(record::kNone, runsProblem);
        return;
    }
    for (const auto& [id, run] : runs) {
        std::string& problem = problems.runs[id];
        record(problem, [&, id = id, steps = run.steps] {
            using E = tables::executed_steps::Col;
            const std::string bySeq = tables::selectSql(tables::executed_steps::kTable) +
                                      " WHERE run = :run ORDER BY seq";
            auto q = db->prepare(bySeq + " DESC LIMIT 1");
            q.bind(":run", std::int64_t{id});
            const std::uint64_t end = q.step() ? q.count(col(E::seq)) + 1 : 0;
            auto first = db->prepare(bySeq + " LIMIT 1");
            first.bind(":run", std::int64_t{id});
            const std::uint64_t begin = first.step() ? first.count(col(E::seq)) : 0;
            if (end != steps || begin != 0) {
                problem = damaged(
                    "runs.steps" + ofRun(id) + " is " + std::to_string(steps) + ", but " +
                    (end == 0 ? std::string("executed_steps holds none of its steps")
                              : "executed_steps numbers its steps from " + std::to_string(begin) +
                                    " to " + std::to_string(end - 1)));
            }
        });
    }
    if (hasStoredFigures()) {
        // The executions stored per step add up to the run's steps.
        record(runsProblem, [&] {
            // Summed here: each value is checked (SQLite's sum() of a damaged
            // one would overflow without naming the column).
            using X = tables::step_executions::Col;
            auto q = db->prepare(tables::selectSql(tables::step_executions::kTable));
            std::map<std::uint32_t, std::uint64_t> sums;
            while (q.step()) {
                sums[q.index(col(X::run))] += q.count(col(X::executions));
            }
            for (const auto& [id, run] : runs) {
                std::string& problem = problems.runs[id];
                const std::uint64_t sum = sums.contains(id) ? sums[id] : 0;
                if (problem.empty() && sum != run.steps) {
                    problem = damaged("step_executions" + ofRun(id) + " add up to " +
                                      std::to_string(sum) + " executions, but runs.steps is " +
                                      std::to_string(run.steps));
                }
            }
        });
    }
    record(runsProblem, [&] {
        // The buckets stored per level: their count, first and last (the
        // aliases name the column in errors about the aggregates).
        enum class Stored { run, level, buckets, first, last };
        auto counts = db->prepare(
            "SELECT run, level, count(*), min(bucket) AS \"lod_buckets.bucket\","
            " max(bucket) AS \"lod_buckets.bucket\" FROM lod_buckets GROUP BY run, level");
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::array<std::uint64_t, 3>> stored;
        while (counts.step()) {
            stored[{counts.index(col(Stored::run)), counts.index(col(Stored::level))}] = {
                counts.count(col(Stored::buckets)), counts.count(col(Stored::first)),
                counts.count(col(Stored::last))};
        }
        using L = tables::lod_levels::Col;
        auto q =
            db->prepare(tables::selectSql(tables::lod_levels::kTable) + " ORDER BY run, level");
        std::map<std::uint32_t, std::uint64_t> lastBucketSteps;
        std::map<std::uint32_t, std::uint32_t> groupTiles;
        std::map<std::uint32_t, std::uint32_t> lastLevel;
        std::map<std::uint32_t, std::uint64_t> lastBuckets; // of the highest level
        while (q.step()) {
            const std::uint32_t run = q.index(col(L::run));
            const auto it = runs.find(run);
            std::string& problem = problems.runs[run];
            if (it == runs.end() || !problem.empty()) {
                continue; // a level of no run is never read
            }
            const std::uint32_t level = q.index(col(L::level));
            const std::uint64_t bucketSteps = q.count(col(L::bucket_steps));
            const std::uint64_t buckets = q.count(col(L::buckets));
            const std::uint32_t tiles = q.index(col(L::group_tiles));
            const std::uint32_t groups = q.index(col(L::groups));
            const std::string what = " of level " + std::to_string(level) + ofRun(run);
            const std::uint64_t steps = it->second.steps;
            if (bucketSteps == 0) {
                problem =
                    damaged("lod_levels.bucket_steps" + what + " is 0: no bucket holds a step");
            } else if (level != lastLevel[run] + 1) {
                problem = damaged("lod_levels.level" + ofRun(run) + " goes from " +
                                  std::to_string(lastLevel[run]) + " to " + std::to_string(level));
            } else if (bucketSteps <= lastBucketSteps[run]) {
                problem = damaged("lod_levels.bucket_steps" + what + " is " +
                                  std::to_string(bucketSteps) + ", not more than the level below");
            } else if (buckets != (steps + bucketSteps - 1) / bucketSteps) {
                problem = damaged("lod_levels.buckets" + what + " is " + std::to_string(buckets) +
                                  ", but " + std::to_string(steps) + " steps in buckets of " +
                                  std::to_string(bucketSteps) + " make " +
                                  std::to_string((steps + bucketSteps - 1) / bucketSteps));
            } else if (tiles == 0 || (groupTiles.contains(run) && groupTiles[run] != tiles)) {
                problem = damaged("lod_levels.group_tiles" + what + " is " + std::to_string(tiles));
            } else if (groups != groupCount(target.numTiles, tiles)) {
                problem = damaged("lod_levels.groups" + what + " is " + std::to_string(groups) +
                                  ", but " + std::to_string(target.numTiles) +
                                  " tiles in groups of " + std::to_string(tiles) + " make " +
                                  std::to_string(groupCount(target.numTiles, tiles)));
            } else {
                const auto s = stored.find({run, level});
                const std::array<std::uint64_t, 3> found =
                    s == stored.end() ? std::array<std::uint64_t, 3>{0, 0, 0} : s->second;
                if (found[0] != buckets ||
                    (buckets > 0 && (found[1] != 0 || found[2] + 1 != buckets))) {
                    problem =
                        damaged("lod_buckets" + what + " holds " + std::to_string(found[0]) +
                                " buckets, lod_levels.buckets says " + std::to_string(buckets));
                }
            }
            lastLevel[run] = level;
            lastBucketSteps[run] = bucketSteps;
            groupTiles[run] = tiles;
            lastBuckets[run] = buckets;
        }
        // A run that executed steps has levels up to one of a single bucket:
        // the timeline's coarsest view.
        for (const auto& [id, run] : runs) {
            std::string& problem = problems.runs[id];
            if (problem.empty() && run.steps > 0 && lastBuckets[id] != 1) {
                problem = damaged("lod_levels" + ofRun(id) + " of " + std::to_string(run.steps) +
                                  " steps ends with " + std::to_string(lastBuckets[id]) +
                                  " buckets, not one");
            }
        }
    });
    if (!runsProblem.empty()) {
        for (auto& [id, problem] : problems.runs) {
            if (problem.empty()) {
                problem = runsProblem;
            }
        }
    }
    std::erase_if(problems.runs, [](const auto& entry) { return entry.second.empty(); });
}

void ReportReader::Impl::checkRun(std::uint32_t run) const {
    for (const std::uint32_t key : {run, record::kNone}) {
        if (const auto it = problems.runs.find(key); it != problems.runs.end()) {
            throw ReportError(it->second);
        }
    }
}

} // namespace tessera::reports
