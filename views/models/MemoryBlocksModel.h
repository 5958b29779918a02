#pragma once
// One tile's memory blocks as a table (address order): address, end, size,
// category, owner (variable, codelet, program step or vertex by category),
// live range and how many other blocks share its addresses.
#include "views/models/MemoryBlockLayout.h"

#include <QAbstractTableModel>

#include <memory>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

// The owner of a block for people: a variable's name, a codelet's name,
// "exchange code of step 12 (name)", "vertex 123", or the category's name.
QString blockOwnerName(const ReportData& data, const record::MemoryBlockRecord& block);
// When the block's owner is live: "always", "steps 3–7".
QString blockLiveRange(const ReportData& data, const record::MemoryBlockRecord& block);
QString categoryName(const ReportData& data, record::MemoryCategory category);

class MemoryBlocksModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Address, End, Size, Category, Owner, LiveRange, SharedWith, ColumnCount };

    explicit MemoryBlocksModel(QObject* parent = nullptr);

    // data must outlive the layout's use; layout blocks are shown as given.
    void setLayout(std::shared_ptr<const ReportData> data, TileMemoryLayout layout);
    void clear();
    const TileMemoryLayout& layout() const { return layout_; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ReportData> data_;
    TileMemoryLayout layout_;
};

} // namespace tessera::views
