#pragma once
// The watch list: tensors the user follows across pauses, each with its
// shape, its first values (or "not live at this step"), how many tiles hold
// it and how many elements changed since the previous pause.
#include "views/panes/debug/DebugTypes.h"

#include <QAbstractTableModel>

#include <optional>

namespace tessera::views::debugger {

class WatchListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Shape, Values, Tiles, Changed, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    bool add(const QString& tensor); // false when already watched
    bool remove(const QString& tensor);
    QStringList names() const;
    // New values of a watched tensor (others are ignored).
    void update(const TensorValues& values);
    std::optional<TensorValues> current(const QString& tensor) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QString summary(const TensorValues& values, int maxValues = 6);

private:
    struct Row {
        QString name;
        std::optional<TensorValues> now;
        std::optional<TensorValues> before;
    };
    int changedCount(const Row& row) const;
    std::vector<Row> rows_;
};

} // namespace tessera::views::debugger
