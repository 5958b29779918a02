// Exporters: the Chrome trace parses as Trace Event Format with the slices,
// counters and tracks the records say it should have (and stays bounded),
// and the CSV tables have their headers, the right row counts and RFC 4180
// quoting.
#include "ProgramVariants.h"
#include "SmallProgram.h"
#include "reports/Export.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <sstream>

using namespace tessera;
using namespace tessera::reports;
namespace fs = std::filesystem;

namespace {

// A strict RFC 4180 reader: fields, quoted fields with "" escapes and line
// breaks, CRLF row ends.
std::vector<std::vector<std::string>> parseCsv(const QByteArray& bytes) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, wasQuoted = false;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (quoted) {
            if (c == '"' && i + 1 < bytes.size() && bytes[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty() && !wasQuoted) {
            quoted = wasQuoted = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            wasQuoted = false;
        } else if (c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') {
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            wasQuoted = false;
            ++i;
        } else {
            field += c;
        }
    }
    if (!row.empty() || !field.empty()) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

struct Trace {
    QJsonObject root;
    QJsonArray events;
    ChromeTraceResult result;
};

} // namespace

class ExportTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    fs::path small_;
    record::InMemoryRecorder smallRecords_;
    fs::path variant_;
    record::InMemoryRecorder variantRecords_;
    const std::string oddName_ = "x, \"quoted\"\nsecond line";

    Trace trace(const fs::path& path, ChromeTraceOptions options = {}) {
        const ReportReader reader(path);
        std::ostringstream out;
        Trace t;
        t.result = exportChromeTrace(reader, out, options);
        QJsonParseError error;
        t.root = QJsonDocument::fromJson(QByteArray::fromStdString(out.str()), &error).object();
        if (error.error != QJsonParseError::NoError) {
            qWarning("%s", qPrintable(error.errorString()));
        }
        t.events = t.root["traceEvents"].toArray();
        return t;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        small_ = fs::path(dir_.path().toStdString()) / "small.tsr";
        {
            ReportWriter writer(small_);
            testing::TeeRecorder tee(smallRecords_, writer);
            testing::SmallProgram{}.run(tee);
            writer.finish();
        }
        variant_ = fs::path(dir_.path().toStdString()) / "variant.tsr";
        {
            ReportWriter writer(variant_);
            testing::TeeRecorder tee(variantRecords_, writer);
            testing::VariantProgram{.insertStep = true, .firstVariable = oddName_}.run(tee);
            writer.finish();
        }
    }

