#include "views/panes/debug/WatchListModel.h"

#include "views/common/Format.h"
#include "views/panes/debug/TensorValuesModel.h"

#include <set>

namespace tessera::views::debugger {

bool WatchListModel::add(const QString& tensor) {
    for (const Row& r : rows_) {
        if (r.name == tensor) {
            return false;
        }
    }
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    rows_.push_back({tensor, std::nullopt, std::nullopt});
    endInsertRows();
    return true;
}

bool WatchListModel::remove(const QString& tensor) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].name == tensor) {
            beginRemoveRows({}, int(i), int(i));
            rows_.erase(rows_.begin() + long(i));
            endRemoveRows();
            return true;
        }
    }
    return false;
}

QStringList WatchListModel::names() const {
    QStringList out;
    for (const Row& r : rows_) {
        out << r.name;
    }
    return out;
}

void WatchListModel::update(const TensorValues& values) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        Row& r = rows_[i];
        if (r.name != values.name) {
            continue;
        }
        if (r.now && r.now->pause == values.pause) {
            r.now = values; // a second read at the same pause
        } else {
            r.before = r.now;
            r.now = values;
        }
        emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

std::optional<TensorValues> WatchListModel::current(const QString& tensor) const {
    for (const Row& r : rows_) {
        if (r.name == tensor) {
            return r.now;
        }
    }
    return std::nullopt;
}

int WatchListModel::changedCount(const Row& row) const {
    if (!row.now || !row.before || !row.now->live || !row.before->live ||
        row.now->values.size() != row.before->values.size()) {
        return -1;
    }
    int n = 0;
    for (std::size_t i = 0; i < row.now->values.size(); ++i) {
        n += row.now->values[i] != row.before->values[i] ? 1 : 0;
    }
    return n;
}

QString WatchListModel::summary(const TensorValues& v, int maxValues) {
    if (!v.error.isEmpty()) {
        return v.error;
    }
    if (!v.live) {
        return tr("not live at this step");
    }
    QStringList parts;
    for (std::size_t i = 0; i < v.values.size() && int(i) < maxValues; ++i) {
        parts << QString::number(v.values[i], 'g', 5);
    }
    if (v.values.size() > std::size_t(maxValues)) {
        parts << QStringLiteral("…");
    }
    return parts.join(QStringLiteral(", "));
}

int WatchListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int WatchListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WatchListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Row& r = rows_[std::size_t(index.row())];
    const int changed = changedCount(r);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return r.name;
        case Shape:
            return r.now ? shapeText(r.now->shape) : QString();
        case Values:
            return r.now ? summary(*r.now) : tr("(read at the next pause)");
        case Tiles:
            if (r.now && r.now->live) {
                return int(
                    std::set<record::TileId>(r.now->owners.begin(), r.now->owners.end()).size());
            }
            return {};
        case Changed:
            return changed >= 0 ? QVariant(changed) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::BackgroundRole && changed > 0) {
        return TensorValuesModel::changedColor();
    }
    if (role == Qt::ToolTipRole && index.column() == Values && r.now) {
        return summary(*r.now, 64);
    }
    return {};
}

QVariant WatchListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Watch");
    case Shape:
        return tr("Shape");
    case Values:
        return tr("Values");
    case Tiles:
        return tr("Tiles");
    case Changed:
        return tr("Changed");
    default:
        return {};
    }
}

} // namespace tessera::views::debugger
