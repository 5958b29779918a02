#include "views/panes/debug/BreakpointTreeModel.h"

#include "views/common/Colors.h"

#include <QFont>

#include <map>

namespace tessera::views::debugger {

bool BreakpointTreeModel::breakable(const ProgramNode& n) {
    return !n.step.isNone() || (n.kind == record::ProgramKind::Block && !n.name.isEmpty());
}

debug::Breakpoint BreakpointTreeModel::breakpointOf(const ProgramNode& n) {
    return !n.step.isNone() ? debug::Breakpoint{debug::BreakpointKind::Step, n.step.value()}
                            : debug::Breakpoint{debug::BreakpointKind::Block, n.id.value()};
}

void BreakpointTreeModel::setProgram(const std::vector<ProgramNode>& nodes,
                                     const std::vector<debug::Breakpoint>& breakpoints) {
    beginResetModel();
    items_.clear();
    roots_.clear();
    itemOfStep_.clear();
    current_ = record::StepId::none();
    std::map<record::ProgramNodeId, int> itemOfNode;
    for (const ProgramNode& n : nodes) {
        itemOfNode[n.id] = int(items_.size());
        Item item;
        item.node = n;
        for (const debug::Breakpoint& b : breakpoints) {
            item.checked = item.checked || (breakable(n) && breakpointOf(n) == b);
        }
        items_.push_back(item);
    }
    for (int i = 0; i < int(items_.size()); ++i) {
        Item& item = items_[std::size_t(i)];
        auto parent = itemOfNode.find(item.node.parent);
        std::vector<int>& siblings =
            parent == itemOfNode.end() ? roots_ : items_[std::size_t(parent->second)].children;
        item.parent = parent == itemOfNode.end() ? -1 : parent->second;
        item.row = int(siblings.size());
        siblings.push_back(i);
        if (!item.node.step.isNone()) {
            const std::size_t step = record::index(item.node.step);
            if (itemOfStep_.size() <= step) {
                itemOfStep_.resize(step + 1, -1);
            }
            itemOfStep_[step] = i;
        }
    }
    endResetModel();
}

void BreakpointTreeModel::setCurrentStep(record::StepId step) {
    const QModelIndex before = indexOfStep(current_);
    current_ = step;
    const QModelIndex now = indexOfStep(current_);
    for (const QModelIndex& i : {before, now}) {
        if (i.isValid()) {
            emit dataChanged(i.siblingAtColumn(0), i.siblingAtColumn(ColumnCount - 1));
        }
    }
}

QModelIndex BreakpointTreeModel::indexOfNode(record::ProgramNodeId node) const {
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (items_[i].node.id == node) {
            return createIndex(items_[i].row, 0, quintptr(i));
        }
    }
    return {};
}

QModelIndex BreakpointTreeModel::indexOfStep(record::StepId step) const {
    if (step.isNone() || record::index(step) >= itemOfStep_.size() ||
        itemOfStep_[record::index(step)] < 0) {
        return {};
    }
    const int i = itemOfStep_[record::index(step)];
    return createIndex(items_[std::size_t(i)].row, 0, quintptr(i));
}

std::vector<debug::Breakpoint> BreakpointTreeModel::breakpoints() const {
    std::vector<debug::Breakpoint> out;
    for (const Item& item : items_) {
        if (item.checked) {
            out.push_back(breakpointOf(item.node));
        }
    }
    return out;
}

int BreakpointTreeModel::itemOf(const QModelIndex& index) const {
    return index.isValid() ? int(index.internalId()) : -1;
}

QModelIndex BreakpointTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) {
        return {};
    }
    const int p = itemOf(parent);
    const std::vector<int>& children = p < 0 ? roots_ : items_[std::size_t(p)].children;
    if (row >= int(children.size()) || (parent.isValid() && parent.column() != 0)) {
        return {};
    }
    return createIndex(row, column, quintptr(children[std::size_t(row)]));
}

QModelIndex BreakpointTreeModel::parent(const QModelIndex& child) const {
    const int i = itemOf(child);
    if (i < 0 || items_[std::size_t(i)].parent < 0) {
        return {};
    }
    const int p = items_[std::size_t(i)].parent;
    return createIndex(items_[std::size_t(p)].row, 0, quintptr(p));
}

int BreakpointTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) {
        return 0;
    }
    const int p = itemOf(parent);
    return int(p < 0 ? roots_.size() : items_[std::size_t(p)].children.size());
}

int BreakpointTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant BreakpointTreeModel::data(const QModelIndex& index, int role) const {
    const int i = itemOf(index);
    if (i < 0) {
        return {};
    }
    const Item& item = items_[std::size_t(i)];
    const bool current = !current_.isNone() && item.node.step == current_;
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == Name) {
            return item.node.name.isEmpty() ? QString::fromLatin1(programKindName(item.node.kind))
                                            : item.node.name;
        }
        if (index.column() == Kind) {
            return QString::fromLatin1(programKindName(item.node.kind));
        }
        if (index.column() == Step && !item.node.step.isNone()) {
            return item.node.step.value();
        }
        return {};
    case Qt::CheckStateRole:
        if (index.column() == Name && breakable(item.node)) {
            return item.checked ? Qt::Checked : Qt::Unchecked;
        }
        return {};
    case Qt::BackgroundRole:
        return current ? QVariant(selectionColor()) : QVariant();
    case Qt::FontRole:
        if (current) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        return breakable(item.node)
                   ? tr("Check to stop before %1")
                         .arg(!item.node.step.isNone() ? tr("this step")
                                                       : tr("every step of this block"))
                   : QVariant();
    case kCurrentRole:
        return current;
    default:
        return {};
    }
}

bool BreakpointTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    const int i = itemOf(index);
    if (i < 0 || role != Qt::CheckStateRole || index.column() != Name ||
        !breakable(items_[std::size_t(i)].node)) {
        return false;
    }
    Item& item = items_[std::size_t(i)];
    const bool checked = value.toInt() == Qt::Checked;
    if (item.checked == checked) {
        return true;
    }
    item.checked = checked;
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit breakpointToggled(breakpointOf(item.node), checked);
    return true;
}

Qt::ItemFlags BreakpointTreeModel::flags(const QModelIndex& index) const {
    const int i = itemOf(index);
    if (i < 0) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Name && breakable(items_[std::size_t(i)].node)) {
        f |= Qt::ItemIsUserCheckable;
    }
    return f;
}

QVariant BreakpointTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Program (check: breakpoint)");
    case Kind:
        return tr("Kind");
    case Step:
        return tr("Step");
    default:
        return {};
    }
}

} // namespace tessera::views::debugger
