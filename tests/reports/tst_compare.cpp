// The comparison core against figures computed independently: every report
// pair is captured once into a report and, through a tee, into the engine's
// InMemoryRecorder; expected deltas come from the records, not from reports/.
#include "ProgramVariants.h"
#include "SmallProgram.h"
#include "engine/workloads/Workload.h"
#include "reports/Compare.h"
#include "reports/CompareAlign.h"
#include "reports/CompareFormat.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <memory>
#include <type_traits>

using namespace tessera;
using namespace tessera::reports;
namespace fs = std::filesystem;

namespace {

// The two sides are distinct types: only (Baseline, Comparison) compiles.
template <class B, class C>
concept Comparable = requires(const B& b, const C& c) {
    compare(b, c);
};
static_assert(Comparable<Baseline, Comparison>);
static_assert(!Comparable<Comparison, Baseline>);
static_assert(!Comparable<Baseline, Baseline>);
static_assert(!Comparable<Comparison, Comparison>);
static_assert(!std::is_convertible_v<const ReportReader&, Baseline>);
static_assert(!std::is_convertible_v<Baseline, Comparison>);

struct Captured {
    fs::path path;
    record::InMemoryRecorder records;
    std::unique_ptr<testing::RecordFigures> figures;
};

std::int64_t s64(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}

} // namespace

class CompareTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::map<std::string, Captured> reports_;

    void captureWorkload(const std::string& key, const std::string& workload,
                         const std::string& target, std::map<std::string, std::string> params) {
        Captured& c = reports_[key];
        c.path = fs::path(dir_.path().toStdString()) / (key + ".tsr");
        WriterOptions options;
        options.workload = workload;
        options.workloadParameters.assign(params.begin(), params.end());
        ReportWriter writer(c.path, options);
        testing::TeeRecorder tee(c.records, writer);
        EngineOptions engine;
        engine.recorder = &tee;
        engine.threads = 2;
        const auto result =
            workloads::run(workloads::find(workload), Target::preset(target), params, engine);
        QVERIFY(result.verification.passed);
        writer.finish();
        c.figures = std::make_unique<testing::RecordFigures>(c.records);
    }

    void captureVariant(const std::string& key, bool insert) {
        Captured& c = reports_[key];
        c.path = fs::path(dir_.path().toStdString()) / (key + ".tsr");
        ReportWriter writer(c.path);
        testing::TeeRecorder tee(c.records, writer);
        testing::VariantProgram{.insertStep = insert}.run(tee);
        writer.finish();
        c.figures = std::make_unique<testing::RecordFigures>(c.records);
    }

    ReportDiff diff(const std::string& base, const std::string& next) {
        const ReportReader a(reports_.at(base).path), b(reports_.at(next).path);
        return compare(Baseline(a), Comparison(b));
    }

    static void expectFigure(const ReportDiff& d, const char* key, std::uint64_t base,
                             std::uint64_t next) {
        const Figure* f = d.figure(key);
        QVERIFY2(f != nullptr, key);
        QVERIFY2(
            f->value.baseline == s64(base),
            qPrintable(
                QString("%1 baseline %2, expected %3").arg(key).arg(f->value.baseline).arg(base)));
        QVERIFY2(f->value.comparison == s64(next),
                 qPrintable(QString("%1 comparison %2, expected %3")
                                .arg(key)
                                .arg(f->value.comparison)
                                .arg(next)));
        QCOMPARE(f->value.delta(), s64(next) - s64(base));
        if (base != 0) {
            QVERIFY(f->value.percent().has_value());
            QVERIFY(qAbs(*f->value.percent() -
                         100.0 * (double(next) - double(base)) / double(base)) < 1e-9);
        }
    }

    // Totals against the records of both captures.
    static void expectTotals(const ReportDiff& d, const testing::RecordFigures& b,
                             const testing::RecordFigures& c) {
        expectFigure(d, "cycles", b.cycles, c.cycles);
        expectFigure(d, "compute", b.compute, c.compute);
        expectFigure(d, "exchange", b.exchange, c.exchange);
        expectFigure(d, "sync", b.sync, c.sync);
        expectFigure(d, "memory", b.memory, c.memory);
        expectFigure(d, "peak-tile-memory", b.peakTile, c.peakTile);
        expectFigure(d, "always-live", b.alwaysLive, c.alwaysLive);
        expectFigure(d, "liveness-peak", b.livenessPeak, c.livenessPeak);
        expectFigure(d, "vertices", b.vertices, c.vertices);
        expectFigure(d, "executed-steps", b.executedSteps, c.executedSteps);
        expectFigure(d, "program-steps", b.stepCycles.size(), c.stepCycles.size());
    }

    // Every step row against the records, by name (names are unique here).
    static void expectSteps(const ReportDiff& d, const testing::RecordFigures& b,
                            const testing::RecordFigures& c) {
        for (const StepDelta& s : d.steps) {
            const bool inB = !s.baselineStep.isNone(), inC = !s.comparisonStep.isNone();
            QCOMPARE(s.cycles.baseline, inB ? s64(b.stepCycles.at(s.name)) : 0);
            QCOMPARE(s.cycles.comparison, inC ? s64(c.stepCycles.at(s.name)) : 0);
            QCOMPARE(s.executions.baseline, inB ? s64(b.stepExecutions.at(s.name)) : 0);
            QCOMPARE(s.executions.comparison, inC ? s64(c.stepExecutions.at(s.name)) : 0);
            QCOMPARE(s.change, !inB   ? Change::Added
                               : !inC ? Change::Removed
                               : s.cycles.delta() != 0 || s.compute.delta() != 0 ||
                                       s.exchange.delta() != 0 || s.sync.delta() != 0 ||
                                       s.executions.delta() != 0
                                   ? Change::Changed
                                   : Change::Same);
        }
        for (std::size_t i = 1; i < d.steps.size(); ++i) {
            QVERIFY2(d.steps[i - 1].cycles.delta() >= d.steps[i].cycles.delta(),
                     "steps are sorted by largest regression first");
        }
        for (const LivenessDelta& l : d.liveness) {
            QCOMPARE(l.bytes.baseline,
                     !l.baselineStep.isNone() ? s64(b.stepLiveness.at(l.name)) : 0);
            QCOMPARE(l.bytes.comparison,
                     !l.comparisonStep.isNone() ? s64(c.stepLiveness.at(l.name)) : 0);
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        captureWorkload("mm64", "matmul", "tiles:16", {{"m", "64"}, {"k", "64"}, {"n", "64"}});
        captureWorkload("mm128", "matmul", "tiles:16", {{"m", "128"}, {"k", "64"}, {"n", "64"}});
        captureWorkload("softmax-mk1", "softmax", "mk1", {{"rows", "32"}, {"cols", "128"}});
        captureWorkload("softmax-mk2", "softmax", "mk2", {{"rows", "32"}, {"cols", "128"}});
        captureVariant("before", false);
        captureVariant("after", true);
    }

    void matmulAtTwoSizes() {
        const ReportDiff d = diff("mm64", "mm128");
        const auto& b = *reports_.at("mm64").figures;
        const auto& c = *reports_.at("mm128").figures;
        expectTotals(d, b, c);
        expectSteps(d, b, c);
        QVERIFY(d.tilesComparable);
        QCOMPARE(d.tiles.size(), std::size_t(16));
        for (const TileMemoryDelta& t : d.tiles) {
            QCOMPARE(t.total.baseline, s64(b.tileTotals.at(t.tile.value())));
            QCOMPARE(t.total.comparison, s64(c.tileTotals.at(t.tile.value())));
            std::int64_t categories = 0;
            for (const Delta& k : t.categories) {
                categories += k.comparison;
            }
            QCOMPARE(categories, t.total.comparison - t.gaps.comparison);
        }
        // The figures that grew: twice the rows, more cycles and memory.
        QVERIFY(d.figure("cycles")->value.delta() > 0);
        QVERIFY(d.figure("memory")->value.delta() > 0);
        QVERIFY(!d.notes.empty()); // the parameter m differs
        QVERIFY(QString::fromStdString(d.notes.front()).contains("m 64 -> 128"));
        // Steps present in both are matched by identity: same names.
        for (const StepDelta& s : d.steps) {
            if (!s.baselineStep.isNone() && !s.comparisonStep.isNone()) {
                QVERIFY(!s.identity.empty());
            }
        }
        // A per-step metric is the sum of its rows.
        const auto products = metric(d, "step:matmul/products");
        QVERIFY(products.has_value());
        QCOMPARE(products->value.baseline, s64(b.stepCycles.at("matmul/products")));
        QCOMPARE(products->value.comparison, s64(c.stepCycles.at("matmul/products")));
        QVERIFY(!metric(d, "step:no such step").has_value());
        QVERIFY(!metric(d, "no-such-metric").has_value());
    }

    void sameWorkloadOnMk1AndMk2() {
        const ReportDiff d = diff("softmax-mk1", "softmax-mk2");
        const auto& b = *reports_.at("softmax-mk1").figures;
        const auto& c = *reports_.at("softmax-mk2").figures;
        expectTotals(d, b, c);
        expectSteps(d, b, c);
        QVERIFY(!d.tilesComparable);
        QVERIFY(d.tiles.empty());
        QCOMPARE(d.baseline.tiles, 1216u);
        QCOMPARE(d.comparison.tiles, 1472u);
        bool saysTiles = false, saysClock = false;
        for (const std::string& note : d.notes) {
            saysTiles = saysTiles || (note.find("different tile counts") != std::string::npos &&
                                      note.find("1216") != std::string::npos &&
                                      note.find("1472") != std::string::npos);
            saysClock = saysClock || note.find("clocks differ") != std::string::npos;
        }
        QVERIFY(saysTiles);
        QVERIFY(saysClock);
        // The same program: every step and compute set matched, none added.
        QCOMPARE(countChanges(d.steps, Change::Added), std::size_t(0));
        QCOMPARE(countChanges(d.steps, Change::Removed), std::size_t(0));
        QCOMPARE(countChanges(d.computeSets, Change::Added), std::size_t(0));
        QCOMPARE(d.steps.size(), b.stepCycles.size());
        // Time is cycles at each side's clock.
        const Figure* time = d.figure("time-ns");
        QCOMPARE(time->value.baseline, s64(std::llround(double(b.cycles) * 1e9 / 1.6e9)));
        QCOMPARE(time->value.comparison, s64(std::llround(double(c.cycles) * 1e9 / 1.325e9)));
        // Placement is not compared across tile counts.
        for (const VariableDelta& v : d.variables) {
            QVERIFY(!v.placementChanged);
        }
        const std::string text = formatDiffText(d);
        QVERIFY(text.find("not compared per tile") != std::string::npos);
    }

    void insertedStepMatchesByIdentity() {
        const ReportDiff d = diff("before", "after");
        const auto& b = *reports_.at("before").figures;
        const auto& c = *reports_.at("after").figures;
        expectTotals(d, b, c);
        expectSteps(d, b, c);
        QCOMPARE(countChanges(d.steps, Change::Added), std::size_t(1));
        QCOMPARE(countChanges(d.steps, Change::Removed), std::size_t(0));
        std::map<std::string, const StepDelta*> byName;
        for (const StepDelta& s : d.steps) {
            byName[s.name] = &s;
        }
        QCOMPARE(byName.size(), std::size_t(4));
        QCOMPARE(byName.at("inserted")->change, Change::Added);
        QVERIFY(byName.at("inserted")->baselineStep.isNone());
        // Matched by identity, not by id: "third" is step 2 before, 3 after.
        QCOMPARE(byName.at("third")->baselineStep, record::StepId{2u});
        QCOMPARE(byName.at("third")->comparisonStep, record::StepId{3u});
        QCOMPARE(byName.at("first")->baselineStep, record::StepId{0u});
        QCOMPARE(byName.at("first")->comparisonStep, record::StepId{0u});
        for (const char* name : {"first", "second", "third"}) {
            QVERIFY2(byName.at(name)->change != Change::Added &&
                         byName.at(name)->change != Change::Removed,
                     name);
            QCOMPARE(byName.at(name)->cycles.delta(), 0); // the same work on both sides
        }
        // A step in a Repeat: its cycles are summed over every execution.
        QCOMPARE(byName.at("second")->executions.baseline, std::int64_t(2 * 5));
        QCOMPARE(byName.at("second")->cycles.baseline,
                 10 * byName.at("second")->perExecution.baseline);
        // The only regression is the inserted step, so it comes first.
        QCOMPARE(d.steps.front().name, std::string("inserted"));
        QVERIFY(byName.at("second")->identity.find("Repeat") != std::string::npos);

        // Liveness follows the program, the inserted step in its place.
        QStringList order;
        for (const LivenessDelta& l : d.liveness) {
            order << QString::fromStdString(l.name);
        }
        QCOMPARE(order, QStringList({"first", "second", "inserted", "third"}));
        QCOMPARE(d.liveness[2].change, Change::Added);

        // Compute sets and variables by name: one of each added.
        std::map<std::string, Change> sets;
        for (const ComputeSetDelta& s : d.computeSets) {
            sets[s.name] = s.change;
        }
        QCOMPARE(sets.at("inserted fill"), Change::Added);
        QCOMPARE(sets.at("third add"), Change::Same);
        QCOMPARE(countChanges(d.computeSets, Change::Added), std::size_t(1));
        std::map<std::string, Change> vars;
        for (const VariableDelta& v : d.variables) {
            vars[v.name] = v.change;
        }
        QCOMPARE(vars.at("tmp"), Change::Added);
        QCOMPARE(vars.at("b"), Change::Same);
    }

    void removedStepIsTheMirrorImage() {
        const ReportDiff d = diff("after", "before");
        QCOMPARE(countChanges(d.steps, Change::Removed), std::size_t(1));
        QCOMPARE(countChanges(d.steps, Change::Added), std::size_t(0));
        QCOMPARE(d.steps.back().name, std::string("inserted")); // the largest improvement last
        QCOMPARE(d.steps.back().change, Change::Removed);
    }

    void reportAgainstItselfIsUnchanged() {
        const ReportReader r(reports_.at("mm128").path);
        const ReportDiff d = compare(Baseline(r), Comparison(r));
        QVERIFY(d.notes.empty());
        for (const Figure& f : d.totals) {
            QVERIFY2(f.value.delta() == 0, f.key.c_str());
        }
        QCOMPARE(countChanges(d.steps, Change::Same), d.steps.size());
        QCOMPARE(countChanges(d.computeSets, Change::Same), d.computeSets.size());
        QCOMPARE(countChanges(d.variables, Change::Same), d.variables.size());
        QCOMPARE(countChanges(d.liveness, Change::Same), d.liveness.size());
        QCOMPARE(metricNames().size(), d.totals.size());
    }

    // The comparison indexes steps by id, so a side whose step ids are not
    // dense from 0 (a damaged report) is refused by name, not read past.
    void sparseStepIdsAreRefused() {
        const ReportReader r(reports_.at("mm128").path);
        auto data = std::make_shared<ReportData>(
            *loadReportData(r, {}, nullptr, LoadOptions{.placement = true}));
        QVERIFY(!data->programSteps.empty());
        data->programSteps.back().id = StepId{data->programSteps.back().id.value() + 1000};
        const std::shared_ptr<const ReportData> sparse = data;
        try {
            const Baseline refused(sparse);
            QFAIL("a side with sparse step ids was accepted");
        } catch (const ReportError& e) {
            QVERIFY2(std::string(e.what()).find("step ids are not dense") != std::string::npos,
                     e.what());
        }
    }

    // A side is the loaded report the panes draw from: one loaded with the
    // placement is the same side as one built from the reader; one loaded
    // without it (the single-report GUI's load) is refused by name.
    void sideIsTheLoadedReport() {
        const ReportReader r(reports_.at("mm128").path);
        const auto withPlacement = loadReportData(r, {}, nullptr, LoadOptions{.placement = true});
        const Baseline fromData(withPlacement);
        QCOMPARE(fromData.shared().get(), withPlacement.get()); // not a copy
        const ReportDiff d = compare(fromData, Comparison(r));
        QCOMPARE(countChanges(d.variables, Change::Same), d.variables.size());
        QVERIFY(!d.variables.empty());
        try {
            const Baseline refused(loadReportData(r));
            QFAIL("a side without the placement was accepted");
        } catch (const ReportError& e) {
            QVERIFY2(std::string(e.what()).find("placement") != std::string::npos, e.what());
        }
    }

    // The JSON of `diff --json` carries the same numbers as the structs.
    void jsonCarriesTheNumbers() {
        const ReportDiff d = diff("before", "after");
        QJsonParseError error;
        const QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatDiffJson(d)), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject totals = o["totals"].toObject();
        QCOMPARE(totals.size(), int(d.totals.size()));
        for (const Figure& f : d.totals) {
            const QJsonObject j = totals[QString::fromStdString(f.key)].toObject();
            QCOMPARE(j["baseline"].toInteger(), f.value.baseline);
            QCOMPARE(j["comparison"].toInteger(), f.value.comparison);
            QCOMPARE(j["delta"].toInteger(), f.value.delta());
        }
        const QJsonArray steps = o["steps"]["rows"].toArray();
        QCOMPARE(steps.size(), int(d.steps.size()));
        QCOMPARE(steps[0]["name"].toString(), QString("inserted"));
        QCOMPARE(steps[0]["change"].toString(), QString("added"));
        QVERIFY(steps[0]["baseline_step"].isNull());
        QVERIFY(steps[0]["cycles"]["percent"].isNull()); // from nothing
        QCOMPARE(o["steps"]["added"].toInt(), 1);
        QCOMPARE(o["tiles"]["rows"].toArray().size(), 4);
        QCOMPARE(o["liveness"]["rows"].toArray().size(), int(d.liveness.size()));
        QVERIFY(o["tiles_comparable"].toBool());
        // --top limits every list.
        const QJsonObject top =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatDiffJson(d, {.top = 1})))
                .object();
        QCOMPARE(top["steps"]["rows"].toArray().size(), 1);
        QCOMPARE(top["tiles"]["rows"].toArray().size(), 1);
    }

    void textShowsRegressionsFirst() {
        const std::string text = formatDiffText(diff("before", "after"));
        const auto inserted = text.find("inserted (0 -> 2)");
        QVERIFY2(inserted != std::string::npos, text.c_str());
        QVERIFY(text.find("1 added, 0 removed") != std::string::npos);
        QVERIFY(text.find("cycles ") != std::string::npos);
        QCOMPARE(formatPercent({0, 5}), std::string("new"));
        QCOMPARE(formatPercent({200, 250}), std::string("+25.0%"));
        QCOMPARE(formatPercent({0, 0}), std::string("0.0%"));
        QCOMPARE(formatCount(-1234567, true), std::string("-1,234,567"));
        QCOMPARE(formatCount(1234, true), std::string("+1,234"));
    }

    // The sibling alignment on its own, including the path for long lists.
    void sequenceAlignment() {
        using tessera::reports::detail::matchSequences;
        const std::vector<std::uint64_t> a = {1, 2, 3, 4, 5};
        const std::vector<std::uint64_t> b = {1, 2, 9, 3, 4, 5};
        const auto m = matchSequences(a, b);
        QCOMPARE(m.size(), std::size_t(5));
        QCOMPARE(m[2], (std::pair<std::size_t, std::size_t>(2, 3)));
        const auto swapped = matchSequences({1, 2, 3}, {3, 2, 1});
        QCOMPARE(swapped.size(), std::size_t(1)); // order is kept: one in-order match
        // 3000 × 3000 distinct-ish keys with one insertion and one change in
        // the middle exceed the LCS table: occurrence matching keeps the rest.
        std::vector<std::uint64_t> x, y;
        for (std::uint64_t i = 0; i < 3000; ++i) {
            x.push_back(i % 700);
            y.push_back(i % 700);
        }
        y.insert(y.begin() + 1500, 9999);
        x[10] = 8888;
        y[3000] = 7777; // changes the tail too, so prefix/suffix trimming cannot do it all
        const auto big = matchSequences(x, y);
        QVERIFY2(big.size() >= 2980, qPrintable(QString::number(big.size())));
        for (std::size_t i = 1; i < big.size(); ++i) {
            QVERIFY(big[i].first > big[i - 1].first && big[i].second > big[i - 1].second);
            QCOMPARE(x[big[i].first], y[big[i].second]);
        }
    }
};

QTEST_GUILESS_MAIN(CompareTest)
#include "tst_compare.moc"
