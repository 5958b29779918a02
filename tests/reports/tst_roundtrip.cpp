// Writer -> file -> reader on a real engine run: every figure read back equals
// the record the engine emitted; LOD buckets equal a brute-force recount.
#include "SmallProgram.h"
#include "reports/LodBuilder.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <random>
#include <set>

using namespace tessera;
using namespace tessera::reports;

namespace {

// Independent of LodBuilder: per tile sums over steps [first, first + n).
struct Expected {
    std::uint64_t cycles = 0;
    std::vector<GroupStats> compute, exchange, sync;
};

Expected recount(const record::InMemoryRecorder& mem, std::uint32_t run, std::uint64_t first,
                 std::uint64_t n, std::uint32_t groupTiles) {
    const std::uint32_t tiles = mem.compiled.target.numTiles();
    std::vector<std::uint64_t> c(tiles), e(tiles);
    Expected x;
    for (const auto& s : mem.steps) {
        if (s.run != run || s.sequence < first || s.sequence >= first + n) {
            continue;
        }
        x.cycles += s.cycles;
        const auto& p = mem.compiled.programSteps[s.programStep.value()];
        for (std::uint32_t t = 0; t < tiles; ++t) {
            c[t] += t < p.computeCycles.size() ? p.computeCycles[t] : 0;
            e[t] += t < p.exchangeCycles.size() ? p.exchangeCycles[t] : 0;
        }
    }
    const std::uint32_t groups = (tiles + groupTiles - 1) / groupTiles;
    auto stats = [&](auto value) {
        std::vector<GroupStats> out(groups + 1, {UINT64_MAX, 0, 0});
        for (std::uint32_t t = 0; t < tiles; ++t) {
            for (std::uint32_t g : {t / groupTiles, groups}) {
                const std::uint64_t v = value(t);
                out[g].min = std::min(out[g].min, v);
                out[g].max = std::max(out[g].max, v);
                out[g].sum += v;
            }
        }
        return out;
    };
    x.compute = stats([&](std::uint32_t t) { return c[t]; });
    x.exchange = stats([&](std::uint32_t t) { return e[t]; });
    x.sync =
        stats([&](std::uint32_t t) { return x.cycles > c[t] + e[t] ? x.cycles - c[t] - e[t] : 0; });
    return x;
}

} // namespace

