#pragma once
// The program tree (Sequence, Repeat, Block, Execute, Copy, ...) with, per
// node, its executions and the figures of every step beneath it: cycles over
// all executions, share of the total, peak not-always-live bytes on the
// fullest tile, vertices, FLOPs and steps. Display text is formatted; the
// raw values are under kSortRole (views/models/ModelRoles.h).
#include "views/models/ModelRoles.h"
#include "views/models/ProgramStats.h"

#include <QAbstractItemModel>

#include <memory>

namespace tessera::views {

// Roles for rows that stand for program steps (both -1 when not a step).
inline constexpr int kStepIdRole = Qt::UserRole + 20;
inline constexpr int kComputeSetRole = Qt::UserRole + 21;

class ProgramTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column {
        Name,
        Kind,
        Executions,
        Cycles,
        CyclesShare,
        Memory,
        Vertices,
        Flops,
        Steps,
        ColumnCount
    };

    explicit ProgramTreeModel(QObject* parent = nullptr);

    // Both null: no report.
    void setProgram(std::shared_ptr<const ReportData> data,
                    std::shared_ptr<const ProgramStats> stats);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The index of a node (column 0), or of the node running a step.
    QModelIndex indexOfNode(record::ProgramNodeId nodeId) const;
    QModelIndex indexOfStep(record::StepId stepId) const;
    int nodePosition(const QModelIndex& index) const; // -1 for an invalid index

private:
    QVariant display(int node, int column) const;
    QVariant sortValue(int node, int column) const;

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const ProgramStats> stats_;
    std::vector<int> row_; // node position -> row under its parent
};

} // namespace tessera::views
