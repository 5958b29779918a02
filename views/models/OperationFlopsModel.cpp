#include "views/models/OperationFlopsModel.h"

#include "views/common/Format.h"
#include "views/models/ColumnHeader.h"
#include "views/models/ModelRoles.h"

#include <QFont>

namespace tessera::views {

namespace {

// Two decimals as the Operations tree's FLOPs/cycle column; blank without FLOPs.
QString perCycleText(std::uint64_t flops, std::uint64_t cycles) {
    if (flops == 0 || cycles == 0) {
        return {};
    }
    return QString::number(static_cast<double>(flops) / static_cast<double>(cycles), 'f', 2);
}

} // namespace

void OperationFlopsModel::setSteps(const ReportData& data, const ProgramStats& stats,
                                   const std::vector<int>& steps) {
    beginResetModel();
    rows_.clear();
    if (!steps.empty()) {
        rows_.reserve(steps.size() + 1);
        Row total;
        total.name = QStringLiteral("Total");
        for (const int position : steps) {
            const auto s = static_cast<std::size_t>(position);
            const auto& step = data.programSteps[s];
            Row row;
            row.name = QString::fromStdString(step.name);
            row.stepId = static_cast<int>(step.id.value()); // a Qt role: a plain int
            row.flopsPerExecution = step.flops;
            row.executions = stats.stepExecutions[s];
            row.flops = step.flops * row.executions;
            row.cycles = step.totalCycles * row.executions;
            total.executions += row.executions;
            total.flops += row.flops;
            total.cycles += row.cycles;
            rows_.push_back(std::move(row));
        }
        rows_.push_back(std::move(total));
    }
    endResetModel();
}

void OperationFlopsModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

int OperationFlopsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int OperationFlopsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OperationFlopsModel::sortValue(const Row& row, int column) const {
    switch (column) {
    case Step:
        return row.name;
    case FlopsPerExecution:
        // Steps differ in executions: a per-execution total would mean nothing.
        return row.stepId < 0 ? QVariant() : QVariant(qulonglong(row.flopsPerExecution));
    case Executions:
        return qulonglong(row.executions);
    case Flops:
        return qulonglong(row.flops);
    case Cycles:
        return qulonglong(row.cycles);
    case FlopsPerCycle:
        return row.cycles
                   ? QVariant(static_cast<double>(row.flops) / static_cast<double>(row.cycles))
                   : QVariant();
    default:
        return {};
    }
}

QVariant OperationFlopsModel::displayValue(const Row& row, int column) const {
    switch (column) {
    case Step:
        return row.name;
    case FlopsPerExecution:
        return row.stepId < 0 ? QString() : formatCount(row.flopsPerExecution);
    case FlopsPerCycle:
        return perCycleText(row.flops, row.cycles);
    default:
        return formatCount(sortValue(row, column).toULongLong());
    }
}

QVariant OperationFlopsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, index.column());
    case kSortRole:
        return sortValue(row, index.column());
    case kIdRole:
        return row.stepId < 0 ? QVariant() : QVariant(row.stepId);
    case Qt::TextAlignmentRole:
        return index.column() == Step ? QVariant()
                                      : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole: {
        if (row.stepId >= 0) {
            return {};
        }
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    default:
        return {};
    }
}

QVariant OperationFlopsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const ColumnHeader columns[ColumnCount] = {
        {"Step", "The program step (Total: every step of the selection, each once)", nullptr},
        {"FLOPs per execution",
         "Floating-point operations of one execution of the step, as the report stores them", ""},
        {"Executions", "Times the step ran, over all runs", ""},
        {"FLOPs", "FLOPs over all executions", ""},
        {"Cycles", "Cycles over all executions", "cycles"},
        {"FLOPs/cycle", "FLOPs over cycles: how well the step uses the tiles", "FLOPs per cycle"}};
    return columnHeaderData(columns[section], role);
}

} // namespace tessera::views
