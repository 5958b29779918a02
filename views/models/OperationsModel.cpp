#include "views/models/OperationsModel.h"

#include "views/common/Format.h"
#include "views/models/ColumnHeader.h"
#include "views/models/NodeText.h"

#include <QFont>

namespace tessera::views {

OperationsModel::OperationsModel(QObject* parent)
    : QAbstractItemModel(parent) {}

void OperationsModel::setProgram(std::shared_ptr<const ReportData> data,
                                 std::shared_ptr<const ProgramStats> stats) {
    beginResetModel();
    data_ = (data && stats) ? std::move(data) : nullptr;
    stats_ = data_ ? std::move(stats) : nullptr;
    rebuild();
    endResetModel();
}

void OperationsModel::setLayer(LayerFilter layer) {
    if (layer == layer_) {
        return;
    }
    beginResetModel();
    layer_ = layer;
    rebuild();
    endResetModel();
}

void OperationsModel::rebuild() {
    tree_ = stats_ ? buildOperationsTree(*data_, *stats_, layer_) : OperationsTree{};
    positionInParent_.assign(tree_.rows.size(), 0);
    auto number = [&](const std::vector<int>& rows) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
            positionInParent_[static_cast<std::size_t>(rows[i])] = static_cast<int>(i);
        }
    };
    number(tree_.roots);
    for (const auto& row : tree_.rows) {
        number(row.children);
    }
}

const std::vector<int>& OperationsModel::siblingsOf(int treeRow) const {
    const int parent = tree_.rows[static_cast<std::size_t>(treeRow)].parent;
    return parent < 0 ? tree_.roots : tree_.rows[static_cast<std::size_t>(parent)].children;
}

int OperationsModel::treeRow(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) {
        return -1;
    }
    return static_cast<int>(index.internalId()) - 1;
}

QModelIndex OperationsModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0 ||
        (parent.isValid() && parent.column() != 0)) {
        return {};
    }
    const int p = treeRow(parent);
    const auto& rows = p < 0 ? tree_.roots : tree_.rows[static_cast<std::size_t>(p)].children;
    if (static_cast<std::size_t>(row) >= rows.size()) {
        return {};
    }
    return createIndex(row, column, static_cast<quintptr>(rows[static_cast<std::size_t>(row)] + 1));
}

QModelIndex OperationsModel::parent(const QModelIndex& child) const {
    const int r = treeRow(child);
    if (r < 0) {
        return {};
    }
    const int p = tree_.rows[static_cast<std::size_t>(r)].parent;
    if (p < 0) {
        return {};
    }
    return createIndex(positionInParent_[static_cast<std::size_t>(p)], 0,
                       static_cast<quintptr>(p + 1));
}

int OperationsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) {
        return 0;
    }
    const int p = treeRow(parent);
    return static_cast<int>(p < 0 ? tree_.roots.size()
                                  : tree_.rows[static_cast<std::size_t>(p)].children.size());
}

int OperationsModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QModelIndex OperationsModel::indexOfNode(record::ProgramNodeId nodeId) const {
    if (!stats_) {
        return {};
    }
    const int node = stats_->nodePosition(nodeId);
    for (std::size_t r = 0; r < tree_.rows.size(); ++r) {
        if (node >= 0 && tree_.rows[r].node == node) {
            return createIndex(positionInParent_[r], 0, static_cast<quintptr>(r + 1));
        }
    }
    return {};
}

record::ProgramNodeId OperationsModel::nodeIdAt(const QModelIndex& index) const {
    const int r = treeRow(index);
    if (r < 0 || tree_.rows[static_cast<std::size_t>(r)].node < 0) {
        return record::ProgramNodeId::none();
    }
    return data_
        ->programNodes[static_cast<std::size_t>(tree_.rows[static_cast<std::size_t>(r)].node)]
        .id;
}

