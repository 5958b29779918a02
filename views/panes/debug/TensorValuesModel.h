#pragma once
// A tensor's values at the current pause, one row per element: its index,
// value, the tile holding it, and its value at the previous pause with the
// change (changed rows are highlighted). Empty when the tensor is not live
// at this step: its bytes may hold another variable's data then.
#include "views/panes/debug/DebugTypes.h"

#include <QAbstractTableModel>
#include <QColor>

#include <optional>

namespace tessera::views::debugger {

class TensorValuesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Index, Value, Tile, Previous, Change, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    // `previous`: the same tensor at an earlier pause (ignored when its size
    // differs or it was not live then).
    void setValues(const TensorValues& now, const std::optional<TensorValues>& previous);
    void clear();

    const TensorValues& values() const { return now_; }
    bool hasPrevious() const { return hasPrevious_; }
    bool changed(int element) const;
    int changedCount() const { return changedCount_; }

    static QColor changedColor();
    // "[2, 5]" for element 2*cols+5 of a rank-2 shape.
    static QString indexText(std::size_t flat, const std::vector<std::size_t>& shape);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    TensorValues now_;
    std::vector<double> previous_;
    bool hasPrevious_ = false;
    int changedCount_ = 0;
};

} // namespace tessera::views::debugger
