#include "views/models/TileMemoryModel.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

#include <QColor>

namespace tessera::views {

TileMemoryModel::TileMemoryModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void TileMemoryModel::setReport(std::shared_ptr<const ReportData> data) {
    beginResetModel();
    data_ = std::move(data);
    endResetModel();
}

int TileMemoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : static_cast<int>(data_->tileMemory.size());
}

int TileMemoryModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return FirstCategory + (data_ ? static_cast<int>(data_->categories.size()) : 0);
}

std::uint64_t TileMemoryModel::rawValue(int row, int column) const {
    const auto& t = data_->tileMemory[static_cast<std::size_t>(row)];
    const std::uint64_t capacity = data_->target.bytesPerTile;
    switch (column) {
    case Tile:
        return t.tile.value();
    case Ipu:
        return data_->target.tilesPerIpu ? t.tile.value() / data_->target.tilesPerIpu : 0;
    case Total:
        return t.totalIncludingGaps;
    case ExcludingGaps:
        return t.totalExcludingGaps;
    case Gaps:
        return t.gapBytes;
    case AlwaysLive:
        return t.alwaysLiveBytes;
    case NotAlwaysLivePeak:
        return t.notAlwaysLivePeakBytes;
    case Free:
        return capacity > t.totalIncludingGaps ? capacity - t.totalIncludingGaps : 0;
    case Overflow:
        return t.overflowBytes;
    default: {
        if (column < FirstCategory) {
            return 0;
        }
        const auto id = data_->categories[static_cast<std::size_t>(column - FirstCategory)].id;
        return id < t.bytesByCategory.size() ? t.bytesByCategory[id] : 0;
    }
    }
}

QVariant TileMemoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !data_ || index.row() >= rowCount() ||
        index.column() >= columnCount()) {
        return {};
    }
    const int row = index.row(), column = index.column();
    const auto& t = data_->tileMemory[static_cast<std::size_t>(row)];
    const double capacity = static_cast<double>(data_->target.bytesPerTile);
    const double used = capacity > 0 ? static_cast<double>(t.totalIncludingGaps) / capacity : 0;
    switch (role) {
    case Qt::DisplayRole:
        if (column == Used) {
            return formatPercent(used);
        }
        if (column == Tile || column == Ipu) {
            return QVariant::fromValue<qulonglong>(rawValue(row, column));
        }
        return formatBytes(rawValue(row, column));
    case kSortRole:
        return column == Used ? QVariant(used)
                              : QVariant::fromValue<qulonglong>(rawValue(row, column));
    case kIdRole:
        return t.tile.value();
    case Qt::TextAlignmentRole:
        return (Qt::AlignRight | Qt::AlignVCenter).toInt();
    case Qt::ForegroundRole:
        if ((column == Overflow || column == Used) && t.overflowBytes > 0) {
            return capacityLineColor();
        }
        return {};
    case Qt::DecorationRole:
        return column == Used ? QVariant(heatColor(used)) : QVariant();
    case Qt::ToolTipRole:
        return column >= Total && column != Used
                   ? QVariant(QString("%1 bytes").arg(formatCount(rawValue(row, column))))
                   : QVariant();
    default:
        return {};
    }
}

QVariant TileMemoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (role == kUnitRole && section >= 0 && section < columnCount()) {
        return section == Tile || section == Ipu ? QString()
               : section == Used                 ? QStringLiteral("fraction of capacity")
                                                 : QStringLiteral("bytes");
    }
    if (role == Qt::DecorationRole && section >= FirstCategory && data_) {
        return categoryColor(
            data_->categories[static_cast<std::size_t>(section - FirstCategory)].id);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    static const char* names[] = {
        "Tile", "IPU",      "Total", "Without gaps", "Gaps", "Always-live", "Not-always-live peak",
        "Free", "Overflow", "Used"};
    if (section >= 0 && section < FirstCategory) {
        return QString(names[section]);
    }
    if (data_ && section < columnCount()) {
        return QString::fromStdString(
            data_->categories[static_cast<std::size_t>(section - FirstCategory)].name);
    }
    return {};
}

} // namespace tessera::views
