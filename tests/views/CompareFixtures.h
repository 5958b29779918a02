#pragma once
// Real pairs of reports for the compare tests, captured from the workload
// library (ReportFixtures.h): one workload at two sizes, one workload on mk1
// and on mk2 (different tile counts), and one program before and after a
// change of tile mapping (elementwise's grain).
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "tests/reports/ProgramVariants.h"
#include "views/compare/CompareLoader.h"
#include "views/compare/models/CompareTableModel.h"

#include <QtTest>

#include <map>
#include <string>

namespace tessera::testing {

struct ReportPair {
    QString baseline;
    QString comparison;
};

inline ReportPair sizesPair() {
    return {capturedReport("matmul", "tiles:16", {{"m", "64"}}),
            capturedReport("matmul", "tiles:16", {{"m", "128"}})};
}

inline ReportPair targetsPair() {
    return {capturedReport("elementwise", "mk1", {{"n", "8192"}}),
            capturedReport("elementwise", "mk2", {{"n", "8192"}})};
}

inline ReportPair mappingPair() {
    return {capturedReport("elementwise", "tiles:16", {{"n", "4096"}, {"grain", "8"}}),
            capturedReport("elementwise", "tiles:16", {{"n", "4096"}, {"grain", "1024"}})};
}

// Data rows "baseline", "comparison" (QString paths) for the three real pairs.
inline void addRealPairRows() {
    QTest::addColumn<QString>("baseline");
    QTest::addColumn<QString>("comparison");
    const ReportPair pairs[] = {sizesPair(), targetsPair(), mappingPair()};
    const char* names[] = {"two sizes", "mk1 vs mk2", "tile mapping"};
    for (int i = 0; i < 3; ++i) {
        QTest::newRow(names[i]) << pairs[i].baseline << pairs[i].comparison;
    }
}

// A small program before and after one Execute step is inserted in the
// middle of its main sequence (tests/reports/ProgramVariants.h).
inline ReportPair insertedStepPair() {
    static ReportPair pair;
    if (!pair.baseline.isEmpty()) {
        return pair;
    }
    for (const bool insert : {false, true}) {
        const QString path = QDir(TESSERA_TEST_OUTPUT_DIR)
                                 .filePath(QCoreApplication::applicationName() +
                                           (insert ? "-variant-after.tsr" : "-variant-before.tsr"));
        reports::ReportWriter writer(path.toStdString());
        VariantProgram{.insertStep = insert}.run(writer);
        writer.finish();
        (insert ? pair.comparison : pair.baseline) = path;
    }
    return pair;
}

inline std::shared_ptr<const views::CompareData> loadPair(const ReportPair& pair) {
    const views::LoadedComparison loaded =
        views::CompareLoader::loadNow(pair.baseline, pair.comparison);
    if (!loaded.data) {
        qFatal("cannot compare %s with %s: %s", qPrintable(pair.baseline),
               qPrintable(pair.comparison), qPrintable(loaded.error));
    }
    return loaded.data;
}

// The raw value (kSortRole) of a cell by column header.
inline QVariant cell(const views::CompareTableModel& model, int row, const QString& header) {
    const int column = model.columnOf(header);
    if (column < 0) {
        qFatal("no column '%s'", qPrintable(header));
    }
    return model.index(row, column).data(views::kSortRole);
}

inline qlonglong number(const views::CompareTableModel& model, int row, const QString& header) {
    return cell(model, row, header).toLongLong();
}

// The rows whose `header` column holds `text` (raw value).
inline QList<int> rowsWith(const views::CompareTableModel& model, const QString& header,
                           const QString& text) {
    QList<int> rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        if (cell(model, r, header).toString() == text) {
            rows << r;
        }
    }
    return rows;
}

// Executions per program step, counted from the report's executed steps.
inline std::vector<std::uint64_t> executionsPerStep(const reports::ReportReader& reader) {
    std::vector<std::uint64_t> n(reader.programSteps().size(), 0);
    for (const reports::RunEntry& run : reader.runs()) {
        for (const record::StepExecutionRecord& e :
             reader.executedSteps(run.id, 0, run.steps + 1)) {
            ++n.at(e.programStep.value());
        }
    }
    return n;
}

// Program step name -> figures read from one report, for names that occur
// once (count == 1): cycles over all executions, executions, and the
// not-always-live bytes summed over tiles.
struct StepFigures {
    std::uint64_t cycles = 0;
    std::uint64_t executions = 0;
    std::uint64_t liveBytes = 0;
    int count = 0;
};

inline std::map<std::string, StepFigures> stepFigures(const QString& path) {
    const reports::ReportReader reader(path.toStdString());
    const auto executions = executionsPerStep(reader);
    std::map<std::string, StepFigures> out;
    for (const reports::ProgramStepEntry& s : reader.programSteps()) {
        StepFigures& f = out[s.name];
        f.cycles = s.totalCycles * executions[s.id.value()];
        f.executions = executions[s.id.value()];
        f.liveBytes = 0;
        for (const std::uint32_t b : reader.stepTiles(s.id).notAlwaysLiveBytes) {
            f.liveBytes += b;
        }
        ++f.count;
    }
    return out;
}

} // namespace tessera::testing
