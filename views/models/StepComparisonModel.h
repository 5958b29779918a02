#pragma once
// Live variables of several program steps side by side: one row per variable
// live at any of them, one column per step (its bytes where live), and the
// change from the first step to the last (in program order): became live,
// became dead, live at both, or transient (live only in between).
#include "views/models/ModelRoles.h"
#include "views/models/VariableLookup.h"

#include <QAbstractTableModel>

#include <memory>

namespace tessera::views {

class StepComparisonModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Change { Both, Born, Died, Transient };
    struct Totals {
        std::vector<std::uint64_t> bytesAt; // per compared step: bytes of its live variables
        std::size_t born = 0, died = 0;
        std::uint64_t bornBytes = 0, diedBytes = 0;
    };

    explicit StepComparisonModel(QObject* parent = nullptr);

    // `live[i]` are the variables live at `steps[i]`; steps are shown in the
    // order given (the pane passes program order).
    void setComparison(std::shared_ptr<const ReportData> data,
                       std::shared_ptr<const VariableLookup> lookup,
                       const std::vector<record::StepId>& steps,
                       const std::vector<std::vector<record::VariableId>>& live);
    void clear();

    const std::vector<record::StepId>& steps() const { return steps_; }
    const Totals& totals() const { return totals_; }
    Change changeAt(int row) const { return rows_[static_cast<std::size_t>(row)].change; }
    int stepColumn(int i) const { return 2 + i; }
    int changeColumn() const { return 2 + static_cast<int>(steps_.size()); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString changeText(Change change);

private:
    struct Row {
        const reports::VariableEntry* variable = nullptr;
        std::vector<bool> live; // per step
        Change change = Change::Both;
    };

    std::shared_ptr<const ReportData> data_;
    std::vector<record::StepId> steps_;
    std::vector<Row> rows_;
    Totals totals_;
};

} // namespace tessera::views
