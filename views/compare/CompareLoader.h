#pragma once
// Loads a comparison (both reports, both sides, the diff) in the background
// with progress and cancellation, like ReportLoader does for one report.
#include "views/compare/CompareData.h"
#include "views/data/BackgroundLoad.h"

#include <QObject>
#include <QString>

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

    void load(const QString& baselinePath, const QString& comparisonPath); // cancels a load
    void cancel() { job_.cancel(); }
    bool isLoading() const { return job_.isRunning(); }

    // Loads on the calling thread (for --screenshot and tests).
    static LoadedComparison loadNow(const QString& baselinePath, const QString& comparisonPath);

signals:
    void progress(int percent, const QString& stage);
    void finished(const tessera::views::LoadedComparison& result);

private:
    BackgroundLoad<LoadedComparison> job_;
};

} // namespace tessera::views
