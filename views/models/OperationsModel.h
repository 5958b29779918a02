#pragma once
// The operations of one software layer (see OperationsTree.h) as a tree:
// groups by debug-name path with totals, operations as leaves. Per row: the
// operation's name (its library function, or the last part of its debug
// name), debug name, layer, vertex code size, cycles over all executions and
// their share, self cycles (steps whose innermost operation it is), FLOPs,
// FLOPs per cycle, peak not-always-live bytes on the fullest tile, vertices,
// steps, executions and bytes received. Display text is formatted; raw values
// are under kSortRole, an operation's Block node id under kIdRole (none on a
// group), and kFilterTextRole holds the text the filter box matches.
#include "views/models/ModelRoles.h"
#include "views/models/OperationsTree.h"

#include <QAbstractItemModel>

#include <memory>

namespace tessera::views {

class OperationsModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column {
        Name,
        DebugName,
        Layer,
        CodeSize,
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
    static constexpr int kFilterTextRole = Qt::UserRole + 30; // name, debug name, function

    explicit OperationsModel(QObject* parent = nullptr);

    void setProgram(std::shared_ptr<const ReportData> data,
                    std::shared_ptr<const ProgramStats> stats);
    void setLayer(LayerFilter layer); // rebuilds the tree
    LayerFilter layer() const { return layer_; }
    const OperationsTree& tree() const { return tree_; }
    bool hasProgram() const { return stats_ != nullptr; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The tree row of an index (-1: invalid), and the index of an operation.
    int treeRow(const QModelIndex& index) const;
    QModelIndex indexOfNode(record::ProgramNodeId nodeId) const;    // invalid when not shown
    record::ProgramNodeId nodeIdAt(const QModelIndex& index) const; // none() for a group

private:
    void rebuild();
    const std::vector<int>& siblingsOf(int treeRow) const;
    QVariant sortValue(const OperationRow& row, int column) const;
    QVariant displayValue(const OperationRow& row, int column) const;

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const ProgramStats> stats_;
    LayerFilter layer_ = LayerFilter::All;
    OperationsTree tree_;
    std::vector<int> positionInParent_; // per tree row
};

} // namespace tessera::views
