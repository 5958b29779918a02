#pragma once
// The Operations details' FLOPs tab (PopVision's FLOPS tab): per program step
// of the selected operation or group, its FLOPs per execution (as the report
// stores them per step), executions over all runs, FLOPs and cycles over all
// executions and FLOPs per cycle; then a Total row over those steps. The
// figures are worked out once in setSteps (per step, never per execution).
// Display text is formatted; raw values are under kSortRole, the step id
// under kIdRole (none on the Total row).
#include "views/models/ProgramStats.h"

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <vector>

namespace tessera::views {

class OperationFlopsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Step, FlopsPerExecution, Executions, Flops, Cycles, FlopsPerCycle, ColumnCount };

    struct Row {
        QString name;    // the step's name; "Total" on the last row
        int stepId = -1; // -1 on the Total row
        std::uint64_t flopsPerExecution = 0;
        std::uint64_t executions = 0;
        std::uint64_t flops = 0;  // over all executions
        std::uint64_t cycles = 0; // over all executions
    };

    using QAbstractTableModel::QAbstractTableModel;

    // steps: positions in data.programSteps (an OperationRow's steps).
    void setSteps(const ReportData& data, const ProgramStats& stats, const std::vector<int>& steps);
    void clear();
    // The step rows then the Total row; empty when no steps are set.
    const std::vector<Row>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(const Row& row, int column) const;
    QVariant displayValue(const Row& row, int column) const;

    std::vector<Row> rows_;
};

} // namespace tessera::views
