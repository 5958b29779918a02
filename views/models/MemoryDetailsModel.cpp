#include "views/models/MemoryDetailsModel.h"

#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

#include <functional>

namespace tessera::views {

namespace {

using record::MemoryCategory;
using Getter = std::function<std::optional<std::uint64_t>(const reports::TileMemoryEntry&,
                                                          const reports::TileOverlap*)>;

std::uint64_t categoryBytes(const reports::TileMemoryEntry& m, MemoryCategory c) {
    const auto i = static_cast<std::size_t>(c);
    return i < m.bytesByCategory.size() ? m.bytesByCategory[i] : 0;
}

} // namespace

MemoryDetailsModel::MemoryDetailsModel(QObject* parent)
    : QAbstractItemModel(parent) {
    nodes_.push_back({});
}

void MemoryDetailsModel::setReport(std::shared_ptr<const ReportData> data,
                                   std::optional<std::vector<reports::TileOverlap>> overlap) {
    beginResetModel();
    data_ = std::move(data);
    overlap_.reset();
    tiles_.clear();
    if (data_ && overlap) {
        // Tiles the query left out have no not-always-live blocks.
        std::vector<reports::TileOverlap> byTile(data_->tileMemory.size());
        for (std::size_t t = 0; t < byTile.size(); ++t) {
            byTile[t].tile = static_cast<std::uint32_t>(t);
        }
        for (const auto& o : *overlap) {
            if (o.tile < byTile.size()) {
                byTile[o.tile] = o;
            }
        }
        overlap_ = std::move(byTile);
    }
    rebuild();
    endResetModel();
}

void MemoryDetailsModel::setTiles(std::vector<int> tiles) {
    beginResetModel();
    tiles_ = std::move(tiles);
    rebuild();
    endResetModel();
}

std::vector<std::vector<int>> MemoryDetailsModel::columnTiles() const {
    std::vector<std::vector<int>> out;
    if (!data_) {
        return out;
    }
    const int count = static_cast<int>(data_->tileMemory.size());
    std::vector<int> valid;
    for (int t : tiles_) {
        if (t >= 0 && t < count) {
            valid.push_back(t);
        }
    }
    if (valid.empty()) {
        std::vector<int> all(static_cast<std::size_t>(count));
        for (int t = 0; t < count; ++t) {
            all[static_cast<std::size_t>(t)] = t;
        }
        out.push_back(std::move(all));
    } else if (valid.size() > static_cast<std::size_t>(kMaxTileColumns)) {
        out.push_back(std::move(valid));
    } else {
        for (int t : valid) {
            out.push_back({t});
        }
    }
    return out;
}

int MemoryDetailsModel::add(int parent, const QString& label, const QString& tip) {
    const int id = static_cast<int>(nodes_.size());
    nodes_.push_back({label, tip, parent, {}, {}});
    nodes_[static_cast<std::size_t>(parent)].children.push_back(id);
    return id;
}

void MemoryDetailsModel::rebuild() {
    nodes_.assign(1, {});
    columns_ = columnTiles();
    if (!data_) {
        return;
    }
    const auto& columns = columns_;
    // Adds a row whose value in each column is the sum of `get` over the
    // column's tiles (no value when `get` has none for a tile).
    auto valued = [&](int parent, const QString& label, const Getter& get,
                      const QString& tip = {}) {
        const int id = add(parent, label, tip);
        auto& node = nodes_[static_cast<std::size_t>(id)];
        for (const auto& tiles : columns) {
            std::optional<std::uint64_t> sum = 0;
            for (int t : tiles) {
                const auto* o = overlap_ ? &(*overlap_)[static_cast<std::size_t>(t)] : nullptr;
                const auto v = get(data_->tileMemory[static_cast<std::size_t>(t)], o);
                if (!v) {
                    sum.reset();
                    break;
                }
                *sum += *v;
            }
            node.values.push_back(sum);
        }
        return id;
    };

    const int including = valued(
        0, "Memory including gaps", [](const auto& m, const auto*) { return m.totalIncludingGaps; },
        "Every byte from the memory's base to the end of the last block, alignment gaps included");
    const int regions = add(including, "By memory region",
                            "Memory including gaps, split at the target's region boundaries");
    for (std::size_t r = 0; r < data_->target.regions.size(); ++r) {
        const QString name = QString::fromStdString(data_->target.regions[r].name);
        valued(regions, name.isEmpty() ? QString("region %1").arg(r) : name,
               [r](const auto& m, const auto*) -> std::optional<std::uint64_t> {
                   return r < m.bytesByRegion.size() ? m.bytesByRegion[r] : 0;
               });
    }
    valued(
        regions, "Overflowed", [](const auto& m, const auto*) { return m.overflowBytes; },
        "Bytes placed beyond the tile's capacity (the end of the last region)");
    valued(
        including, "Gaps", [](const auto& m, const auto*) { return m.gapBytes; },
        "Alignment padding between blocks");

    const int excluding = valued(0, "Memory excluding gaps",
                                 [](const auto& m, const auto*) { return m.totalExcludingGaps; });
    const int categories = add(excluding, "By category");
    for (const auto& c : data_->categories) {
        QString name = QString::fromStdString(c.name);
        if (!name.isEmpty()) {
            name[0] = name[0].toUpper();
        }
        const std::size_t id = c.id;
        valued(categories, name, [id](const auto& m, const auto*) -> std::optional<std::uint64_t> {
            return id < m.bytesByCategory.size() ? m.bytesByCategory[id] : 0;
        });
    }

    const int types = add(excluding, "By data type",
                          "Not overlapped: bytes no other not-always-live block shares; "
                          "overlapped: not-always-live bytes at addresses other blocks share "
                          "at other times (counted once per block)");
    const int alone = add(types, "Not overlapped");
    valued(
        alone, "Variables",
        [](const auto& m, const auto* o) -> std::optional<std::uint64_t> {
            if (!o) {
                return std::nullopt;
            }
            return categoryBytes(m, MemoryCategory::AlwaysLiveVariable) + o->notOverlappedBytes;
        },
        "Always-live variables and the not-always-live bytes no other block shares");
    const std::pair<const char*, MemoryCategory> simple[] = {
        {"Constants", MemoryCategory::Constant},
        {"Control code", MemoryCategory::ControlCode},
        {"Vertex code", MemoryCategory::VertexCode},
        {"Internal exchange code", MemoryCategory::InternalExchangeCode},
        {"Host exchange code", MemoryCategory::HostExchangeCode},
        {"Vertex state", MemoryCategory::VertexInstanceState},
        {"Vector-list descriptors", MemoryCategory::VectorListDescriptor},
        {"Stack", MemoryCategory::Stack},
    };
    for (const auto& entry : simple) {
        const MemoryCategory category = entry.second;
        valued(alone, entry.first,
               [category](const auto& m, const auto*) -> std::optional<std::uint64_t> {
                   return categoryBytes(m, category);
               });
    }
    const int shared = add(types, "Overlapped");
    valued(
        shared, "Variables",
        [](const auto&, const auto* o) -> std::optional<std::uint64_t> {
            if (!o) {
                return std::nullopt;
            }
            return o->overlappedBytes;
        },
        "Not-always-live variables and exchange buffers at addresses other blocks also use");

    const int liveness = add(excluding, "By liveness");
    valued(liveness, "Always live", [](const auto& m, const auto*) { return m.alwaysLiveBytes; });
    valued(
        liveness, "Not always live (peak)",
        [](const auto& m, const auto*) { return m.notAlwaysLivePeakBytes; },
        "The shared pool's size: what the not-always-live variables take with sharing");
    valued(
        liveness, "Not always live (without sharing)",
        [](const auto& m, const auto*) { return m.notAlwaysLiveSumBytes; },
        "What the not-always-live variables would take if none shared addresses");
}

QModelIndex MemoryDetailsModel::find(const QStringList& path) const {
    QModelIndex at;
    for (const QString& label : path) {
        QModelIndex next;
        for (int r = 0; r < rowCount(at); ++r) {
            if (index(r, 0, at).data().toString() == label) {
                next = index(r, 0, at);
                break;
            }
        }
        if (!next.isValid()) {
            return {};
        }
        at = next;
    }
    return at;
}

QModelIndex MemoryDetailsModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) {
        return {};
    }
    const int p = parent.isValid() ? static_cast<int>(parent.internalId()) : 0;
    const auto& children = nodes_[static_cast<std::size_t>(p)].children;
    return createIndex(row, column, static_cast<quintptr>(children[static_cast<std::size_t>(row)]));
}

