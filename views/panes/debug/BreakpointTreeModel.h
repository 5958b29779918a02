#pragma once
// The program tree of a debug session with a breakpoint check box on every
// step and Block (column 0) and the step about to run highlighted. Checking
// a box emits breakpointToggled; the pane forwards it to the session.
#include "views/panes/debug/DebugTypes.h"

#include <QAbstractItemModel>

#include <vector>

namespace tessera::views::debugger {

class BreakpointTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column { Name, Kind, Step, ColumnCount };
    static constexpr int kCurrentRole = Qt::UserRole + 10; // bool: the step about to run

    using QAbstractItemModel::QAbstractItemModel;

    void setProgram(const std::vector<ProgramNode>& nodes,
                    const std::vector<debug::Breakpoint>& breakpoints);
    void setCurrentStep(record::StepId step); // none(): none
    record::StepId currentStep() const { return current_; }
    QModelIndex indexOfStep(record::StepId step) const;
    QModelIndex indexOfNode(record::ProgramNodeId node) const;
    std::vector<debug::Breakpoint> breakpoints() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    void breakpointToggled(const tessera::debug::Breakpoint& breakpoint, bool enabled);

private:
    struct Item {
        ProgramNode node;
        int parent = -1; // item index
        int row = 0;     // among its parent's children
        std::vector<int> children;
        bool checked = false;
    };
    // A node can hold a breakpoint when it is a step or a named Block.
    static bool breakable(const ProgramNode& n);
    static debug::Breakpoint breakpointOf(const ProgramNode& n);
    int itemOf(const QModelIndex& index) const;

    std::vector<Item> items_;
    std::vector<int> roots_;
    std::vector<int> itemOfStep_; // by step id: item index, -1 for none
    record::StepId current_ = record::StepId::none();
};

} // namespace tessera::views::debugger
