#include "views/models/ProgramTreeModel.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/IdNumbers.h"
#include "views/models/NodeText.h"
#include "views/models/ProgramKinds.h"

#include <QColor>
#include <QFont>

namespace tessera::views {

ProgramTreeModel::ProgramTreeModel(QObject* parent)
    : QAbstractItemModel(parent) {}

void ProgramTreeModel::setProgram(std::shared_ptr<const ReportData> data,
                                  std::shared_ptr<const ProgramStats> stats) {
    beginResetModel();
    data_ = (data && stats) ? std::move(data) : nullptr;
    stats_ = data_ ? std::move(stats) : nullptr;
    row_.clear();
    if (stats_) {
        row_.assign(stats_->parent.size(), 0);
        for (std::size_t r = 0; r < stats_->roots.size(); ++r) {
            row_[static_cast<std::size_t>(stats_->roots[r])] = static_cast<int>(r);
        }
        for (const auto& kids : stats_->children) {
            for (std::size_t r = 0; r < kids.size(); ++r) {
                row_[static_cast<std::size_t>(kids[r])] = static_cast<int>(r);
            }
        }
    }
    endResetModel();
}

QModelIndex ProgramTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!stats_ || row < 0 || column < 0 || column >= ColumnCount) {
        return {};
    }
    const std::vector<int>& list =
        parent.isValid() ? stats_->children[static_cast<std::size_t>(nodePosition(parent))]
                         : stats_->roots;
    if (static_cast<std::size_t>(row) >= list.size()) {
        return {};
    }
    return createIndex(row, column, static_cast<quintptr>(list[static_cast<std::size_t>(row)]));
}

QModelIndex ProgramTreeModel::parent(const QModelIndex& child) const {
    const int node = nodePosition(child);
    if (node < 0) {
        return {};
    }
    const int p = stats_->parent[static_cast<std::size_t>(node)];
    if (p < 0) {
        return {};
    }
    return createIndex(row_[static_cast<std::size_t>(p)], 0, static_cast<quintptr>(p));
}

int ProgramTreeModel::rowCount(const QModelIndex& parent) const {
    if (!stats_) {
        return 0;
    }
    if (!parent.isValid()) {
        return static_cast<int>(stats_->roots.size());
    }
    if (parent.column() != 0) {
        return 0;
    }
    return static_cast<int>(
        stats_->children[static_cast<std::size_t>(nodePosition(parent))].size());
}

int ProgramTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

int ProgramTreeModel::nodePosition(const QModelIndex& index) const {
    if (!stats_ || !index.isValid() || index.model() != this) {
        return -1;
    }
    return static_cast<int>(index.internalId());
}

QModelIndex ProgramTreeModel::indexOfNode(record::ProgramNodeId nodeId) const {
    if (!stats_) {
        return {};
    }
    const int node = stats_->nodePosition(nodeId);
    return node < 0
               ? QModelIndex()
               : createIndex(row_[static_cast<std::size_t>(node)], 0, static_cast<quintptr>(node));
}

QModelIndex ProgramTreeModel::indexOfStep(record::StepId stepId) const {
    if (!stats_) {
        return {};
    }
    const int s = stats_->stepPosition(stepId);
    return s < 0 ? QModelIndex()
                 : indexOfNode(data_->programSteps[static_cast<std::size_t>(s)].node);
}

QVariant ProgramTreeModel::display(int node, int column) const {
    const auto& n = data_->programNodes[static_cast<std::size_t>(node)];
    const NodeStats& a = stats_->nodes[static_cast<std::size_t>(node)];
    switch (column) {
    case Name: {
        QString label = QString::fromStdString(nodeLabel(*data_, *stats_, node));
        if (n.kind == record::ProgramKind::Repeat) {
            label = QString("×%1 %2").arg(formatCount(n.repeatCount), label);
        }
        return label.isEmpty() ? programKindText(n.kind) : label;
    }
    case Kind:
        return programKindText(n.kind);
    case Executions:
        return formatExecutions(a);
    case Cycles:
        return formatCount(a.cycles);
    case CyclesShare:
        return stats_->totalCycles ? formatPercent(static_cast<double>(a.cycles) /
                                                   static_cast<double>(stats_->totalCycles))
                                   : QString();
    case Memory:
        return a.steps ? formatBytes(a.peakNotAlwaysLive) : QString();
    case Vertices:
        return a.vertices ? formatCount(a.vertices) : QString();
    case Flops:
        return a.flops ? formatCount(a.flops) : QString();
    case Steps:
        return formatCount(a.steps);
    default:
        return {};
    }
}

QVariant ProgramTreeModel::sortValue(int node, int column) const {
    const NodeStats& a = stats_->nodes[static_cast<std::size_t>(node)];
    switch (column) {
    case Name:
    case Kind:
        return display(node, column);
    case Executions:
        return qulonglong(a.executions);
    case Cycles:
        return qulonglong(a.cycles);
    case CyclesShare:
        return stats_->totalCycles
                   ? static_cast<double>(a.cycles) / static_cast<double>(stats_->totalCycles)
                   : 0.0;
    case Memory:
        return qulonglong(a.peakNotAlwaysLive);
    case Vertices:
        return qulonglong(a.vertices);
    case Flops:
        return qulonglong(a.flops);
    case Steps:
        return a.steps;
    default:
        return {};
    }
}

QVariant ProgramTreeModel::data(const QModelIndex& index, int role) const {
    const int node = nodePosition(index);
    if (node < 0) {
        return {};
    }
    const auto& n = data_->programNodes[static_cast<std::size_t>(node)];
    switch (role) {
    case Qt::DisplayRole:
        return display(node, index.column());
    case kSortRole:
        return sortValue(node, index.column());
    case kIdRole:
        return n.id.value();
    case kStepIdRole:
        return idVariant(n.step);
    case kComputeSetRole:
        return idVariant(n.computeSet);
    case Qt::ToolTipRole:
        return nodeToolTip(*data_, *stats_, node);
    case Qt::DecorationRole:
        return index.column() == Name ? QVariant(programKindColor(n.kind)) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= Executions ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                            : QVariant();
    case Qt::FontRole:
        if (index.column() == Name && n.kind == record::ProgramKind::Block) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

QVariant ProgramTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    static const char* names[ColumnCount] = {"Program",  "Kind",     "Executions",
                                             "Cycles",   "% cycles", "Memory",
                                             "Vertices", "FLOPs",    "Steps"};
    static const char* tips[ColumnCount] = {
        "The program node: its name, or for a step its compute set or copy",
        "Kind of program node",
        "Times the node ran over all runs (~: estimated, inside a data-dependent loop)",
        "Cycles of every step beneath, summed over all their executions",
        "Share of the report's total cycles",
        "Peak not-always-live bytes on the fullest tile at any step beneath",
        "Vertices of the compute sets beneath (compile time, each step once)",
        "Floating-point operations beneath, summed over executions",
        "Program steps beneath"};
    if (section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* units[ColumnCount] = {
        nullptr, nullptr, "", "cycles", "fraction of all cycles", "bytes", "", "", ""};
    if (role == Qt::DisplayRole) {
        return QString(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString(tips[section]);
    }
    if (role == kUnitRole) {
        return units[section] ? QVariant(QString(units[section])) : QVariant();
    }
    if (role == Qt::TextAlignmentRole) {
        return section >= Executions ? int(Qt::AlignRight | Qt::AlignVCenter)
                                     : int(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

} // namespace tessera::views