class RoundTrip : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::filesystem::path path_;
    record::InMemoryRecorder mem_;
    std::unique_ptr<ReportReader> reader_;
    static constexpr std::uint32_t kGroupTiles = 4;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = std::filesystem::path(dir_.path().toStdString()) / "small.tsr";
        WriterOptions options;
        options.toolVersion = "test";
        options.workload = "small-program";
        options.workloadParameters = {{"repeats", "150"}, {"tiles", "6"}};
        options.stepsPerTransaction = 7; // many batches
        options.lodGroupTiles = kGroupTiles;
        {
            ReportWriter writer(path_, options);
            testing::TeeRecorder tee(mem_, writer);
            const float sum = testing::SmallProgram{}.run(tee);
            QCOMPARE(sum, 3.0f * 8 * (1 + 2 + 3 + 4 + 5 + 6));
            QVERIFY(!std::filesystem::exists(path_)); // only the partial file so far
            QVERIFY(std::filesystem::exists(writer.partialPath()));
            writer.finish();
            QCOMPARE(writer.stepsWritten(), std::uint64_t(mem_.steps.size()));
        }
        QVERIFY(std::filesystem::exists(path_));
        QVERIFY(!std::filesystem::exists(path_.string() + ".partial"));
        reader_ = std::make_unique<ReportReader>(path_, OpenOptions{.quickCheck = true});
    }

    void info() {
        const ReportInfo& i = reader_->info();
        QVERIFY(i.complete);
        QCOMPARE(i.schemaMajor, 1);
        QCOMPARE(i.workload, std::string("small-program"));
        QCOMPARE(i.toolVersion, std::string("test"));
        QCOMPARE(i.workloadParameters.size(), std::size_t(2));
        QCOMPARE(i.workloadParameters[0].second, std::string("150"));
        QVERIFY(!i.createdAt.empty());
    }

    void target() {
        const auto& r = mem_.compiled.target;
        const TargetInfo& t = reader_->target();
        QCOMPARE(t.name, r.name);
        QCOMPARE(t.numTiles, r.numTiles());
        QCOMPARE(t.numIpus, r.numIPUs);
        QCOMPARE(t.bytesPerTile, std::uint64_t(r.bytesPerTile));
        QCOMPARE(t.clockHz, r.clockHz);
        QCOMPARE(t.workerContexts, r.numWorkerContexts);
        QCOMPARE(t.regions.size(), r.regions.size());
        for (std::size_t i = 0; i < r.regions.size(); ++i) {
            QCOMPARE(t.regions[i].name, r.regions[i].first);
            QCOMPARE(t.regions[i].bytes, r.regions[i].second);
        }
        QCOMPARE(t.parameters, r.parameters);
    }

    void graph() {
        const auto& c = mem_.compiled;
        const auto codelets = reader_->codelets();
        QCOMPARE(codelets.size(), c.codelets.size());
        for (std::size_t i = 0; i < codelets.size(); ++i) {
            QCOMPARE(codelets[i].name, c.codelets[i].name);
            QCOMPARE(codelets[i].codeBytes, std::uint64_t(c.codelets[i].codeBytes));
            QCOMPARE(codelets[i].cycleFormula, c.codelets[i].cycleFormula);
        }
        const auto vars = reader_->variables();
        QCOMPARE(vars.size(), c.variables.size());
        for (std::size_t i = 0; i < vars.size(); ++i) {
            const auto& r = c.variables[i];
            QCOMPARE(vars[i].id, r.id);
            QCOMPARE(vars[i].name, r.name);
            QCOMPARE(vars[i].type, r.type);
            QCOMPARE(vars[i].shape, r.shape);
            QCOMPARE(vars[i].numElements, r.numElements);
            QCOMPARE(vars[i].alwaysLive, r.alwaysLive);
            QCOMPARE(vars[i].isConstant, r.isConstant);
            QCOMPARE(vars[i].firstStep, r.firstStep);
            QCOMPARE(vars[i].lastStep, r.lastStep);
            std::vector<std::pair<record::TileId, std::uint64_t>> expected;
            for (const auto& tb : r.bytesByTile) {
                if (tb.second > 0) {
                    expected.push_back(tb);
                }
            }
            std::sort(expected.begin(), expected.end());
            QCOMPARE(reader_->variableTiles(r.id), expected);
        }
        const auto sets = reader_->computeSets();
        QCOMPARE(sets.size(), c.computeSets.size());
        for (std::size_t i = 0; i < sets.size(); ++i) {
            QCOMPARE(sets[i].name, c.computeSets[i].name);
            QCOMPARE(sets[i].vertexCount, c.computeSets[i].vertexCount);
        }
        const auto counts = reader_->vertexCounts();
        QCOMPARE(counts.size(), c.vertexCounts.size());
        std::uint64_t total = 0;
        for (const auto& v : counts) {
            total += v.count;
        }
        std::uint64_t expectedTotal = 0;
        for (const auto& v : c.vertexCounts) {
            expectedTotal += v.count;
        }
        QCOMPARE(total, expectedTotal);
        const record::ComputeSetId second{1u};
        QCOMPARE(reader_->vertexCounts(second).size(),
                 std::size_t(std::count_if(c.vertexCounts.begin(), c.vertexCounts.end(),
                                           [&](const auto& v) { return v.computeSet == second; })));
    }

    void program() {
        const auto& c = mem_.compiled;
        const auto nodes = reader_->programNodes();
        QCOMPARE(nodes.size(), c.programNodes.size());
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            QCOMPARE(nodes[i].parent, c.programNodes[i].parent);
            QCOMPARE(nodes[i].kind, c.programNodes[i].kind);
            QCOMPARE(nodes[i].name, c.programNodes[i].name);
            QCOMPARE(nodes[i].repeatCount, c.programNodes[i].repeatCount);
            QCOMPARE(nodes[i].step, c.programNodes[i].step);
            QCOMPARE(nodes[i].layer, c.programNodes[i].layer); // Blocks only (schema 1.2)
            QCOMPARE(nodes[i].libraryFunction, c.programNodes[i].libraryFunction);
        }
        const auto steps = reader_->programSteps();
        QCOMPARE(steps.size(), c.programSteps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto& r = c.programSteps[i];
            QCOMPARE(steps[i].name, r.name);
            QCOMPARE(steps[i].computeSet, r.computeSet);
            QCOMPARE(steps[i].totalCycles, r.totalCycles);
            QCOMPARE(steps[i].computePhaseCycles, r.computePhaseCycles);
            QCOMPARE(steps[i].exchangePhaseCycles, r.exchangePhaseCycles);
            QCOMPARE(steps[i].syncCycles, r.syncCycles);
            QCOMPARE(steps[i].flops, r.flops);
            const StepTiles t = reader_->stepTiles(r.id);
            auto padded = [&](std::vector<std::uint32_t> v) {
                v.resize(c.target.numTiles(), 0);
                return v;
            };
            QCOMPARE(t.computeCycles, padded(r.computeCycles));
            QCOMPARE(t.exchangeCycles, padded(r.exchangeCycles));
            QCOMPARE(t.bytesIn, padded(r.bytesIn));
            QCOMPARE(t.bytesOut, padded(r.bytesOut));
            QCOMPARE(t.notAlwaysLiveBytes, padded(r.notAlwaysLiveBytes));
            for (std::size_t tile = 0; tile < t.syncCycles.size(); ++tile) {
                QCOMPARE(std::uint64_t(t.syncCycles[tile]) + t.computeCycles[tile] +
                             t.exchangeCycles[tile],
                         r.totalCycles);
            }
            auto live = r.liveVariables;
            std::sort(live.begin(), live.end());
            live.erase(std::unique(live.begin(), live.end()), live.end());
            QCOMPARE(reader_->liveVariables(r.id), live);
        }
        // The small program exchanges in its copy step.
        QVERIFY(std::any_of(steps.begin(), steps.end(),
                            [](const auto& s) { return s.bytesInSum > 0; }));
    }

    // Which variables each step reads and writes, by the program's own text:
    // add reads a, b and writes c; the copy reads c, writes d; reduce reads d,
    // writes sum.
    void variableAccesses() {
        const auto vars = reader_->variables();
        auto nameOf = [&](record::VariableId id) {
            for (const auto& v : vars) {
                if (v.id == id) {
                    return v.name;
                }
            }
            return std::string("?");
        };
        std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> byStep;
        const auto steps = reader_->programSteps();
        const auto accesses = reader_->variableAccesses();
        QVERIFY(std::is_sorted(accesses.begin(), accesses.end(), [](const auto& x, const auto& y) {
            return std::tie(x.step, x.variable) < std::tie(y.step, y.variable);
        }));
        for (const auto& a : accesses) {
            auto& [reads, writes] = byStep[steps.at(a.step.value()).name];
            if (a.reads()) {
                reads.insert(nameOf(a.variable));
            }
            if (a.writes()) {
                writes.insert(nameOf(a.variable));
            }
        }
        using Names = std::set<std::string>;
        QCOMPARE(byStep["add step"].first, (Names{"a", "b"}));
        QCOMPARE(byStep["add step"].second, (Names{"c"}));
        QCOMPARE(byStep["shift"].first, (Names{"c"}));
        QCOMPARE(byStep["shift"].second, (Names{"d"}));
        QCOMPARE(byStep["reduce step"].first, (Names{"d"}));
        QCOMPARE(byStep["reduce step"].second, (Names{"sum"}));
    }

    void memory() {
        const auto& c = mem_.compiled;
        const auto tiles = reader_->tileMemory();
        QCOMPARE(tiles.size(), c.tileMemory.size());
        for (std::size_t i = 0; i < tiles.size(); ++i) {
            const auto& r = c.tileMemory[i];
            QCOMPARE(tiles[i].tile, r.tile);
            QCOMPARE(tiles[i].totalIncludingGaps, r.totalIncludingGaps);
            QCOMPARE(tiles[i].totalExcludingGaps, r.totalExcludingGaps);
            QCOMPARE(tiles[i].gapBytes, r.gapBytes);
            QCOMPARE(tiles[i].alwaysLiveBytes, r.alwaysLiveBytes);
            QCOMPARE(tiles[i].notAlwaysLivePeakBytes, r.notAlwaysLivePeakBytes);
            QCOMPARE(tiles[i].overflowBytes, r.overflowBytes);
            QCOMPARE(tiles[i].bytesByCategory, std::vector<std::uint64_t>(r.bytesByCategory.begin(),
                                                                          r.bytesByCategory.end()));
            std::vector<std::uint64_t> regions(r.bytesByRegion.begin(), r.bytesByRegion.end());
            regions.resize(c.target.regions.size(), 0);
            QCOMPARE(tiles[i].bytesByRegion, regions);
        }
        const auto categories = reader_->memoryCategories();
        QCOMPARE(categories.size(), record::kMemoryCategoryCount);
        QCOMPARE(categories[0].key, std::string("always_live"));
        std::size_t blocks = 0;
        for (std::uint32_t t = 0; t < c.target.numTiles(); ++t) {
            const auto b = reader_->memoryBlocks(record::TileId{t});
            QVERIFY(std::is_sorted(b.begin(), b.end(),
                                   [](auto& x, auto& y) { return x.address < y.address; }));
            // Every block comes back as recorded, its owner of the same kind:
            // the tile's records in address order (recording order among equals).
            std::vector<record::MemoryBlockRecord> recorded;
            std::copy_if(c.memoryBlocks.begin(), c.memoryBlocks.end(), std::back_inserter(recorded),
                         [&](const auto& r) { return r.tile == record::TileId{t}; });
            std::stable_sort(recorded.begin(), recorded.end(),
                             [](auto& x, auto& y) { return x.address < y.address; });
            QCOMPARE(b.size(), recorded.size());
            for (std::size_t i = 0; i < b.size(); ++i) {
                QVERIFY(b[i] == recorded[i]);
                QCOMPARE(b[i].owner().kind(), record::ownerKindOf(b[i].category));
            }
            blocks += b.size();
        }
        QCOMPARE(blocks, c.memoryBlocks.size());
    }

    void runsAndSteps() {
        const auto runs = reader_->runs();
        QCOMPARE(runs.size(), mem_.runEnds.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const auto& r = mem_.runEnds[i];
            QCOMPARE(runs[i].steps, r.steps);
            QCOMPARE(runs[i].cycles, r.cycles);
            QCOMPARE(runs[i].computeCycles, r.computeCycles);
            QCOMPARE(runs[i].exchangeCycles, r.exchangeCycles);
            QCOMPARE(runs[i].syncCycles, r.syncCycles);
            QCOMPARE(runs[i].completed, r.completed);
            QCOMPARE(runs[i].startCycle, mem_.runs[i].startCycle);
        }
        const auto steps = reader_->executedSteps(1, 0, UINT64_MAX);
        std::vector<record::StepExecutionRecord> expected;
        std::copy_if(mem_.steps.begin(), mem_.steps.end(), std::back_inserter(expected),
                     [](const auto& s) { return s.run == 1; });
        QCOMPARE(steps.size(), expected.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].sequence, expected[i].sequence);
            QCOMPARE(steps[i].programStep, expected[i].programStep);
            QCOMPARE(steps[i].startCycle, expected[i].startCycle);
            QCOMPARE(steps[i].cycles, expected[i].cycles);
        }
        QCOMPARE(reader_->executedSteps(0, 10, 20).size(), std::size_t(10));
        QCOMPARE(reader_->executedSteps(0, 20, 10).size(), std::size_t(0));
    }

    // ReportWriter::discardRuns (resetExecutionProfile): the recorded runs
    // replayed as run 0 (and a third run left open), discarded, then run 1
    // replayed as run 0: the report holds only that one, equal to its record.
    void discardRunsKeepsOnlyLaterRuns() {
        const auto path = std::filesystem::path(dir_.path().toStdString()) / "discard.tsr";
        auto replay = [&](ReportWriter& w, std::uint32_t from, std::uint32_t as, bool end) {
            record::RunBeginRecord b = mem_.runs.at(from);
            b.run = as;
            w.onRunBegin(b);
            for (record::StepExecutionRecord step : mem_.steps) {
                if (step.run == from) {
                    step.run = as;
                    w.onStep(step);
                }
            }
            if (end) {
                record::RunEndRecord e = mem_.runEnds.at(from);
                e.run = as;
                w.onRunEnd(e);
            }
        };
        {
            WriterOptions options;
            options.lodGroupTiles = kGroupTiles;
            ReportWriter writer(path, options);
            writer.onCompiled(mem_.compiled);
            replay(writer, 0, 0, true);
            replay(writer, 1, 1, false); // still open at the discard
            writer.discardRuns();
            replay(writer, 1, 0, true);
            writer.finish();
        }
        ReportReader reader(path, OpenOptions{.quickCheck = true});
        const auto runs = reader.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].id, 0u);
        QCOMPARE(runs[0].steps, mem_.runEnds[1].steps);
        QCOMPARE(runs[0].cycles, mem_.runEnds[1].cycles);
        QCOMPARE(runs[0].startCycle, mem_.runs[1].startCycle);
        std::size_t run1Steps = 0;
        for (const auto& step : mem_.steps) {
            run1Steps += step.run == 1 ? 1 : 0;
        }
        QCOMPARE(reader.executedSteps(0, 0, UINT64_MAX).size(), run1Steps);
        QVERIFY(!reader.lodLevels(0).empty());
        QCOMPARE(reader.executedSteps(1, 0, UINT64_MAX).size(), std::size_t(0));
        QVERIFY_THROWS_EXCEPTION(ReportError, reader.lodLevels(1)); // "no run 1"
    }

    void levelOfDetail() {
        for (const auto& run : reader_->runs()) {
            const auto levels = reader_->lodLevels(run.id);
            // 152 steps: level 0 (single steps), level 1 (3 buckets of 64), level 2 (1 bucket).
            QCOMPARE(levels.size(), std::size_t(3));
            QCOMPARE(levels[0].buckets, run.steps);
            QCOMPARE(levels[1].bucketSteps, std::uint64_t(64));
            QCOMPARE(levels[1].buckets, (run.steps + 63) / 64);
            QCOMPARE(levels.back().buckets, std::uint64_t(1));
            QCOMPARE(levels[1].groups,
                     (reader_->target().numTiles + kGroupTiles - 1) / kGroupTiles);
            for (const auto& level : levels) {
                const auto buckets = reader_->lodBuckets(run.id, level.level, 0, run.steps);
                QCOMPARE(buckets.size(), std::size_t(level.buckets));
                std::uint64_t steps = 0;
                for (const auto& b : buckets) {
                    QCOMPARE(b.firstSeq, steps);
                    const Expected x = recount(mem_, run.id, b.firstSeq, b.steps, kGroupTiles);
                    QCOMPARE(b.cycles, x.cycles);
                    QCOMPARE(b.compute, x.compute);
                    QCOMPARE(b.exchange, x.exchange);
                    QCOMPARE(b.sync, x.sync);
                    steps += b.steps;
                }
                QCOMPARE(steps, run.steps);
            }
            // A window picks only the buckets it overlaps.
            QCOMPARE(reader_->lodBuckets(run.id, 1, 70, 130).size(), std::size_t(2));
            QCOMPARE(reader_->lodBuckets(run.id, 0, 70, 130).size(), std::size_t(60));
        }
        QVERIFY_THROWS_EXCEPTION(ReportError, reader_->lodBuckets(0, 9, 0, 10));
    }

    void summary() {
        const Summary s = reader_->summary();
        std::uint64_t total = 0, compute = 0, exchange = 0, sync = 0;
        for (const auto& r : mem_.runEnds) {
            total += r.cycles;
            compute += r.computeCycles;
            exchange += r.exchangeCycles;
            sync += r.syncCycles;
        }
        QCOMPARE(s.cycles.total, total);
        QCOMPARE(s.cycles.compute, compute);
        QCOMPARE(s.cycles.exchange, exchange);
        QCOMPARE(s.cycles.sync, sync);
        QCOMPARE(s.cycles.total, s.cycles.compute + s.cycles.exchange + s.cycles.sync);
        QCOMPARE(s.memory.totalBytes, mem_.compiled.totalMemoryBytes);
        QCOMPARE(s.memory.outOfMemory, mem_.compiled.outOfMemory);
        std::uint64_t peak = 0;
        for (const auto& t : mem_.compiled.tileMemory) {
            peak = std::max<std::uint64_t>(peak, t.totalIncludingGaps);
        }
        QCOMPARE(s.memory.peakTileBytes, peak);
        QCOMPARE(s.program.steps, std::uint64_t(mem_.compiled.programSteps.size()));
        QCOMPARE(s.program.computeSets, std::uint64_t(2));
        QCOMPARE(s.program.vertices, std::uint64_t(testing::SmallProgram{}.tiles + 1));
        QCOMPARE(s.runs.count, std::uint64_t(2));
        QCOMPARE(s.runs.executedSteps, std::uint64_t(mem_.steps.size()));
        QVERIFY(s.verification.has_value());
        QVERIFY(s.verification->passed);
        QVERIFY(s.report.complete);
        const std::string text = formatText(s);
        QCOMPARE(s.target.name, std::string("tiles:6"));
        QVERIFY(text.find("tiles:6") != std::string::npos);
        QVERIFY(text.find("6 on 1 IPU\n") != std::string::npos);
    }

    // The JSON form parses, and strings survive escaping.
    void summaryJson() {
        Summary s = reader_->summary();
        s.verification->detail = "quote \" backslash \\ newline \n tab \t bell \x01 \u00fc";
        QJsonParseError error;
        const QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatJson(s)), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(o["verification"]["detail"].toString().toStdString(), s.verification->detail);
        QCOMPARE(o["cycles"]["total"].toInteger(), qint64(s.cycles.total));
        QCOMPARE(o["target"]["clock_hz"].toDouble(), s.target.clockHz);
        QCOMPARE(o["memory"]["peak_tile"].toInteger(), qint64(s.memory.peakTile));
        s.verification.reset();
        const QJsonObject none =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatJson(s))).object();
        QVERIFY(none["verification"]["passed"].isNull());
    }

    // Same program, same target: the same file, byte for byte, apart from the
    // two timestamps in meta.
    void deterministic() {
        std::vector<QByteArray> files;
        for (int i = 0; i < 2; ++i) {
            const auto path = std::filesystem::path(dir_.path().toStdString()) /
                              ("det" + std::to_string(i) + ".tsr");
            ReportWriter writer(path);
            testing::SmallProgram{}.run(writer);
            writer.finish();
            QFile f(QString::fromStdString(path.string()));
            QVERIFY(f.open(QIODevice::ReadOnly));
            files.push_back(f.readAll());
        }
        QCOMPARE(files[0].size(), files[1].size());
        int differing = 0;
        for (qsizetype i = 0; i < files[0].size(); ++i) {
            differing += files[0][i] != files[1][i] ? 1 : 0;
        }
        QVERIFY2(differing <= 2 * 20, qPrintable(QString::number(differing) + " bytes differ"));
    }

    // LodBuilder alone, over three levels, against the brute-force recount.
    void lodBuilderThreeLevels() {
        record::InMemoryRecorder mem;
        const std::uint32_t tiles = 37; // groups of 16, 16 and 5
        std::mt19937 rng(7);
        for (std::uint32_t p = 0; p < 5; ++p) {
            record::ProgramStepRecord step;
            step.id = record::StepId{static_cast<std::uint32_t>(p)};
            for (std::uint32_t t = 0; t < tiles; ++t) {
                step.computeCycles.push_back(rng() % 1000);
                step.exchangeCycles.push_back(p == 3 ? 0 : rng() % 300);
            }
            step.totalCycles = 1400;
            mem.compiled.programSteps.push_back(step);
        }
        mem.compiled.target.tilesPerIPU = tiles;
        const std::uint64_t n = 64 * 64 + 70;
        std::vector<LodBucket> emitted;
        LodBuilder lod(tiles, 16, 64, [&](const LodBucket& b) { emitted.push_back(b); });
        std::uint64_t cycle = 0;
        for (std::uint64_t s = 0; s < n; ++s) {
            const auto& p = mem.compiled.programSteps[rng() % 5];
            mem.steps.push_back({0, s, p.id, cycle, p.totalCycles});
            lod.add(s, cycle, p.totalCycles, {p.computeCycles, p.exchangeCycles, 0, 0, 0});
            cycle += p.totalCycles;
        }
        const auto levels = lod.finish();
        QCOMPARE(levels.size(), std::size_t(3));
        QCOMPARE(levels[0].buckets, (n + 63) / 64);
        QCOMPARE(levels[1].buckets, std::uint64_t(2));
        QCOMPARE(levels[2].buckets, std::uint64_t(1));
        QCOMPARE(emitted.size(), std::size_t(levels[0].buckets + 2 + 1));
        for (const LodBucket& b : emitted) {
            const Expected x = recount(mem, 0, b.firstSeq, b.steps, 16);
            QCOMPARE(b.cycles, x.cycles);
            QCOMPARE(b.compute, x.compute);
            QCOMPARE(b.exchange, x.exchange);
            QCOMPARE(b.sync, x.sync);
        }
        LodBuilder empty(tiles, 16, 64, [](const LodBucket&) { QFAIL("nothing to emit"); });
        QVERIFY(empty.finish().empty());
    }
};

QTEST_GUILESS_MAIN(RoundTrip)
#include "tst_roundtrip.moc"
