#include "views/models/TileVerticesModel.h"

#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessera::views {

TileVerticesModel::TileVerticesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void TileVerticesModel::setReport(std::shared_ptr<const ReportData> data) {
    beginResetModel();
    data_ = std::move(data);
    tiles_.clear();
    rebuild();
    endResetModel();
}

void TileVerticesModel::setTiles(const std::vector<int>& tiles) {
    beginResetModel();
    tiles_ = tiles;
    rebuild();
    endResetModel();
}

void TileVerticesModel::rebuild() {
    rows_.clear();
    if (!data_) {
        return;
    }
    std::map<record::CodeletId, Row> byCodelet;
    std::map<record::CodeletId, std::set<record::ComputeSetId>> sets;
    for (const auto& v : data_->vertexCounts) {
        if (!tiles_.empty() &&
            !std::binary_search(tiles_.begin(), tiles_.end(), static_cast<int>(v.tile.value()))) {
            continue;
        }
        Row& r = byCodelet[v.codelet];
        r.codelet = v.codelet;
        r.vertices += v.count;
        r.stateBytes += v.stateBytes;
        sets[v.codelet].insert(v.computeSet);
    }
    for (auto& [id, r] : byCodelet) {
        if (r.vertices == 0) {
            continue;
        }
        // Codelet ids count from 0: the report lists them by id.
        const std::size_t i = id.value();
        r.name = i < data_->codelets.size() && data_->codelets[i].id == id
                     ? QString::fromStdString(data_->codelets[i].name)
                     : QString("codelet %1").arg(id.value());
        r.computeSets = sets[id].size();
        rows_.push_back(r);
    }
    // Most vertices first: what dominates the selected tiles.
    std::stable_sort(rows_.begin(), rows_.end(),
                     [](const Row& a, const Row& b) { return a.vertices > b.vertices; });
}

int TileVerticesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TileVerticesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TileVerticesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) {
        return {};
    }
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const std::uint64_t raw[] = {0, r.vertices, r.stateBytes, r.computeSets};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Codelet:
            return r.name;
        case StateBytes:
            return formatBytes(r.stateBytes);
        default:
            return formatCount(raw[index.column()]);
        }
    case kSortRole:
        return index.column() == Codelet ? QVariant(r.name)
                                         : QVariant(static_cast<qulonglong>(raw[index.column()]));
    case kIdRole:
        return r.codelet.value();
    case Qt::TextAlignmentRole:
        return index.column() == Codelet ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant TileVerticesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == kUnitRole && section != Codelet) {
        return section == StateBytes ? QString("bytes") : QString();
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    static const char* names[] = {"Codelet", "Vertices", "Vertex state", "Compute sets"};
    return QString(names[section]);
}

} // namespace tessera::views