QModelIndex MemoryDetailsModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) {
        return {};
    }
    const int p = nodes_[child.internalId()].parent;
    if (p <= 0) {
        return {};
    }
    const auto& siblings =
        nodes_[static_cast<std::size_t>(nodes_[static_cast<std::size_t>(p)].parent)].children;
    const auto row = std::find(siblings.begin(), siblings.end(), p) - siblings.begin();
    return createIndex(static_cast<int>(row), 0, static_cast<quintptr>(p));
}

int MemoryDetailsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) {
        return 0;
    }
    const std::size_t p = parent.isValid() ? parent.internalId() : 0;
    return static_cast<int>(nodes_[p].children.size());
}

int MemoryDetailsModel::columnCount(const QModelIndex&) const {
    return 1 + static_cast<int>(columns_.size());
}

QVariant MemoryDetailsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const Node& node = nodes_[index.internalId()];
    if (index.column() == 0) {
        if (role == Qt::DisplayRole || role == kSortRole) {
            return node.label;
        }
        if (role == Qt::ToolTipRole && !node.tip.isEmpty()) {
            return node.tip;
        }
        return {};
    }
    const auto column = static_cast<std::size_t>(index.column() - 1);
    if (column >= node.values.size()) {
        return {}; // a grouping row
    }
    const auto& v = node.values[column];
    switch (role) {
    case Qt::DisplayRole:
        return v ? formatCount(*v) + " B" : QString("n/a");
    case kSortRole:
        return v ? QVariant(static_cast<qulonglong>(*v)) : QVariant();
    case Qt::ToolTipRole:
        return v ? formatBytes(*v)
                 : QString("not available: the report's memory blocks could not be read");
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant MemoryDetailsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == kUnitRole && section > 0) {
        return QString("bytes");
    }
    if (role == Qt::TextAlignmentRole) {
        return section > 0 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                           : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (section == 0) {
        return QString("Memory");
    }
    const auto& columns = columns_;
    const auto c = static_cast<std::size_t>(section - 1);
    if (c >= columns.size()) {
        return {};
    }
    if (tiles_.empty()) {
        return QString("All tiles");
    }
    if (columns.size() == 1 && columns[0].size() > 1) {
        return QString("%1 tiles (sum)").arg(columns[0].size());
    }
    return QString("Tile %1").arg(columns[c][0]);
}

} // namespace tessera::views
