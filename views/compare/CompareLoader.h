#pragma once
// Loads a comparison (both reports, both sides, the diff) in the background
// with progress and cancellation, like ReportLoader does for one report.
#include "views/compare/CompareData.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace tessera::views {

struct LoadedComparison {
    std::shared_ptr<const CompareData> data;
    QString error; // one line, when loading failed
    bool cancelled = false;
};

class CompareLoader : public QObject {
    Q_OBJECT

public:
    explicit CompareLoader(QObject* parent = nullptr);
    ~CompareLoader() override;

    void load(const QString& baselinePath, const QString& comparisonPath); // cancels a load
    void cancel();
    bool isLoading() const;

    // Loads on the calling thread (for --screenshot and tests).
    static LoadedComparison loadNow(const QString& baselinePath, const QString& comparisonPath);

signals:
    void progress(int percent, const QString& stage);
    void finished(const tessera::views::LoadedComparison& result);

private:
    QFutureWatcher<LoadedComparison> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

} // namespace tessera::views
