#include "views/data/ReportLoader.h"

#include "reports/ReportReader.h"
#include "views/data/ReportSource.h"

namespace tessera::views {

namespace {

LoadedReport loadReport(const QString& path, const LoadProgress& progress,
                        const std::atomic<bool>* cancel) {
    return catchLoadFailure<LoadedReport>([&](LoadedReport& result) {
        // One reader: it loads the data, then serves the panes as their source.
        auto reader = std::make_unique<reports::ReportReader>(path.toStdString());
        result.data = loadReportData(*reader, progress, cancel);
        result.source = std::make_shared<ReportSource>(std::move(reader));
    });
}

} // namespace

ReportLoader::ReportLoader(QObject* parent)
    : QObject(parent) {
    connect(&job_.watcher(), &QFutureWatcher<void>::finished, this,
            [this] { emit finished(job_.take()); });
}

void ReportLoader::load(const QString& path) {
    job_.start([this](int percent, const QString& stage) { emit progress(percent, stage); },
               [path](const LoadProgress& report, const std::atomic<bool>* cancel) {
                   return loadReport(path, report, cancel);
               });
}

LoadedReport ReportLoader::loadNow(const QString& path) {
    return loadReport(path, {}, nullptr);
}

} // namespace tessera::views
