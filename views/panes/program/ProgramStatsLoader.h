#pragma once
// Computes a report's ProgramStats on a worker thread (counting each step's
// executions, asking the source when the report does not store them), so the
// Program pane only draws them. The newest load replaces any still running.
#include "views/common/BackgroundTask.h"
#include "views/data/ReportData.h"
#include "views/models/ProgramStats.h"

#include <QObject>
#include <QString>

#include <memory>

namespace tessera::views {

class ReportSource;

struct ComputedProgramStats {
    std::shared_ptr<const ProgramStats> stats;
    QString problem; // a failed read of the executed steps (stats still set)
};

class ProgramStatsLoader : public QObject {
    Q_OBJECT

public:
    explicit ProgramStatsLoader(QObject* parent = nullptr);
    ~ProgramStatsLoader() override;

    void load(std::shared_ptr<const ReportData> data, std::shared_ptr<ReportSource> source);
    void cancel(); // a computation in progress is dropped
    bool isComputing() const { return pending_; }

    // What load() runs on the worker: safe on any thread.
    static ComputedProgramStats compute(const ReportData& data, const ReportSource& source);

signals:
    void computed(const tessera::views::ComputedProgramStats& result);

private:
    void deliver();

    BackgroundTask<ComputedProgramStats> task_;
    bool pending_ = false; // until the latest load's result is delivered
};

} // namespace tessera::views
