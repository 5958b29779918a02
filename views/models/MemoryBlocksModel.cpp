#include "views/models/MemoryBlocksModel.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

namespace tessera::views {

using record::MemoryCategory;

QString categoryName(const ReportData& data, MemoryCategory category) {
    for (const auto& c : data.categories) {
        if (c.id == static_cast<std::uint32_t>(category)) {
            return QString::fromStdString(c.name);
        }
    }
    return record::memoryCategoryName(category);
}

QString blockOwnerName(const ReportData& data, const record::MemoryBlockRecord& block) {
    const record::BlockOwner owner = block.owner();
    switch (owner.kind()) {
    case record::OwnerKind::Variable: {
        const record::VariableId id = owner.variable();
        if (const auto* v = data.variable(id)) {
            return QString::fromStdString(v->name);
        }
        return QString("variable %1").arg(id.value());
    }
    case record::OwnerKind::Codelet: {
        const record::CodeletId id = owner.codelet();
        for (const auto& c : data.codelets) {
            if (c.id == id) {
                return QString::fromStdString(c.name);
            }
        }
        return QString("codelet %1").arg(id.value());
    }
    case record::OwnerKind::Step: {
        const record::StepId id = owner.step();
        if (const auto* s = data.step(id); s && !s->name.empty()) {
            return QString("step %1 (%2)").arg(id.value()).arg(QString::fromStdString(s->name));
        }
        return QString("step %1").arg(id.value());
    }
    case record::OwnerKind::Vertex:
        return QString("vertex %1").arg(owner.vertex().value());
    case record::OwnerKind::None:
        break;
    }
    return categoryName(data, block.category);
}

QString blockLiveRange(const ReportData& data, const record::MemoryBlockRecord& block) {
    const record::BlockOwner owner = block.owner();
    if (block.category != MemoryCategory::NotAlwaysLiveVariable || owner.isNone()) {
        return "always";
    }
    const auto* v = data.variable(owner.variable());
    if (!v || v->firstStep.isNone()) {
        return "always";
    }
    return v->firstStep == v->lastStep
               ? QString("step %1").arg(v->firstStep.value())
               : QString("steps %1–%2").arg(v->firstStep.value()).arg(v->lastStep.value());
}

MemoryBlocksModel::MemoryBlocksModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void MemoryBlocksModel::setLayout(std::shared_ptr<const ReportData> data, TileMemoryLayout layout) {
    beginResetModel();
    data_ = std::move(data);
    layout_ = std::move(layout);
    endResetModel();
}

void MemoryBlocksModel::clear() {
    setLayout(nullptr, {});
}

int MemoryBlocksModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : static_cast<int>(layout_.blocks.size());
}

int MemoryBlocksModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryBlocksModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const PlacedBlock& placed = layout_.blocks[static_cast<std::size_t>(index.row())];
    const auto& b = placed.block;
    const int column = index.column();
    if (role == Qt::DisplayRole || role == kSortRole) {
        const bool raw = role == kSortRole;
        switch (column) {
        case Address:
            return raw ? QVariant::fromValue<qulonglong>(b.address)
                       : QVariant(formatAddress(b.address));
        case End:
            return raw ? QVariant::fromValue<qulonglong>(b.end())
                       : QVariant(formatAddress(b.end()));
        case Size:
            return raw ? QVariant::fromValue<qulonglong>(b.bytes) : QVariant(formatBytes(b.bytes));
        case Category:
            return categoryName(*data_, b.category);
        case Owner:
            return blockOwnerName(*data_, b);
        case LiveRange:
            return blockLiveRange(*data_, b);
        case SharedWith:
            return placed.sharers;
        default:
            return {};
        }
    }
    switch (role) {
    case kIdRole:
        return index.row();
    case Qt::DecorationRole:
        return column == Category ? QVariant(categoryColor(b.category)) : QVariant();
    case Qt::TextAlignmentRole:
        return column == Size || column == SharedWith ? (Qt::AlignRight | Qt::AlignVCenter).toInt()
                                                      : (Qt::AlignLeft | Qt::AlignVCenter).toInt();
    case Qt::ToolTipRole:
        return QString("%1 – %2 (%3 bytes)\n%4: %5")
            .arg(formatAddress(b.address), formatAddress(b.end()), formatCount(b.bytes),
                 categoryName(*data_, b.category), blockOwnerName(*data_, b));
    default:
        return {};
    }
}

QVariant MemoryBlocksModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == kUnitRole) {
        return section == Size                        ? QVariant(QStringLiteral("bytes"))
               : section == Address || section == End ? QVariant(QStringLiteral("byte address"))
                                                      : QVariant();
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char* names[] = {"Address", "End",  "Size",       "Category",
                                  "Owner",   "Live", "Shares with"};
    return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

} // namespace tessera::views
