#pragma once
// The Memory pane's Vertices tab: per codelet, the vertices on the selected
// tiles (all tiles when none are selected) and their vertex state bytes,
// summed over every compute set. Codelets with no vertex there are left out.
// DisplayRole is formatted; kSortRole raw.
#include "engine/record/Ids.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class TileVerticesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Codelet, Vertices, StateBytes, ComputeSets, ColumnCount };

    explicit TileVerticesModel(QObject* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> data);
    void setTiles(const std::vector<int>& tiles); // ascending; empty: all tiles

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        record::CodeletId codelet;
        QString name;
        std::uint64_t vertices = 0;
        std::uint64_t stateBytes = 0;
        std::uint64_t computeSets = 0;
    };
    void rebuild();

    std::shared_ptr<const ReportData> data_;
    std::vector<int> tiles_;
    std::vector<Row> rows_;
};

} // namespace tessera::views
