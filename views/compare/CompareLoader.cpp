#include "views/compare/CompareLoader.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QPointer>

namespace tessera::views {

namespace {

LoadedComparison loadBoth(const QString& baselinePath, const QString& comparisonPath,
                          const LoadProgress& progress, const std::atomic<bool>* cancel) {
    LoadedComparison result;
    try {
        result.data = loadComparison(baselinePath, comparisonPath, progress, cancel);
    } catch (const LoadCancelled&) {
        result.cancelled = true;
    } catch (const std::exception& e) {
        result.error = QString::fromStdString(e.what());
    }
    return result;
}

} // namespace

CompareLoader::CompareLoader(QObject* parent)
    : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<LoadedComparison>::finished, this,
            [this] { emit finished(watcher_.result()); });
}

CompareLoader::~CompareLoader() {
    cancel();
    watcher_.waitForFinished();
}

void CompareLoader::load(const QString& baselinePath, const QString& comparisonPath) {
    cancel();
    watcher_.waitForFinished();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto flag = cancel_;
    QPointer<CompareLoader> self(this);
    auto report = [self](int percent, const std::string& stage) {
        if (!self) {
            return;
        }
        QMetaObject::invokeMethod(
            self,
            [self, percent, stage] {
                if (self) {
                    emit self->progress(percent, QString::fromStdString(stage));
                }
            },
            Qt::QueuedConnection);
    };
    watcher_.setFuture(QtConcurrent::run([baselinePath, comparisonPath, flag, report] {
        return loadBoth(baselinePath, comparisonPath, report, flag.get());
    }));
}

void CompareLoader::cancel() {
    if (cancel_) {
        cancel_->store(true);
    }
}

bool CompareLoader::isLoading() const {
    return watcher_.isRunning();
}

LoadedComparison CompareLoader::loadNow(const QString& baselinePath,
                                        const QString& comparisonPath) {
    return loadBoth(baselinePath, comparisonPath, {}, nullptr);
}

} // namespace tessera::views
