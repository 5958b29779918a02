#pragma once
// The operations table: one row per named operation (each Block node of the
// program tree: a library call or a user's named block) with the steps nested
// in it, nested operations included: cycles over all executions, share of
// the total, self cycles (steps whose innermost operation it is), FLOPs,
// FLOPs per cycle, peak not-always-live bytes on the fullest tile, vertices,
// steps, executions and bytes received. Display text is formatted; raw values
// are under kSortRole, the Block node id under kIdRole.
#include "views/models/ModelRoles.h"
#include "views/models/ProgramStats.h"

#include <QAbstractTableModel>

#include <memory>

namespace tessera::views {

class OperationsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        Name,
        Cycles,
        CyclesShare,
        SelfCycles,
        Flops,
        FlopsPerCycle,
        Memory,
        Vertices,
        Steps,
        Executions,
        BytesExchanged,
        ColumnCount
    };

    explicit OperationsModel(QObject* parent = nullptr);

    void setProgram(std::shared_ptr<const ReportData> data,
                    std::shared_ptr<const ProgramStats> stats);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    int rowOfNode(std::uint32_t nodeId) const; // -1 when the node is no operation
    std::uint32_t nodeIdAt(int row) const;

private:
    QVariant sortValue(int row, int column) const;

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const ProgramStats> stats_;
};

} // namespace tessera::views
