#include "views/models/StepComparisonModel.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/models/ProgramKinds.h"

#include <QColor>

#include <algorithm>
#include <map>

namespace tessera::views {

StepComparisonModel::StepComparisonModel(QObject* parent)
    : QAbstractTableModel(parent) {}

QString StepComparisonModel::changeText(Change change) {
    switch (change) {
    case Change::Born:
        return "became live";
    case Change::Died:
        return "became dead";
    case Change::Transient:
        return "live only between";
    case Change::Both:
        return "live at both";
    }
    return {};
}

void StepComparisonModel::clear() {
    beginResetModel();
    data_.reset();
    steps_.clear();
    rows_.clear();
    totals_ = {};
    endResetModel();
}

void StepComparisonModel::setComparison(std::shared_ptr<const ReportData> data,
                                        std::shared_ptr<const VariableLookup> lookup,
                                        const std::vector<record::StepId>& steps,
                                        const std::vector<std::vector<record::VariableId>>& live) {
    beginResetModel();
    data_ = std::move(data);
    steps_ = steps;
    rows_.clear();
    totals_ = {};
    totals_.bytesAt.assign(steps.size(), 0);
    std::map<record::VariableId, std::size_t> rowOf;
    for (std::size_t i = 0; i < steps.size() && i < live.size() && lookup; ++i) {
        for (const auto id : live[i]) {
            const auto* v = lookup->find(id);
            if (!v) {
                continue;
            }
            auto [it, added] = rowOf.emplace(id, rows_.size());
            if (added) {
                rows_.push_back({v, std::vector<bool>(steps.size(), false), Change::Both});
            }
            if (!rows_[it->second].live[i]) {
                rows_[it->second].live[i] = true;
                totals_.bytesAt[i] += v->totalBytes;
            }
        }
    }
    for (Row& r : rows_) {
        const bool first = !r.live.empty() && r.live.front();
        const bool last = !r.live.empty() && r.live.back();
        r.change = first && last ? Change::Both
                   : last        ? Change::Born
                   : first       ? Change::Died
                                 : Change::Transient;
        if (r.change == Change::Born) {
            ++totals_.born;
            totals_.bornBytes += r.variable->totalBytes;
        } else if (r.change == Change::Died) {
            ++totals_.died;
            totals_.diedBytes += r.variable->totalBytes;
        }
    }
    // Changes first (born, died, transient), then by size.
    auto rank = [](Change c) {
        return c == Change::Born ? 0 : c == Change::Died ? 1 : c == Change::Transient ? 2 : 3;
    };
    std::stable_sort(rows_.begin(), rows_.end(), [&](const Row& a, const Row& b) {
        if (rank(a.change) != rank(b.change)) {
            return rank(a.change) < rank(b.change);
        }
        if (a.variable->totalBytes != b.variable->totalBytes) {
            return a.variable->totalBytes > b.variable->totalBytes;
        }
        return a.variable->name < b.variable->name;
    });
    endResetModel();
}

int StepComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int StepComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || steps_.empty() ? 0 : changeColumn() + 1;
}

QVariant StepComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) {
        return {};
    }
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    const bool isStep = column >= 2 && column < changeColumn();
    const bool liveHere = isStep && r.live[static_cast<std::size_t>(column - 2)];
    switch (role) {
    case Qt::DisplayRole:
        if (column == 0) {
            return QString::fromStdString(r.variable->name);
        }
        if (column == 1) {
            return formatBytes(r.variable->totalBytes);
        }
        if (isStep) {
            return liveHere ? QString("● live") : QString();
        }
        return changeText(r.change);
    case kSortRole:
        if (column == 1) {
            return qulonglong(r.variable->totalBytes);
        }
        if (isStep) {
            return liveHere ? 1 : 0;
        }
        if (column == changeColumn()) {
            return static_cast<int>(r.change);
        }
        return data(index, Qt::DisplayRole);
    case kIdRole:
        return r.variable->id.value();
    case Qt::BackgroundRole:
        if (liveHere) {
            QColor c = categoryColor(record::MemoryCategory::NotAlwaysLiveVariable);
            c.setAlpha(60);
            return c;
        }
        if (column == changeColumn() && (r.change == Change::Born || r.change == Change::Died)) {
            return divergingColor(r.change == Change::Born ? 0.35 : -0.35);
        }
        return {};
    case Qt::ForegroundRole:
        if (column == changeColumn() && (r.change == Change::Born || r.change == Change::Died)) {
            return QColor(Qt::black);
        }
        return {};
    case Qt::TextAlignmentRole:
        return column == 1 ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
               : isStep    ? QVariant(int(Qt::AlignCenter))
                           : QVariant();
    case Qt::ToolTipRole:
        return QString("%1: %2, live steps %3")
            .arg(QString::fromStdString(r.variable->name).toHtmlEscaped(),
                 formatBytes(r.variable->totalBytes), variableLiveSteps(*r.variable));
    default:
        return {};
    }
}

QVariant StepComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return {};
    }
    const bool isStep = section >= 2 && section < changeColumn();
    const record::StepId step =
        isStep ? steps_[static_cast<std::size_t>(section - 2)] : record::StepId::none();
    const auto* entry = isStep && data_ ? data_->step(step) : nullptr;
    if (role == kUnitRole) {
        return section == 1 ? QVariant(QStringLiteral("bytes")) : QVariant();
    }
    if (role == Qt::DisplayRole) {
        if (section == 0) {
            return QString("Variable");
        }
        if (section == 1) {
            return QString("Bytes");
        }
        if (isStep) {
            return QString("Step %1\n%2")
                .arg(step.value())
                .arg(formatBytes(totals_.bytesAt[static_cast<std::size_t>(section - 2)]));
        }
        return QString("Change %1 → %2").arg(steps_.front().value()).arg(steps_.back().value());
    }
    if (role == Qt::ToolTipRole && isStep) {
        return QString("Step %1: %2 %3 — live variables total %4")
            .arg(step.value())
            .arg(entry ? programKindText(entry->kind) : QString(),
                 entry ? QString::fromStdString(entry->name).toHtmlEscaped() : QString(),
                 formatBytes(totals_.bytesAt[static_cast<std::size_t>(section - 2)]));
    }
    return {};
}

} // namespace tessera::views
