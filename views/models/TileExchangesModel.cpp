#include "views/models/TileExchangesModel.h"

#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

#include <exception>

namespace tessera::views {

TileExchangesModel::TileExchangesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void TileExchangesModel::setReport(std::shared_ptr<const ReportData> data, StepTilesFetch fetch) {
    beginResetModel();
    data_ = std::move(data);
    fetch_ = std::move(fetch);
    tiles_.clear();
    rows_.clear();
    error_.clear();
    endResetModel();
}

void TileExchangesModel::setTiles(const std::vector<int>& tiles) {
    beginResetModel();
    tiles_ = tiles;
    rebuild();
    endResetModel();
}

void TileExchangesModel::rebuild() {
    rows_.clear();
    error_.clear();
    if (!data_ || !fetch_) {
        return;
    }
    for (const auto& step : data_->programSteps) {
        // Only steps that move data between tiles or with the host have bytes.
        if (step.bytesInSum == 0 && step.bytesOutSum == 0) {
            continue;
        }
        std::shared_ptr<const reports::StepTiles> arrays;
        try {
            arrays = fetch_(step.id);
        } catch (const std::exception& e) {
            if (error_.isEmpty()) {
                error_ = QString::fromStdString(e.what());
            }
            continue;
        }
        Row r{step.id, QString::fromStdString(step.name),
              QString::fromLatin1(record::programKindName(step.kind)), 0, 0};
        auto add = [&](std::size_t t) {
            r.bytesIn += t < arrays->bytesIn.size() ? arrays->bytesIn[t] : 0;
            r.bytesOut += t < arrays->bytesOut.size() ? arrays->bytesOut[t] : 0;
        };
        if (tiles_.empty()) {
            for (std::size_t t = 0; t < arrays->bytesIn.size(); ++t) {
                add(t);
            }
        } else {
            for (int t : tiles_) {
                add(static_cast<std::size_t>(t));
            }
        }
        if (r.bytesIn > 0 || r.bytesOut > 0) {
            rows_.push_back(r);
        }
    }
}

int TileExchangesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TileExchangesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TileExchangesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) {
        return {};
    }
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Step:
            return r.name;
        case Kind:
            return r.kind;
        case BytesIn:
            return formatBytes(r.bytesIn);
        default:
            return formatBytes(r.bytesOut);
        }
    case kSortRole:
        switch (index.column()) {
        case Step:
            return r.step; // program order
        case Kind:
            return r.kind;
        case BytesIn:
            return static_cast<qulonglong>(r.bytesIn);
        default:
            return static_cast<qulonglong>(r.bytesOut);
        }
    case kIdRole:
        return r.step;
    case Qt::TextAlignmentRole:
        return index.column() >= BytesIn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant TileExchangesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == kUnitRole && section >= BytesIn) {
        return QString("bytes");
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    static const char* names[] = {"Program step", "Kind", "Received", "Sent"};
    return QString(names[section]);
}

} // namespace tessera::views
