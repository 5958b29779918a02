#include "views/data/ReportLoader.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "reports/ReportError.h"
#include "views/data/ReportSource.h"

namespace tessera::views {

namespace {

LoadedReport loadReport(const QString& path, const LoadProgress& progress, const std::atomic<bool>* cancel) {
    LoadedReport result;
    try {
        const std::filesystem::path p = path.toStdString();
        result.data = loadReportData(p, progress, cancel);
        result.source = std::make_shared<ReportSource>(p);
    } catch (const LoadCancelled&) {
        result.cancelled = true;
    } catch (const std::exception& e) {
        result.error = QString::fromStdString(e.what());
    }
    return result;
}

} // namespace

ReportLoader::ReportLoader(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<LoadedReport>::finished, this, [this] {
        emit finished(watcher_.result());
    });
}

ReportLoader::~ReportLoader() {
    cancel();
    watcher_.waitForFinished();
}

void ReportLoader::load(const QString& path) {
    cancel();
    watcher_.waitForFinished();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto flag = cancel_;
    QPointer<ReportLoader> self(this);
    auto report = [self](int percent, const std::string& stage) {
        if (self) {
            QMetaObject::invokeMethod(self, [self, percent, stage] {
                if (self) {
                    emit self->progress(percent, QString::fromStdString(stage));
                }
            }, Qt::QueuedConnection);
        }
    };
    watcher_.setFuture(QtConcurrent::run([path, flag, report] { return loadReport(path, report, flag.get()); }));
}

void ReportLoader::cancel() {
    if (cancel_) {
        cancel_->store(true);
    }
}

bool ReportLoader::isLoading() const { return watcher_.isRunning(); }

LoadedReport ReportLoader::loadNow(const QString& path) { return loadReport(path, {}, nullptr); }

} // namespace tessera::views