    void chromeTraceHasStepsTilesAndCounters() {
        const Trace t = trace(small_);
        QVERIFY(!t.events.isEmpty());
        QCOMPARE(t.root["displayTimeUnit"].toString(), QString("ns"));
        const auto& rec = smallRecords_;
        const double clock = rec.compiled.target.clockHz;
        const unsigned tiles = rec.compiled.target.numTiles();
        QCOMPARE(t.result.tileTracks, tiles); // 6 tiles: one track each
        QCOMPARE(t.result.tilesPerTrack, 1u);
        QCOMPARE(t.result.tileLevel, 0u);

        std::map<int, QString> threadNames;
        std::map<int, std::vector<QJsonObject>> slices;
        int counters = 0;
        for (const QJsonValue& v : t.events) {
            const QJsonObject e = v.toObject();
            const QString ph = e["ph"].toString();
            QCOMPARE(e["pid"].toInt(), 1);
            if (ph == "M" && e["name"].toString() == "thread_name") {
                threadNames[e["tid"].toInt()] = e["args"]["name"].toString();
            } else if (ph == "X") {
                QVERIFY(e.contains("ts") && e.contains("dur") && e.contains("name"));
                QVERIFY(e["dur"].toDouble() >= 0);
                slices[e["tid"].toInt()].push_back(e);
            } else if (ph == "C") {
                ++counters;
                QVERIFY(e["args"]["all tiles"].isDouble());
            }
        }
        QCOMPARE(threadNames.size(), std::size_t(1 + tiles));
        QCOMPARE(threadNames.at(1), QString("program steps (all tiles)"));
        QCOMPARE(threadNames.at(10), QString("tile 0"));
        QVERIFY(counters > 0);

        // The step track: one slice per executed step, in order, named after
        // its program step, at its start cycle.
        const auto& steps = slices.at(1);
        QCOMPARE(steps.size(), rec.steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto& r = rec.steps[i];
            const auto& p = rec.compiled.programSteps.at(r.programStep.value());
            QCOMPARE(steps[i]["name"].toString(), QString::fromStdString(p.name));
            QVERIFY(qAbs(steps[i]["ts"].toDouble() - double(r.startCycle) * 1e6 / clock) < 1e-3);
            QVERIFY(qAbs(steps[i]["dur"].toDouble() - double(r.cycles) * 1e6 / clock) < 2e-3);
            QCOMPARE(steps[i]["args"]["cycles"].toInteger(), qint64(r.cycles));
            QCOMPARE(steps[i]["args"]["compute_phase"].toInteger(), qint64(p.computePhaseCycles));
        }

        // A tile track: per step, the tile's own phases side by side (sync,
        // exchange, sync, compute, sync, empty ones left out), covering the
        // step exactly; the exchange and compute slices last the tile's own
        // cycles, so a lighter tile shows more sync.
        const auto ns = [&](std::uint64_t cycles) { return double(cycles) * 1e6 / clock; };
        for (unsigned tile = 0; tile < tiles; ++tile) {
            const auto& track = slices.at(10 + int(tile));
            std::size_t at = 0;
            for (const auto& r : rec.steps) {
                const auto& p = rec.compiled.programSteps.at(r.programStep.value());
                const std::uint64_t phases[5] = {
                    p.syncCycles, p.exchangeCycles.at(tile),
                    p.exchangePhaseCycles - p.exchangeCycles.at(tile), p.computeCycles.at(tile),
                    r.cycles - p.syncCycles - p.exchangePhaseCycles - p.computeCycles.at(tile)};
                const char* names[5] = {"sync", "exchange", "sync", "compute", "sync"};
                double cursor = ns(r.startCycle);
                for (int i = 0; i < 5; ++i) {
                    if (phases[i] == 0) {
                        continue;
                    }
                    QVERIFY2(at < track.size(), "a tile track ends early");
                    const QJsonObject& e = track[at++];
                    QCOMPARE(e["name"].toString(), QString(names[i]));
                    QCOMPARE(e["args"]["step"].toString(), QString::fromStdString(p.name));
                    QCOMPARE(e["args"]["compute"].toInteger(), qint64(p.computeCycles.at(tile)));
                    QVERIFY2(qAbs(e["ts"].toDouble() - cursor) < 2e-3, "phases are not contiguous");
                    QVERIFY2(qAbs(e["dur"].toDouble() - ns(phases[i])) < 2e-3,
                             qPrintable(QString("%1 of tile %2 lasts %3 us, expected %4")
                                            .arg(names[i])
                                            .arg(tile)
                                            .arg(e["dur"].toDouble())
                                            .arg(ns(phases[i]))));
                    cursor += ns(phases[i]);
                }
                QVERIFY(qAbs(cursor - ns(r.startCycle + r.cycles)) < 4e-3);
            }
            QCOMPARE(at, track.size());
        }
    }

    void chromeTraceCounterFollowsLiveness() {
        const Trace t = trace(small_);
        const auto& rec = smallRecords_;
        std::vector<std::uint64_t> sums;
        for (const auto& p : rec.compiled.programSteps) {
            std::uint64_t s = 0;
            for (const auto b : p.notAlwaysLiveBytes) {
                s += b;
            }
            sums.push_back(s);
        }
        // Every counter sample is the liveness of the step starting then.
        std::map<qint64, std::uint64_t> byStart; // start ns -> liveness
        for (const auto& r : rec.steps) {
            byStart[qint64(
                std::llround(double(r.startCycle) * 1e9 / rec.compiled.target.clockHz))] =
                sums[r.programStep.value()];
        }
        int checked = 0;
        for (const QJsonValue& v : t.events) {
            if (v["ph"].toString() == "C") {
                const qint64 ns = qint64(std::llround(v["ts"].toDouble() * 1000));
                QVERIFY(byStart.count(ns) == 1);
                QCOMPARE(v["args"]["all tiles"].toInteger(), qint64(byStart.at(ns)));
                ++checked;
            }
        }
        QVERIFY(checked > 0);
    }

