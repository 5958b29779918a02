#include "views/compare/CompareLoader.h"

namespace tessera::views {

namespace {

LoadedComparison loadBoth(const QString& baselinePath, const QString& comparisonPath,
                          const LoadProgress& progress, const std::atomic<bool>* cancel) {
    return catchLoadFailure<LoadedComparison>([&](LoadedComparison& result) {
        result.data = loadComparison(baselinePath, comparisonPath, progress, cancel);
    });
}

} // namespace

CompareLoader::CompareLoader(QObject* parent)
    : QObject(parent) {
    connect(&job_.watcher(), &QFutureWatcher<void>::finished, this,
            [this] { emit finished(job_.take()); });
}

void CompareLoader::load(const QString& baselinePath, const QString& comparisonPath) {
    job_.start([this](int percent, const QString& stage) { emit progress(percent, stage); },
               [baselinePath, comparisonPath](const LoadProgress& report,
                                              const std::atomic<bool>* cancel) {
                   return loadBoth(baselinePath, comparisonPath, report, cancel);
               });
}

LoadedComparison CompareLoader::loadNow(const QString& baselinePath,
                                        const QString& comparisonPath) {
    return loadBoth(baselinePath, comparisonPath, {}, nullptr);
}

} // namespace tessera::views
