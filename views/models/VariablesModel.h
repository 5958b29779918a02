#pragma once
// The report's variables as a table: one row per variable (in report order),
// with name, type, shape, elements, bytes, tiles, liveness kind and live
// range. DisplayRole is formatted for people; kSortRole holds raw values
// (what CSV export writes for the columns whose header names a unit).
// VariablesFilterModel sorts on kSortRole and filters by name and kind.
#include "reports/ReportTypes.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

enum class VariableKind { AlwaysLive, NotAlwaysLive, Constant, ExchangeBuffer };
VariableKind variableKind(const reports::VariableEntry& variable);
QString variableKindName(VariableKind kind); // "always-live", ...

class VariablesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Type, Shape, Elements, Bytes, Tiles, Kind, LiveRange, ColumnCount };

    explicit VariablesModel(QObject* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> data);

    // The row of variable `id`, or -1.
    int rowOfVariable(record::VariableId id) const;
    const reports::VariableEntry* variableAt(int row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant display(const reports::VariableEntry& v, int column) const;
    QVariant sortValue(const reports::VariableEntry& v, int column) const;

    std::shared_ptr<const ReportData> data_;
};

// Sorts on kSortRole; filters rows whose name contains the filter text (case
// insensitive) and, optionally, of one kind.
class VariablesFilterModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit VariablesFilterModel(QObject* parent = nullptr);

    void setNameFilter(const QString& text);
    void setKindFilter(int kind); // -1: all, else a VariableKind value

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString name_;
    int kind_ = -1;
};

} // namespace tessera::views
