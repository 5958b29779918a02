#include "views/panes/liveness/StepCyclesModel.h"

#include "views/common/Format.h"

#include <algorithm>
#include <vector>

namespace tessera::views {

namespace {

StepCyclesModel::Stats summarise(const std::vector<std::uint32_t>& perTile) {
    StepCyclesModel::Stats s;
    if (perTile.empty()) {
        return s;
    }
    s.min = perTile.front();
    double sum = 0;
    for (std::size_t t = 0; t < perTile.size(); ++t) {
        const std::uint64_t c = perTile[t];
        if (c > s.max) {
            s.max = c;
            s.maxTile = static_cast<std::uint32_t>(t);
        }
        s.min = std::min(s.min, c);
        sum += static_cast<double>(c);
    }
    s.mean = sum / static_cast<double>(perTile.size());
    return s;
}

} // namespace

StepCyclesModel::StepCyclesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void StepCyclesModel::setTiles(const reports::StepTiles& tiles) {
    beginResetModel();
    stats_[Compute] = summarise(tiles.computeCycles);
    stats_[Exchange] = summarise(tiles.exchangeCycles);
    stats_[Sync] = summarise(tiles.syncCycles);
    totalCycles_ = tiles.totalCycles;
    hasStep_ = true;
    endResetModel();
}

void StepCyclesModel::clear() {
    beginResetModel();
    stats_ = {};
    totalCycles_ = 0;
    hasStep_ = false;
    endResetModel();
}

int StepCyclesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !hasStep_ ? 0 : RowCount;
}

int StepCyclesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepCyclesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const Stats& s = stats_[static_cast<std::size_t>(index.row())];
    static const char* phases[RowCount] = {"Compute", "Exchange", "Sync"};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Phase:
            return QString(phases[index.row()]);
        case Max:
            return formatCount(s.max);
        case Mean:
            return QString::number(s.mean, 'f', 1);
        case Min:
            return formatCount(s.min);
        case MaxTile:
            return s.max == 0 ? QString("—") : QString::number(s.maxTile);
        default:
            return {};
        }
    case kSortRole:
        switch (index.column()) {
        case Max:
            return qulonglong(s.max);
        case Mean:
            return s.mean;
        case Min:
            return qulonglong(s.min);
        case MaxTile:
            return s.max == 0 ? QVariant() : QVariant(s.maxTile);
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole:
        return index.column() == Phase ? QVariant()
                                       : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant StepCyclesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* names[ColumnCount] = {"Phase", "Max", "Mean", "Min", "Tile of max"};
    switch (role) {
    case Qt::DisplayRole:
        return QString(names[section]);
    case kUnitRole:
        return section == Phase     ? QVariant()
               : section == MaxTile ? QVariant(QString())
                                    : QVariant(QStringLiteral("cycles"));
    case Qt::ToolTipRole:
        return section == Phase ? QVariant() : QVariant(QString("Over all tiles of the target"));
    case Qt::TextAlignmentRole:
        return section == Phase ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                : int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace tessera::views
