#include "views/models/OperationsModel.h"

#include "views/common/Format.h"
#include "views/models/NodeText.h"

namespace tessera::views {

OperationsModel::OperationsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void OperationsModel::setProgram(std::shared_ptr<const ReportData> data,
                                 std::shared_ptr<const ProgramStats> stats) {
    beginResetModel();
    data_ = (data && stats) ? std::move(data) : nullptr;
    stats_ = data_ ? std::move(stats) : nullptr;
    endResetModel();
}

int OperationsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !stats_ ? 0 : static_cast<int>(stats_->operations.size());
}

int OperationsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int OperationsModel::rowOfNode(std::uint32_t nodeId) const {
    if (!stats_) {
        return -1;
    }
    const int node = stats_->nodePosition(nodeId);
    for (std::size_t r = 0; r < stats_->operations.size(); ++r) {
        if (stats_->operations[r] == node) {
            return static_cast<int>(r);
        }
    }
    return -1;
}

std::uint32_t OperationsModel::nodeIdAt(int row) const {
    if (!stats_ || row < 0 || static_cast<std::size_t>(row) >= stats_->operations.size()) {
        return reports::kNone;
    }
    return data_
        ->programNodes[static_cast<std::size_t>(stats_->operations[static_cast<std::size_t>(row)])]
        .id;
}

QVariant OperationsModel::sortValue(int row, int column) const {
    const int node = stats_->operations[static_cast<std::size_t>(row)];
    const NodeStats& a = stats_->nodes[static_cast<std::size_t>(node)];
    switch (column) {
    case Name:
        return QString::fromStdString(data_->programNodes[static_cast<std::size_t>(node)].name);
    case Cycles:
        return qulonglong(a.cycles);
    case CyclesShare:
        return stats_->totalCycles
                   ? static_cast<double>(a.cycles) / static_cast<double>(stats_->totalCycles)
                   : 0.0;
    case SelfCycles:
        return qulonglong(a.selfCycles);
    case Flops:
        return qulonglong(a.flops);
    case FlopsPerCycle:
        return a.cycles ? static_cast<double>(a.flops) / static_cast<double>(a.cycles) : 0.0;
    case Memory:
        return qulonglong(a.peakNotAlwaysLive);
    case Vertices:
        return qulonglong(a.vertices);
    case Steps:
        return a.steps;
    case Executions:
        return qulonglong(a.executions);
    case BytesExchanged:
        return qulonglong(a.bytesExchanged);
    default:
        return {};
    }
}

QVariant OperationsModel::data(const QModelIndex& index, int role) const {
    if (!stats_ || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const int row = index.row();
    const int column = index.column();
    const int node = stats_->operations[static_cast<std::size_t>(row)];
    const NodeStats& a = stats_->nodes[static_cast<std::size_t>(node)];
    switch (role) {
    case Qt::DisplayRole: {
        const QVariant v = sortValue(row, column);
        switch (column) {
        case Name:
            return v;
        case CyclesShare:
            return formatPercent(v.toDouble());
        case FlopsPerCycle:
            return a.flops ? QString::number(v.toDouble(), 'f', 2) : QString();
        case Memory:
            return formatBytes(a.peakNotAlwaysLive);
        case BytesExchanged:
            return a.bytesExchanged ? formatBytes(a.bytesExchanged) : QString();
        case Executions:
            return formatExecutions(a);
        default:
            return formatCount(v.toULongLong());
        }
    }
    case kSortRole:
        return sortValue(row, column);
    case kIdRole:
        return data_->programNodes[static_cast<std::size_t>(node)].id;
    case Qt::TextAlignmentRole:
        return column == Name ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return column == Name ? QVariant(nodeToolTip(*data_, *stats_, node)) : QVariant();
    default:
        return {};
    }
}

QVariant OperationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* names[ColumnCount] = {"Operation", "Cycles",      "% cycles", "Self cycles",
                                             "FLOPs",     "FLOPs/cycle", "Memory",   "Vertices",
                                             "Steps",     "Executions",  "Received"};
    static const char* tips[ColumnCount] = {
        "The named operation (a Block of the program: a library call or a named region)",
        "Cycles of every step inside, nested operations included, over all executions",
        "Share of the report's total cycles",
        "Cycles of the steps whose innermost operation this is",
        "Floating-point operations inside, over all executions",
        "FLOPs per cycle: how well the operation uses the tiles",
        "Peak not-always-live bytes on the fullest tile at any step inside",
        "Vertices of the compute sets inside (compile time)",
        "Program steps inside",
        "Times the operation ran",
        "Bytes received by all tiles in exchanges inside, over all executions"};
    static const char* units[ColumnCount] = {nullptr,  "cycles", "fraction of all cycles",
                                             "cycles", "",       "FLOPs per cycle",
                                             "bytes",  "",       "",
                                             "",       "bytes"};
    switch (role) {
    case Qt::DisplayRole:
        return QString(names[section]);
    case Qt::ToolTipRole:
        return QString(tips[section]);
    case kUnitRole:
        return units[section] ? QVariant(QString(units[section])) : QVariant();
    case Qt::TextAlignmentRole:
        return section == Name ? int(Qt::AlignLeft | Qt::AlignVCenter)
                               : int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace tessera::views
