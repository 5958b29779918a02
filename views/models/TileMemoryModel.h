#pragma once
// Memory of every tile as a table: one row per tile with totals (with and
// without gaps), always-live and not-always-live peak bytes, free space or
// overflow, share of capacity, then one column per memory category.
// DisplayRole is formatted; kSortRole raw (what CSV export writes).
#include <QAbstractTableModel>

#include <memory>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class TileMemoryModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        Tile,
        Ipu,
        Total,
        ExcludingGaps,
        Gaps,
        AlwaysLive,
        NotAlwaysLivePeak,
        Free,
        Overflow,
        Used,
        FirstCategory // then one column per memory category
    };

    explicit TileMemoryModel(QObject* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> data);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::uint64_t rawValue(int row, int column) const;

    std::shared_ptr<const ReportData> data_;
};

} // namespace tessera::views