    // A tight event budget switches the tile tracks, then the step track,
    // to level-of-detail buckets and samples the counter.
    void chromeTraceStaysBounded() {
        const auto& rec = smallRecords_;
        const std::size_t executed = rec.steps.size(); // 2 runs of 152 steps
        {
            const Trace t = trace(small_, {.maxEvents = 2000});
            QCOMPARE(t.result.stepLevel, 0u);
            QCOMPARE(t.result.tileLevel, 1u);
            QCOMPARE(t.result.tileTracks, 1u); // one group of up to 16 tiles
            QCOMPARE(t.result.tilesPerTrack, 16u);
            QCOMPARE(t.root["otherData"]["tile_track_lod_level"].toInt(), 1);
            int buckets = 0, steps = 0;
            for (const QJsonValue& v : t.events) {
                if (v["ph"].toString() == "X" && v["tid"].toInt() == 10) {
                    ++buckets;
                    QVERIFY(v["name"].toString().startsWith("steps "));
                    QVERIFY(v["args"]["compute_max"].toInteger() >=
                            v["args"]["compute_mean"].toInteger());
                } else if (v["ph"].toString() == "X" && v["tid"].toInt() == 1) {
                    ++steps;
                }
            }
            QCOMPARE(buckets, 2 * 3); // ⌈152 / 64⌉ buckets per run
            QCOMPARE(steps, int(executed));
            QVERIFY(t.result.slices + t.result.counterSamples <= 2000);
        }
        {
            const Trace t = trace(small_, {.maxEvents = 256});
            QCOMPARE(t.result.stepLevel, 1u);
            QVERIFY(t.result.counterStride > 1);
            QVERIFY(t.result.slices + t.result.counterSamples <= 256);
            QVERIFY(t.result.counterSamples <= 64 + 2);
            QVERIFY(!t.events.isEmpty());
        }
    }

    void csvTablesHaveHeadersAndRows() {
        const fs::path out = fs::path(dir_.path().toStdString()) / "csv";
        const ReportReader reader(variant_);
        const CsvResult result = exportCsv(reader, out);
        const auto& rec = variantRecords_;
        const std::map<std::string, std::size_t> expected = {
            {"tiles.csv", rec.compiled.target.numTiles()},
            {"variables.csv", rec.compiled.variables.size()},
            {"compute_sets.csv", rec.compiled.computeSets.size()},
            {"program_steps.csv", rec.compiled.programSteps.size()},
            {"executed_steps.csv", rec.steps.size()},
            {"runs.csv", rec.runEnds.size()},
        };
        QCOMPARE(result.files.size(), expected.size());
        std::map<std::string, std::vector<std::vector<std::string>>> tables;
        for (const auto& [file, rows] : result.files) {
            const std::string name = file.filename().string();
            QVERIFY2(expected.count(name) == 1, name.c_str());
            QCOMPARE(rows, std::uint64_t(expected.at(name)));
            QFile f(QString::fromStdString(file.string()));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto parsed = parseCsv(f.readAll());
            QCOMPARE(parsed.size(), expected.at(name) + 1); // the header row
            for (const auto& row : parsed) {
                QCOMPARE(row.size(), parsed.front().size());
            }
            tables[name] = parsed;
        }
        QCOMPARE(tables["tiles.csv"][0][0], std::string("tile"));
        QCOMPARE(tables["executed_steps.csv"][0],
                 (std::vector<std::string>{"run", "seq", "program_step", "name", "start_cycle",
                                           "cycles"}));
        // The odd name survives quoting.
        QCOMPARE(tables["variables.csv"][1][1], oddName_);
        // Executed steps carry the recorded values; program steps their counts.
        for (std::size_t i = 0; i < rec.steps.size(); ++i) {
            const auto& row = tables["executed_steps.csv"][i + 1];
            QCOMPARE(row[2], std::to_string(rec.steps[i].programStep.value()));
            QCOMPARE(row[4], std::to_string(rec.steps[i].startCycle));
            QCOMPARE(row[5], std::to_string(rec.steps[i].cycles));
        }
        std::map<std::string, int> executions;
        for (const auto& s : rec.steps) {
            ++executions[rec.compiled.programSteps[s.programStep.value()].name];
        }
        const auto& header = tables["program_steps.csv"][0];
        const auto column = std::find(header.begin(), header.end(), "executions") - header.begin();
        for (std::size_t i = 1; i < tables["program_steps.csv"].size(); ++i) {
            const auto& row = tables["program_steps.csv"][i];
            QCOMPARE(row[std::size_t(column)], std::to_string(executions[row[1]]));
        }
    }

    void csvIntoAFileFails() {
        const fs::path blocker = fs::path(dir_.path().toStdString()) / "plain-file";
        QFile f(QString::fromStdString(blocker.string()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const ReportReader reader(small_);
        QVERIFY_THROWS_EXCEPTION(ReportError, exportCsv(reader, blocker));
    }
};

QTEST_GUILESS_MAIN(ExportTest)
#include "tst_export.moc"
