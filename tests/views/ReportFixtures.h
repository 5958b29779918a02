#pragma once
// Real reports for pane tests: captured once per test process from the
// workload library into the test's build directory.
#include "engine/runtime/Engine.h"
#include "engine/target/Target.h"
#include "engine/workloads/Workload.h"
#include "reports/ReportWriter.h"

#include <QColor>
#include <QCoreApplication>
#include <QDir>
#include <QString>

#include <cstdlib>
#include <map>
#include <string>

namespace tessera::testing {

// Captures `workload` on `target` (once per process and arguments) and returns
// the report's path. allowOutOfMemory lets an over-capacity program be captured.
inline QString capturedReport(const std::string& workload, const std::string& target = "tiles:16",
                              const std::map<std::string, std::string>& params = {},
                              bool allowOutOfMemory = false) {
    static std::map<std::string, QString> cache;
    std::string key = workload + "@" + target;
    for (const auto& [k, v] : params) {
        key += "," + k + "=" + v;
    }
    if (auto it = cache.find(key); it != cache.end()) {
        return it->second;
    }
    std::string file = key;
    for (char& c : file) {
        if (c == ':' || c == ',' || c == '=' || c == '@') {
            c = '_';
        }
    }
    // CTest runs suites in parallel in one directory: each process names its own files.
    const QString owner = QCoreApplication::applicationName().isEmpty()
                              ? QString::number(QCoreApplication::applicationPid())
                              : QCoreApplication::applicationName();
    const QString path =
        QDir(TESSERA_TEST_OUTPUT_DIR).filePath(owner + "-" + QString::fromStdString(file) + ".tsr");
    reports::WriterOptions options;
    options.workload = workload;
    options.toolVersion = "test";
    for (const auto& [k, v] : params) {
        options.workloadParameters.emplace_back(k, v);
    }
    {
        reports::ReportWriter writer(path.toStdString(), options);
        EngineOptions engineOptions;
        engineOptions.recorder = &writer;
        engineOptions.allowOutOfMemory = allowOutOfMemory;
        workloads::run(workloads::find(workload), Target::preset(target), params, engineOptions);
        writer.finish();
    }
    cache[key] = path;
    return path;
}

// A matmul that does not fit a 4-tile target: the out-of-memory report.
inline QString outOfMemoryReport() {
    return capturedReport("matmul", "tiles:4", {{"m", "512"}, {"k", "512"}, {"n", "512"}}, true);
}

// A report by short name: "oom" is the out-of-memory report, anything else a
// workload captured on the default target.
inline QString namedReport(const QString& name) {
    return name == "oom" ? outOfMemoryReport() : capturedReport(name.toStdString());
}

// Pixel checks: every channel within `tolerance`, or the sum of the channels'
// differences (for antialiased or blended colours).
inline bool channelsWithin(const QColor& a, const QColor& b, int tolerance) {
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}
inline int colourDistance(const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
           std::abs(a.blue() - b.blue());
}

} // namespace tessera::testing
