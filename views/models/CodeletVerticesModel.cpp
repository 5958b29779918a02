#include "views/models/CodeletVerticesModel.h"

#include "views/common/Format.h"
#include "views/models/ModelRoles.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessera::views {

namespace {

using Field = CodeletVerticesModel::Field;

bool isNumber(Field f) {
    return f != Field::Codelet && f != Field::CycleEstimate;
}

const record::CodeletRecord* findCodelet(const ReportData& data, record::CodeletId id) {
    // Codelet ids are their positions in a written report; search otherwise.
    if (id.value() < data.codelets.size() && data.codelets[id.value()].id == id) {
        return &data.codelets[id.value()];
    }
    const auto c = std::find_if(data.codelets.begin(), data.codelets.end(),
                                [id](const record::CodeletRecord& e) { return e.id == id; });
    return c == data.codelets.end() ? nullptr : &*c;
}

} // namespace

CodeletVerticesModel::CodeletVerticesModel(std::vector<ColumnSpec> columns, QObject* parent)
    : QAbstractTableModel(parent)
    , columns_(std::move(columns)) {}

void CodeletVerticesModel::fill(
    const ReportData* data, const std::function<bool(const record::VertexCountRecord&)>& counts) {
    beginResetModel();
    rows_.clear();
    totalVertices_ = 0;
    tilesUsed_ = 0;
    if (data) {
        std::map<record::CodeletId, Row> byCodelet;
        std::map<record::CodeletId, std::set<record::TileId>> tilesOf;
        std::map<record::CodeletId, std::set<record::ComputeSetId>> setsOf;
        std::set<record::TileId> anyTile;
        for (const auto& v : data->vertexCounts) {
            if (v.count == 0 || !counts(v)) {
                continue;
            }
            Row& row = byCodelet[v.codelet];
            row.vertices += v.count;
            row.stateBytes += v.stateBytes;
            tilesOf[v.codelet].insert(v.tile);
            setsOf[v.codelet].insert(v.computeSet);
            anyTile.insert(v.tile);
            totalVertices_ += v.count;
        }
        for (auto& [id, row] : byCodelet) {
            row.codelet = id;
            row.tiles = static_cast<std::uint32_t>(tilesOf[id].size());
            row.computeSets = static_cast<std::uint32_t>(setsOf[id].size());
            if (const auto* c = findCodelet(*data, id)) {
                row.name = QString::fromStdString(c->name);
                row.codeBytes = c->codeBytes;
                row.cycleFormula = QString::fromStdString(c->cycleFormula);
            } else {
                row.name = QString("codelet %1").arg(id.value());
            }
            rows_.push_back(std::move(row));
        }
        tilesUsed_ = static_cast<std::uint32_t>(anyTile.size());
    }
    // What dominates first.
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        return a.vertices != b.vertices ? a.vertices > b.vertices : a.name < b.name;
    });
    endResetModel();
}

int CodeletVerticesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CodeletVerticesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant CodeletVerticesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) {
        return {};
    }
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const Field field = columns_[static_cast<std::size_t>(index.column())].field;
    auto raw = [&]() -> std::uint64_t {
        switch (field) {
        case Field::Vertices:
            return r.vertices;
        case Field::Tiles:
            return r.tiles;
        case Field::ComputeSets:
            return r.computeSets;
        case Field::StateBytes:
            return r.stateBytes;
        case Field::CodeBytes:
            return r.codeBytes;
        default:
            return 0;
        }
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (field) {
        case Field::Codelet:
            return r.name;
        case Field::CycleEstimate:
            return r.cycleFormula.isEmpty() ? QString("—") : r.cycleFormula;
        case Field::StateBytes:
        case Field::CodeBytes:
            return formatBytes(raw());
        default:
            return formatCount(raw());
        }
    case kSortRole:
        return isNumber(field) ? QVariant(qulonglong(raw())) : data(index, Qt::DisplayRole);
    case kIdRole:
        return r.codelet.value();
    case Qt::TextAlignmentRole:
        return isNumber(field) ? int(Qt::AlignRight | Qt::AlignVCenter)
                               : int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant CodeletVerticesModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return {};
    }
    const ColumnSpec& c = columns_[static_cast<std::size_t>(section)];
    switch (role) {
    case Qt::DisplayRole:
        return QString(c.title);
    case kUnitRole:
        if (!isNumber(c.field)) {
            return {};
        }
        return c.field == Field::StateBytes || c.field == Field::CodeBytes ? QString("bytes")
                                                                           : QString();
    case Qt::ToolTipRole:
        return c.tip ? QVariant(QString(c.tip)) : QVariant();
    case Qt::TextAlignmentRole:
        return isNumber(c.field) ? int(Qt::AlignRight | Qt::AlignVCenter)
                                 : int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace tessera::views
