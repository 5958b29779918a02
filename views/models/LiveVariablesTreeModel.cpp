#include "views/models/LiveVariablesTreeModel.h"

#include "views/common/Format.h"

#include <QHash>
#include <QStringList>

#include <algorithm>

namespace tessera::views {

struct LiveVariablesTreeModel::Node {
    QString label;    // what the row shows: a name part, or a chain of them
    QString path;     // the full name (a group's: the prefix it stands for)
    int flatRow = -1; // a variable's row in the flat model; -1 for a group
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;
    std::uint64_t bytes = 0;
    std::uint64_t variables = 0;

    bool isGroup() const { return flatRow < 0; }
};

namespace {

using Node = LiveVariablesTreeModel::Node;

// A group whose only child is a group takes that child's place: "a" > "b" >
// {x, y} reads as "a/b" > {x, y}.
void mergeChains(Node& n) {
    for (auto& child : n.children) {
        while (child->isGroup() && child->children.size() == 1 &&
               child->children.front()->isGroup()) {
            std::unique_ptr<Node> only = std::move(child->children.front());
            only->label = child->label + "/" + only->label;
            child = std::move(only);
        }
        mergeChains(*child);
    }
}

// Largest first, then by name; parents and row numbers set for the index() calls.
void order(Node& n) {
    std::stable_sort(n.children.begin(), n.children.end(), [](const auto& a, const auto& b) {
        return a->bytes != b->bytes ? a->bytes > b->bytes : a->label < b->label;
    });
    for (std::size_t i = 0; i < n.children.size(); ++i) {
        n.children[i]->parent = &n;
        n.children[i]->row = static_cast<int>(i);
        order(*n.children[i]);
    }
}

} // namespace

LiveVariablesTreeModel::LiveVariablesTreeModel(LiveVariablesModel* flat, QObject* parent)
    : QAbstractItemModel(parent)
    , flat_(flat)
    , root_(std::make_unique<Node>()) {
    connect(flat_, &QAbstractItemModel::modelReset, this, &LiveVariablesTreeModel::rebuild);
    rebuild();
}

LiveVariablesTreeModel::~LiveVariablesTreeModel() = default;

void LiveVariablesTreeModel::rebuild() {
    beginResetModel();
    root_ = std::make_unique<Node>();
    leaves_.assign(flat_->variables().size(), nullptr);
    QHash<QString, Node*> groups; // by path
    for (std::size_t r = 0; r < flat_->variables().size(); ++r) {
        const reports::VariableEntry& v = *flat_->variables()[r];
        const QString name = QString::fromStdString(v.name);
        QStringList parts = name.split('/', Qt::SkipEmptyParts);
        if (parts.isEmpty()) {
            parts << name;
        }
        Node* at = root_.get();
        QString prefix;
        for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
            prefix += (i ? "/" : "") + parts[i];
            Node*& group = groups[prefix];
            if (!group) {
                auto made = std::make_unique<Node>();
                made->label = parts[i];
                made->path = prefix;
                group = made.get();
                at->children.push_back(std::move(made));
            }
            group->bytes += v.totalBytes;
            ++group->variables;
            at = group;
        }
        auto leaf = std::make_unique<Node>();
        leaf->label = parts.back();
        leaf->path = name;
        leaf->flatRow = static_cast<int>(r);
        leaf->bytes = v.totalBytes;
        leaf->variables = 1;
        leaves_[r] = leaf.get();
        at->children.push_back(std::move(leaf));
    }
    mergeChains(*root_);
    order(*root_);
    endResetModel();
}

const LiveVariablesTreeModel::Node* LiveVariablesTreeModel::node(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const Node*>(index.internalPointer()) : root_.get();
}

QModelIndex LiveVariablesTreeModel::indexOfVariable(std::uint32_t id) const {
    const int row = flat_->rowOfVariable(record::VariableId{id});
    if (row < 0 || static_cast<std::size_t>(row) >= leaves_.size()) {
        return {};
    }
    const Node* leaf = leaves_[static_cast<std::size_t>(row)];
    return createIndex(leaf->row, 0, const_cast<Node*>(leaf));
}

QModelIndex LiveVariablesTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) {
        return {};
    }
    const Node* p = node(parent);
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex LiveVariablesTreeModel::parent(const QModelIndex& child) const {
    const Node* n = child.isValid() ? node(child) : nullptr;
    if (!n || !n->parent || n->parent == root_.get()) {
        return {};
    }
    return createIndex(n->parent->row, 0, n->parent);
}

int LiveVariablesTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) {
        return 0;
    }
    return static_cast<int>(node(parent)->children.size());
}

int LiveVariablesTreeModel::columnCount(const QModelIndex&) const {
    return LiveVariablesModel::ColumnCount;
}

QVariant LiveVariablesTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const Node& n = *node(index);
    if (role == kPathRole) {
        return n.path;
    }
    if (n.isGroup()) {
        return groupData(n, index.column(), role);
    }
    if (index.column() == LiveVariablesModel::Name && role == Qt::DisplayRole) {
        return n.label;
    }
    return flat_->data(flat_->index(n.flatRow, index.column()), role);
}

QVariant LiveVariablesTreeModel::groupData(const Node& n, int column, int role) const {
    const bool bytes = column == LiveVariablesModel::Bytes;
    switch (role) {
    case Qt::DisplayRole:
        if (column == LiveVariablesModel::Name) {
            return n.label;
        }
        if (bytes) {
            return formatBytes(n.bytes);
        }
        if (column == LiveVariablesModel::Kind) {
            return n.variables == 1 ? QString("1 variable")
                                    : QString("%1 variables").arg(formatCount(n.variables));
        }
        return {};
    case kSortRole:
        if (bytes) {
            return qulonglong(n.bytes);
        }
        if (column == LiveVariablesModel::LiveRange) {
            return qlonglong(-1);
        }
        if (column == LiveVariablesModel::Shape || column == LiveVariablesModel::Tiles) {
            return qulonglong(0);
        }
        return groupData(n, column, Qt::DisplayRole).toString();
    case Qt::ToolTipRole:
        return QString("<b>%1/</b><br>%2 variables, %3 over all tiles")
            .arg(n.path.toHtmlEscaped(), formatCount(n.variables), formatBytes(n.bytes));
    case Qt::TextAlignmentRole:
        return bytes ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    default:
        return {};
    }
}

QVariant LiveVariablesTreeModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const {
    return flat_->headerData(section, orientation, role);
}

} // namespace tessera::views
