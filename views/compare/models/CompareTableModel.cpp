#include "views/compare/models/CompareTableModel.h"

#include "views/common/Colors.h"

#include <QBrush>
#include <QGuiApplication>

namespace tessera::views {

CompareTableModel::CompareTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void CompareTableModel::setTable(std::shared_ptr<const void> owner, std::size_t rows,
                                 std::vector<CompareColumn> columns) {
    beginResetModel();
    owner_ = std::move(owner);
    rows_ = owner_ ? rows : 0;
    columns_ = std::move(columns);
    endResetModel();
}

void CompareTableModel::clear() {
    beginResetModel();
    owner_.reset();
    rows_ = 0;
    endResetModel();
}

int CompareTableModel::columnOf(const QString& header) const {
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        if (columns_[c].header == header) {
            return static_cast<int>(c);
        }
    }
    return -1;
}

CompareTone CompareTableModel::toneAt(int row, int column) const {
    if (row < 0 || column < 0 || static_cast<std::size_t>(row) >= rows_ ||
        static_cast<std::size_t>(column) >= columns_.size()) {
        return CompareTone::Neutral;
    }
    const CompareColumn& c = columns_[static_cast<std::size_t>(column)];
    return c.tone ? c.tone(static_cast<std::size_t>(row)) : CompareTone::Neutral;
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_);
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto row = static_cast<std::size_t>(index.row());
    const CompareColumn& c = columns_[static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return c.text(row);
    case kSortRole:
        return c.value(row);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((c.numeric ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    case kToneRole:
        return static_cast<int>(toneAt(index.row(), index.column()));
    case Qt::ForegroundRole: {
        const CompareTone tone = toneAt(index.row(), index.column());
        if (tone == CompareTone::Neutral) {
            return {};
        }
        const QPalette palette = QGuiApplication::palette();
        return QBrush(tone == CompareTone::Worse ? worseColor(palette) : betterColor(palette));
    }
    default:
        return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 ||
        static_cast<std::size_t>(section) >= columns_.size()) {
        return {};
    }
    if (role == kUnitRole) {
        const CompareColumn& c = columns_[static_cast<std::size_t>(section)];
        return c.numeric ? QVariant(c.unit) : QVariant();
    }
    if (role == Qt::DisplayRole) {
        return columns_[static_cast<std::size_t>(section)].header;
    }
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::Alignment(
            (columns_[static_cast<std::size_t>(section)].numeric ? Qt::AlignRight : Qt::AlignLeft) |
            Qt::AlignVCenter));
    }
    return {};
}

} // namespace tessera::views
