#include "views/models/VariablesModel.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

namespace tessera::views {

VariableKind variableKind(const reports::VariableEntry& v) {
    if (v.isConstant) {
        return VariableKind::Constant;
    }
    if (v.isExchangeBuffer) {
        return VariableKind::ExchangeBuffer;
    }
    return v.alwaysLive ? VariableKind::AlwaysLive : VariableKind::NotAlwaysLive;
}

QString variableKindName(VariableKind kind) {
    switch (kind) {
    case VariableKind::AlwaysLive:
        return "always-live";
    case VariableKind::NotAlwaysLive:
        return "not-always-live";
    case VariableKind::Constant:
        return "constant";
    case VariableKind::ExchangeBuffer:
        return "exchange buffer";
    }
    return {};
}

namespace {

QColor kindColor(const reports::VariableEntry& v) {
    if (v.isConstant) {
        return categoryColor(record::MemoryCategory::Constant);
    }
    return categoryColor(v.alwaysLive ? record::MemoryCategory::AlwaysLiveVariable
                                      : record::MemoryCategory::NotAlwaysLiveVariable);
}

QString liveRangeText(const reports::VariableEntry& v) {
    if (v.alwaysLive || v.firstStep.isNone()) {
        return "always";
    }
    if (v.firstStep == v.lastStep) {
        return QString("step %1").arg(v.firstStep.value());
    }
    return QString("steps %1–%2").arg(v.firstStep.value()).arg(v.lastStep.value());
}

} // namespace

VariablesModel::VariablesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void VariablesModel::setReport(std::shared_ptr<const ReportData> data) {
    beginResetModel();
    data_ = std::move(data);
    endResetModel();
}

int VariablesModel::rowOfVariable(record::VariableId id) const {
    if (!data_) {
        return -1;
    }
    const auto* v = data_->variable(id);
    return v ? static_cast<int>(v - data_->variables.data()) : -1;
}

const reports::VariableEntry* VariablesModel::variableAt(int row) const {
    if (!data_ || row < 0 || row >= rowCount()) {
        return nullptr;
    }
    return &data_->variables[static_cast<std::size_t>(row)];
}

int VariablesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : static_cast<int>(data_->variables.size());
}

int VariablesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VariablesModel::display(const reports::VariableEntry& v, int column) const {
    switch (column) {
    case Name:
        return QString::fromStdString(v.name);
    case Type:
        return QString::fromStdString(v.type);
    case Shape:
        return shapeText(v.shape);
    case Elements:
        return formatCount(v.numElements);
    case Bytes:
        return formatBytes(v.totalBytes);
    case Tiles:
        return v.numTiles;
    case Kind:
        return variableKindName(variableKind(v));
    case LiveRange:
        return liveRangeText(v);
    default:
        return {};
    }
}

QVariant VariablesModel::sortValue(const reports::VariableEntry& v, int column) const {
    switch (column) {
    case Elements:
        return QVariant::fromValue<qulonglong>(v.numElements);
    case Bytes:
        return QVariant::fromValue<qulonglong>(v.totalBytes);
    case Tiles:
        return v.numTiles;
    case Kind:
        return static_cast<int>(variableKind(v));
    case LiveRange:
        return v.alwaysLive || v.firstStep.isNone() ? -1LL
                                                    : static_cast<long long>(v.firstStep.value());
    case Shape:
        return QVariant::fromValue<qulonglong>(v.shape.size() * 1'000'000'000ULL + v.numElements);
    default:
        return display(v, column);
    }
}

QVariant VariablesModel::data(const QModelIndex& index, int role) const {
    const auto* v = index.isValid() ? variableAt(index.row()) : nullptr;
    if (!v) {
        return {};
    }
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(*v, column);
    case kSortRole:
        return sortValue(*v, column);
    case kIdRole:
        return v->id.value();
    case Qt::ToolTipRole:
        if (column == Name || column == Bytes) {
            return QString("%1\n%2 %3, %4 elements, %5 bytes on %6 tile(s)")
                .arg(QString::fromStdString(v->name), QString::fromStdString(v->type),
                     shapeText(v->shape), formatCount(v->numElements), formatCount(v->totalBytes))
                .arg(v->numTiles);
        }
        return {};
    case Qt::DecorationRole:
        return column == Kind ? QVariant(kindColor(*v)) : QVariant();
    case Qt::TextAlignmentRole:
        if (column == Elements || column == Bytes || column == Tiles) {
            return (Qt::AlignRight | Qt::AlignVCenter).toInt();
        }
        return (Qt::AlignLeft | Qt::AlignVCenter).toInt();
    default:
        return {};
    }
}

QVariant VariablesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == kUnitRole) {
        return section == Bytes                          ? QVariant(QStringLiteral("bytes"))
               : section == Elements || section == Tiles ? QVariant(QString())
                                                         : QVariant();
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char* names[] = {"Name",  "Type",  "Shape", "Elements",
                                  "Bytes", "Tiles", "Kind",  "Live range"};
    return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

VariablesFilterModel::VariablesFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(kSortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void VariablesFilterModel::setNameFilter(const QString& text) {
    name_ = text.trimmed();
    invalidateFilter();
}

void VariablesFilterModel::setKindFilter(int kind) {
    kind_ = kind;
    invalidateFilter();
}

bool VariablesFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const auto* model = qobject_cast<const VariablesModel*>(sourceModel());
    const auto* v = model ? model->variableAt(sourceRow) : nullptr;
    if (!v || sourceParent.isValid()) {
        return false;
    }
    if (kind_ >= 0 && static_cast<int>(variableKind(*v)) != kind_) {
        return false;
    }
    return name_.isEmpty() || QString::fromStdString(v->name).contains(name_, Qt::CaseInsensitive);
}

} // namespace tessera::views