QVariant OperationsModel::sortValue(const OperationRow& row, int column) const {
    const OperationFigures& f = row.figures;
    const NodeStats* node =
        row.node >= 0 ? &stats_->nodes[static_cast<std::size_t>(row.node)] : nullptr;
    switch (column) {
    case Name:
        return QString::fromStdString(row.label);
    case DebugName:
        return QString::fromStdString(row.debugName);
    case Layer:
        return row.node < 0 ? QString()
                            : QString::fromStdString(layerName(
                                  data_->programNodes[static_cast<std::size_t>(row.node)].layer));
    case CodeSize:
        return qulonglong(f.codeBytes);
    case Cycles:
        return qulonglong(f.cycles);
    case CyclesShare:
        return stats_->totalCycles
                   ? static_cast<double>(f.cycles) / static_cast<double>(stats_->totalCycles)
                   : 0.0;
    case SelfCycles:
        return qulonglong(node ? node->selfCycles : 0);
    case Flops:
        return qulonglong(f.flops);
    case FlopsPerCycle:
        return f.cycles ? static_cast<double>(f.flops) / static_cast<double>(f.cycles) : 0.0;
    case Memory:
        return qulonglong(f.peakMemory);
    case Vertices:
        return qulonglong(f.vertices);
    case Steps:
        return f.steps;
    case Executions:
        return qulonglong(node ? node->executions : 0);
    case BytesExchanged:
        return qulonglong(f.bytesReceived);
    default:
        return {};
    }
}

QVariant OperationsModel::displayValue(const OperationRow& row, int column) const {
    const OperationFigures& f = row.figures;
    const QVariant v = sortValue(row, column);
    switch (column) {
    case Name:
    case DebugName:
    case Layer:
        return v;
    case CodeSize:
        return formatBytes(f.codeBytes);
    case CyclesShare:
        return formatPercent(v.toDouble());
    case FlopsPerCycle:
        return f.flops ? QString::number(v.toDouble(), 'f', 2) : QString();
    case Memory:
        return formatBytes(f.peakMemory);
    case BytesExchanged:
        return f.bytesReceived ? formatBytes(f.bytesReceived) : QString();
    case SelfCycles:
        return row.node < 0 ? QString() : formatCount(v.toULongLong());
    case Executions:
        return row.node < 0 ? QString()
                            : formatExecutions(stats_->nodes[static_cast<std::size_t>(row.node)]);
    default:
        return formatCount(v.toULongLong());
    }
}

QVariant OperationsModel::data(const QModelIndex& index, int role) const {
    const int r = treeRow(index);
    if (!stats_ || r < 0 || index.column() >= ColumnCount) {
        return {};
    }
    const OperationRow& row = tree_.rows[static_cast<std::size_t>(r)];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, column);
    case kSortRole:
        return sortValue(row, column);
    case kIdRole:
        return row.node < 0
                   ? QVariant()
                   : QVariant(data_->programNodes[static_cast<std::size_t>(row.node)].id.value());
    case kFilterTextRole:
        return QString::fromStdString(row.label + " " + row.debugName);
    case Qt::FontRole: {
        if (row.node >= 0) {
            return {};
        }
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::TextAlignmentRole:
        return column <= Layer ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        if (column != Name) {
            return {};
        }
        return row.node >= 0 ? QVariant(nodeToolTip(*data_, *stats_, row.node))
                             : QVariant(QString("%1 operation%2 under %3/")
                                            .arg(row.operations)
                                            .arg(row.operations == 1 ? "" : "s")
                                            .arg(QString::fromStdString(row.debugName)));
    default:
        return {};
    }
}

QVariant OperationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const ColumnHeader columns[ColumnCount] = {
        {"Operation",
         "The operation: the library function that opened it, or the last part of its debug "
         "name; groups are debug-name path prefixes",
         nullptr},
        {"Debug name", "The operation's full debug name (\"/\"-separated path)", nullptr},
        {"Layer",
         "Which software layer opened the operation: PopLibs (a library call) or Application",
         nullptr},
        {"Code size", "Vertex code bytes of the codelets its compute sets use, on all tiles",
         "bytes"},
        {"Cycles", "Cycles of every step inside, nested operations included, over all executions",
         "cycles"},
        {"% cycles", "Share of the report's total cycles", "fraction of all cycles"},
        {"Self cycles", "Cycles of the steps whose innermost operation this is", "cycles"},
        {"FLOPs", "Floating-point operations inside, over all executions", ""},
        {"FLOPs/cycle", "FLOPs per cycle: how well the operation uses the tiles",
         "FLOPs per cycle"},
        {"Memory", "Peak not-always-live bytes on the fullest tile at any step inside", "bytes"},
        {"Vertices", "Vertices of the compute sets inside (compile time)", ""},
        {"Steps", "Program steps inside", ""},
        {"Executions", "Times the operation ran", ""},
        {"Received", "Bytes received by all tiles in exchanges inside, over all executions",
         "bytes"}};
    return columnHeaderData(columns[section], role);
}

} // namespace tessera::views
