#include "views/models/ExecutedStepsModel.h"

#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"
#include "views/models/ProgramKinds.h"

namespace tessera::views {

void ExecutedStepsModel::setSteps(std::shared_ptr<const ReportData> data,
                                  std::vector<record::StepExecutionRecord> steps,
                                  std::uint64_t origin) {
    beginResetModel();
    data_ = std::move(data);
    steps_ = std::move(steps);
    origin_ = origin;
    endResetModel();
}

int ExecutedStepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(steps_.size());
}

int ExecutedStepsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExecutedStepsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const record::StepExecutionRecord& e = steps_[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole) {
        const bool text = index.column() == Name || index.column() == Kind;
        return QVariant::fromValue(Qt::Alignment(text ? Qt::AlignLeft | Qt::AlignVCenter
                                                      : Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role == kIdRole) {
        return QVariant::fromValue(e.programStep.value());
    }
    if (role != Qt::DisplayRole && role != kSortRole) {
        return {};
    }
    const reports::ProgramStepEntry* s = data_ ? data_->step(e.programStep) : nullptr;
    switch (static_cast<Column>(index.column())) {
    case Sequence:
        return QVariant::fromValue(e.sequence);
    case Step:
        return QVariant::fromValue(e.programStep.value());
    case Name:
        if (!s) {
            return QString();
        }
        return QString::fromStdString(!s->name.empty() || s->computeSet.isNone()
                                          ? s->name
                                          : data_->computeSetName(s->computeSet));
    case Kind:
        return s ? programKindText(s->kind) : QString();
    case Start:
        return QVariant::fromValue(e.startCycle >= origin_ ? e.startCycle - origin_ : 0);
    case Cycles:
        return QVariant::fromValue(e.cycles);
    case Sync:
        return s ? QVariant::fromValue(s->syncCycles) : QVariant();
    case Exchange:
        return s ? QVariant::fromValue(s->exchangePhaseCycles) : QVariant();
    case Compute:
        return s ? QVariant::fromValue(s->computePhaseCycles) : QVariant();
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ExecutedStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == kUnitRole) {
        return section == Sequence || section == Step      ? QVariant(QString())
               : section >= Start && section < ColumnCount ? QVariant(QStringLiteral("cycles"))
                                                           : QVariant();
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char* names[] = {"sequence",    "program step",    "name",
                                  "kind",        "start cycle",     "cycles",
                                  "sync cycles", "exchange cycles", "compute cycles"};
    return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

} // namespace tessera::views
