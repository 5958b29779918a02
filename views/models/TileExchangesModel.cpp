#include "views/models/TileExchangesModel.h"

#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"
#include "views/models/ProgramKinds.h"

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
    setRows(data_ && fetch_ ? computeRows(*data_, fetch_, tiles) : Rows{}, tiles);
}

void TileExchangesModel::setRows(Rows rows, std::vector<int> tiles) {
    beginResetModel();
    tiles_ = std::move(tiles);
    rows_ = std::move(rows.rows);
    error_ = std::move(rows.error);
    endResetModel();
}

TileExchangesModel::Rows TileExchangesModel::computeRows(const ReportData& data,
                                                         const StepTilesFetch& fetch,
                                                         const std::vector<int>& tiles,
                                                         const std::atomic<bool>* cancel) {
    Rows out;
    for (const auto& step : data.programSteps) {
        // Only steps that move data between tiles or with the host have bytes.
        if (step.bytesInSum == 0 && step.bytesOutSum == 0) {
            continue;
        }
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            return out;
        }
        Row r{step.id, QString::fromStdString(step.name), step.kind, 0, 0};
        if (tiles.empty()) {
            r.bytesIn = step.bytesInSum; // written with the arrays, from them
            r.bytesOut = step.bytesOutSum;
            out.rows.push_back(std::move(r));
            continue;
        }
        std::shared_ptr<const reports::StepTiles> arrays;
        try {
            arrays = fetch(step.id);
        } catch (const std::exception& e) {
            if (out.error.isEmpty()) {
                out.error = QString::fromStdString(e.what());
            }
            continue;
        }
        for (int t : tiles) {
            const auto i = static_cast<std::size_t>(t);
            r.bytesIn += i < arrays->bytesIn.size() ? arrays->bytesIn[i] : 0;
            r.bytesOut += i < arrays->bytesOut.size() ? arrays->bytesOut[i] : 0;
        }
        if (r.bytesIn > 0 || r.bytesOut > 0) {
            out.rows.push_back(std::move(r));
        }
    }
    return out;
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
            return programKindText(r.kind);
        case BytesIn:
            return formatBytes(r.bytesIn);
        default:
            return formatBytes(r.bytesOut);
        }
    case kSortRole:
        switch (index.column()) {
        case Step:
            return r.step.value(); // program order
        case Kind:
            return static_cast<int>(r.kind);
        case BytesIn:
            return static_cast<qulonglong>(r.bytesIn);
        default:
            return static_cast<qulonglong>(r.bytesOut);
        }
    case kIdRole:
        return r.step.value();
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
