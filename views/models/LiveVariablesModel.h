#pragma once
// A list of variables (those live at a program step, or the always-live
// ones): name, bytes over all tiles, type, shape, live range, tiles, kind.
// Rows start sorted by size, largest first. Display text is formatted; raw
// values are under kSortRole and the variable id under kIdRole.
#include "views/models/ModelRoles.h"
#include "views/models/VariableLookup.h"

#include <QAbstractTableModel>

#include <memory>

namespace tessera::views {

class LiveVariablesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Bytes, Type, Shape, LiveRange, Tiles, Kind, ColumnCount };

    explicit LiveVariablesModel(QObject* parent = nullptr);

    // Unknown ids are skipped. A null `data` clears the model.
    void setVariables(std::shared_ptr<const ReportData> data,
                      std::shared_ptr<const VariableLookup> lookup,
                      const std::vector<record::VariableId>& ids);

    const std::vector<const reports::VariableEntry*>& variables() const { return rows_; }
    std::uint64_t totalBytes() const { return totalBytes_; }
    int rowOfVariable(record::VariableId id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ReportData> data_;
    std::vector<const reports::VariableEntry*> rows_;
    std::uint64_t totalBytes_ = 0;
};

} // namespace tessera::views
