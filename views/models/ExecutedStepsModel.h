#pragma once
// Executed steps as a table (the execution pane's visible range, for CSV
// export): sequence, program step, name, kind, start (cycles from the run's
// start), cycles and the phases. Display text is raw numbers so the CSV is
// machine readable; kSortRole carries the same values.
#include "reports/ReportTypes.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class ExecutedStepsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Sequence, Step, Name, Kind, Start, Cycles, Sync, Exchange, Compute, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    // origin: the run's first cycle; starts are shown from it.
    void setSteps(std::shared_ptr<const ReportData> data,
                  std::vector<record::StepExecutionRecord> steps, std::uint64_t origin);
    const std::vector<record::StepExecutionRecord>& steps() const { return steps_; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ReportData> data_;
    std::vector<record::StepExecutionRecord> steps_;
    std::uint64_t origin_ = 0;
};

} // namespace tessera::views
