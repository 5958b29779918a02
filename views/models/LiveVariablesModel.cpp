#include "views/models/LiveVariablesModel.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"

#include <QColor>
#include <QStringList>

#include <algorithm>

namespace tessera::views {

LiveVariablesModel::LiveVariablesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void LiveVariablesModel::setVariables(std::shared_ptr<const ReportData> data,
                                      std::shared_ptr<const VariableLookup> lookup,
                                      const std::vector<record::VariableId>& ids) {
    beginResetModel();
    data_ = std::move(data);
    rows_.clear();
    totalBytes_ = 0;
    if (data_ && lookup) {
        for (const auto id : ids) {
            if (const auto* v = lookup->find(id)) {
                rows_.push_back(v);
                totalBytes_ += v->totalBytes;
            }
        }
        std::stable_sort(rows_.begin(), rows_.end(), [](const auto* a, const auto* b) {
            return a->totalBytes != b->totalBytes ? a->totalBytes > b->totalBytes
                                                  : a->name < b->name;
        });
    }
    endResetModel();
}

int LiveVariablesModel::rowOfVariable(record::VariableId id) const {
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        if (rows_[r]->id == id) {
            return static_cast<int>(r);
        }
    }
    return -1;
}

int LiveVariablesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LiveVariablesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveVariablesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const reports::VariableEntry& v = *rows_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return QString::fromStdString(v.name);
        case Bytes:
            return formatBytes(v.totalBytes);
        case Type:
            return QString::fromStdString(v.type);
        case Shape:
            return shapeText(v.shape);
        case LiveRange:
            return variableLiveSteps(v);
        case Tiles:
            return v.numTiles;
        case Kind:
            return variableKindLabel(v);
        default:
            return {};
        }
    case kSortRole:
        switch (column) {
        case Bytes:
            return qulonglong(v.totalBytes);
        case Shape:
            return qulonglong(v.numElements);
        case LiveRange:
            return v.firstStep.isNone() ? -1 : static_cast<qlonglong>(v.firstStep.value());
        case Tiles:
            return v.numTiles;
        default:
            return data(index, Qt::DisplayRole);
        }
    case kIdRole:
        return v.id.value();
    case Qt::ToolTipRole: {
        QString tip =
            QString("<b>%1</b><br>%2 %3, %4 over %5 tiles<br>%6")
                .arg(QString::fromStdString(v.name).toHtmlEscaped(), QString::fromStdString(v.type),
                     shapeText(v.shape), formatBytes(v.totalBytes))
                .arg(v.numTiles)
                .arg(variableKindLabel(v));
        if (data_ && !v.firstStep.isNone()) {
            const auto* first = data_->step(v.firstStep);
            const auto* last = data_->step(v.lastStep);
            tip += QString("<br>live from step %1 (%2) to step %3 (%4)")
                       .arg(v.firstStep.value())
                       .arg(first ? QString::fromStdString(first->name).toHtmlEscaped() : QString())
                       .arg(v.lastStep.value())
                       .arg(last ? QString::fromStdString(last->name).toHtmlEscaped() : QString());
        }
        return tip;
    }
    case Qt::TextAlignmentRole:
        return column == Bytes || column == Tiles ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                                  : QVariant();
    case Qt::DecorationRole:
        if (column == Name) {
            return categoryColor(v.alwaysLive ? record::MemoryCategory::AlwaysLiveVariable
                                              : record::MemoryCategory::NotAlwaysLiveVariable);
        }
        return {};
    default:
        return {};
    }
}

QVariant LiveVariablesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* names[ColumnCount] = {"Variable",   "Bytes", "Type", "Shape",
                                             "Live steps", "Tiles", "Kind"};
    if (role == Qt::DisplayRole) {
        return QString(names[section]);
    }
    if (role == kUnitRole) {
        return section == Bytes   ? QVariant(QStringLiteral("bytes"))
               : section == Tiles ? QVariant(QString())
                                  : QVariant();
    }
    if (role == Qt::ToolTipRole && section == Bytes) {
        return QString("Bytes over all tiles");
    }
    if (role == Qt::TextAlignmentRole) {
        return section == Bytes || section == Tiles ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                    : int(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

} // namespace tessera::views
