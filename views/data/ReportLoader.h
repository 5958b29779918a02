#pragma once
// Loads a report in the background with progress and cancellation, then
// hands the data and an on-demand source to the GUI thread.
#include "views/data/BackgroundLoad.h"
#include "views/data/ReportData.h"

#include <QObject>
#include <QString>

#include <memory>

namespace tessera::views {

class ReportSource;

struct LoadedReport {
    std::shared_ptr<const ReportData> data;
    std::shared_ptr<ReportSource> source;
    QString error; // set when loading failed (one line)
    bool cancelled = false;
};

class ReportLoader : public QObject {
    Q_OBJECT

public:
    explicit ReportLoader(QObject* parent = nullptr);

    void load(const QString& path); // cancels a load in progress
    void cancel() { job_.cancel(); }
    bool isLoading() const { return job_.isRunning(); }

    // Loads on the calling thread (for --screenshot and tests).
    static LoadedReport loadNow(const QString& path);

signals:
    void progress(int percent, const QString& stage);
    void finished(const tessera::views::LoadedReport& report);

private:
    BackgroundLoad<LoadedReport> job_;
};

} // namespace tessera::views
