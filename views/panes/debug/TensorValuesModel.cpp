#include "views/panes/debug/TensorValuesModel.h"

#include "views/common/Format.h"
#include "views/models/ModelRoles.h"

#include <cmath>

namespace tessera::views::debugger {

namespace {
bool differs(double a, double b) {
    return !(a == b || (std::isnan(a) && std::isnan(b)));
}
} // namespace

QColor TensorValuesModel::changedColor() {
    return QColor(255, 196, 64, 150);
}

QString TensorValuesModel::indexText(std::size_t flat, const std::vector<std::size_t>& shape) {
    if (shape.empty()) {
        return QStringLiteral("[]");
    }
    std::vector<std::size_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::size_t extent = shape[d] == 0 ? 1 : shape[d];
        index[d] = flat % extent;
        flat /= extent;
    }
    return shapeText(index);
}

void TensorValuesModel::setValues(const TensorValues& now,
                                  const std::optional<TensorValues>& previous) {
    beginResetModel();
    now_ = now;
    if (!now_.live || !now_.error.isEmpty()) {
        now_.values.clear(); // not this tensor's values: never shown
        now_.owners.clear();
    }
    hasPrevious_ = previous && previous->live && previous->error.isEmpty() &&
                   previous->values.size() == now_.values.size() && !now_.values.empty();
    previous_ = hasPrevious_ ? previous->values : std::vector<double>{};
    changedCount_ = 0;
    for (std::size_t i = 0; i < previous_.size(); ++i) {
        changedCount_ += differs(previous_[i], now_.values[i]) ? 1 : 0;
    }
    endResetModel();
}

void TensorValuesModel::clear() {
    setValues(TensorValues{}, std::nullopt);
}

bool TensorValuesModel::changed(int element) const {
    return hasPrevious_ && element >= 0 && std::size_t(element) < previous_.size() &&
           differs(previous_[std::size_t(element)], now_.values[std::size_t(element)]);
}

int TensorValuesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(now_.values.size());
}

int TensorValuesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TensorValuesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const std::size_t i = std::size_t(index.row());
    const double v = now_.values[i];
    if (role == Qt::DisplayRole || role == kSortRole) {
        const bool sort = role == kSortRole;
        switch (index.column()) {
        case Index:
            return sort ? QVariant(qulonglong(i)) : QVariant(indexText(i, now_.shape));
        case Value:
            return sort ? QVariant(v) : QVariant(QString::number(v, 'g', 7));
        case Tile:
            return i < now_.owners.size() ? QVariant(now_.owners[i].value()) : QVariant();
        case Previous:
            if (!hasPrevious_) {
                return {};
            }
            return sort ? QVariant(previous_[i]) : QVariant(QString::number(previous_[i], 'g', 7));
        case Change:
            if (!hasPrevious_) {
                return {};
            }
            return sort ? QVariant(v - previous_[i])
                        : QVariant(changed(index.row()) ? QString::number(v - previous_[i], 'g', 4)
                                                        : QString());
        default:
            return {};
        }
    }
    if (role == Qt::BackgroundRole && changed(index.row())) {
        return changedColor();
    }
    if (role == Qt::TextAlignmentRole && index.column() != Index) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant TensorValuesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Index:
        return tr("Element");
    case Value:
        return tr("Value");
    case Tile:
        return tr("Tile");
    case Previous:
        return tr("Previous pause");
    case Change:
        return tr("Change");
    default:
        return {};
    }
}

} // namespace tessera::views::debugger
