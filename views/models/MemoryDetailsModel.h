#pragma once
// The Memory pane's Details tree, as PopVision's: memory including gaps (by
// region, overflowed, gaps), excluding gaps (by category, by data type split
// into not overlapped / overlapped, by liveness), one value column per
// selected tile, or one summed column when none ("All tiles") or more than
// kMaxTileColumns are selected. DisplayRole is "1,234 B"; kSortRole the raw
// bytes; rows that only group others have no value.
#include "reports/TileOverlap.h"

#include <QAbstractItemModel>

#include <memory>
#include <optional>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class MemoryDetailsModel : public QAbstractItemModel {
    Q_OBJECT

public:
    static constexpr int kMaxTileColumns = 8;

    explicit MemoryDetailsModel(QObject* parent = nullptr);

    // `tiles`: the selected tiles (ascending); empty means all tiles.
    // `overlap`: the report's notAlwaysLiveOverlap(), or nullopt when it
    // could not be read (the overlap rows then say "n/a").
    void setReport(std::shared_ptr<const ReportData> data,
                   std::optional<std::vector<reports::TileOverlap>> overlap);
    void setTiles(std::vector<int> tiles);
    const std::vector<int>& tiles() const { return tiles_; }

    // The row of a label path ({"Memory excluding gaps", "By category"}), for tests.
    QModelIndex find(const QStringList& path) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node {
        QString label;
        QString tip;
        int parent = -1;
        std::vector<int> children;
        std::vector<std::optional<std::uint64_t>> values; // per value column
    };
    void rebuild();
    int add(int parent, const QString& label, const QString& tip = {});
    std::vector<std::vector<int>> columnTiles() const;

    std::shared_ptr<const ReportData> data_;
    std::optional<std::vector<reports::TileOverlap>> overlap_; // indexed by tile
    std::vector<int> tiles_;
    std::vector<std::vector<int>> columns_; // the tiles each value column sums
    std::vector<Node> nodes_;               // nodes_[0] is the invisible root
};

} // namespace tessera::views
