#include "views/panes/liveness/StepVerticesModel.h"

#include "views/common/Format.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessera::views {

StepVerticesModel::StepVerticesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void StepVerticesModel::clear() {
    beginResetModel();
    rows_.clear();
    totalVertices_ = 0;
    tilesUsed_ = 0;
    computeSet_ = reports::kNone;
    endResetModel();
}

void StepVerticesModel::setStep(const std::shared_ptr<const ReportData>& data, std::uint32_t step) {
    const auto* entry = data ? data->step(step) : nullptr;
    if (!entry) {
        clear();
        return;
    }
    beginResetModel();
    rows_.clear();
    totalVertices_ = 0;
    computeSet_ = entry->computeSet;
    std::map<record::CodeletId, Row> byCodelet;
    std::map<record::CodeletId, std::set<record::TileId>> tilesOf;
    std::set<record::TileId> anyTile;
    if (computeSet_ != reports::kNone) {
        for (const auto& v : data->vertexCounts) {
            if (v.computeSet.value() != computeSet_ || v.count == 0) {
                continue;
            }
            Row& row = byCodelet[v.codelet];
            row.vertices += v.count;
            row.stateBytes += v.stateBytes;
            tilesOf[v.codelet].insert(v.tile);
            anyTile.insert(v.tile);
            totalVertices_ += v.count;
        }
    }
    for (auto& [id, row] : byCodelet) {
        row.codelet = id;
        row.tiles = static_cast<std::uint32_t>(tilesOf[id].size());
        const auto c =
            std::find_if(data->codelets.begin(), data->codelets.end(),
                         [id = id](const record::CodeletRecord& e) { return e.id == id; });
        if (c != data->codelets.end()) {
            row.name = QString::fromStdString(c->name);
            row.codeBytes = c->codeBytes;
            row.cycleFormula = QString::fromStdString(c->cycleFormula);
        } else {
            row.name = QString("codelet %1").arg(id.value());
        }
        rows_.push_back(std::move(row));
    }
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        return a.vertices != b.vertices ? a.vertices > b.vertices : a.name < b.name;
    });
    tilesUsed_ = static_cast<std::uint32_t>(anyTile.size());
    endResetModel();
}

int StepVerticesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int StepVerticesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepVerticesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Codelet:
            return r.name;
        case Vertices:
            return formatCount(r.vertices);
        case Tiles:
            return formatCount(r.tiles);
        case StateBytes:
            return formatBytes(r.stateBytes);
        case CodeBytes:
            return formatBytes(r.codeBytes);
        case CycleEstimate:
            return r.cycleFormula.isEmpty() ? QString("—") : r.cycleFormula;
        default:
            return {};
        }
    case kSortRole:
        switch (index.column()) {
        case Vertices:
            return qulonglong(r.vertices);
        case Tiles:
            return qulonglong(r.tiles);
        case StateBytes:
            return qulonglong(r.stateBytes);
        case CodeBytes:
            return qulonglong(r.codeBytes);
        default:
            return data(index, Qt::DisplayRole);
        }
    case kIdRole:
        return r.codelet.value();
    case Qt::TextAlignmentRole:
        return index.column() >= Vertices && index.column() <= CodeBytes
                   ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                   : QVariant();
    default:
        return {};
    }
}

QVariant StepVerticesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* names[ColumnCount] = {"Codelet", "Vertices",  "Tiles",
                                             "State",   "Code size", "Cycle estimate"};
    static const char* units[ColumnCount] = {nullptr, "", "", "bytes", "bytes", nullptr};
    switch (role) {
    case Qt::DisplayRole:
        return QString(names[section]);
    case kUnitRole:
        return units[section] ? QVariant(QString(units[section])) : QVariant();
    case Qt::ToolTipRole:
        switch (section) {
        case Tiles:
            return QString("Tiles running vertices of this codelet in this step");
        case StateBytes:
            return QString("Vertex state bytes over all tiles");
        case CycleEstimate:
            return QString("Cycles per vertex as the codelet's estimator states them");
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return section >= Vertices && section <= CodeBytes ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                           : int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace tessera::views
