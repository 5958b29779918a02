#pragma once
// One tile's memory with addresses: an overview strip of the whole tile
// (capacity, regions, overflow), then the used address range as rows of
// equal size labelled with their start address. Blocks are coloured by
// category, gaps hatched, and blocks that share addresses across time
// (not-always-live variables) drawn in stacked lanes so the sharing shows.
// Tooltips name the owners at the address under the mouse.
#include "views/models/MemoryBlockLayout.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class MemoryMapWidget : public QWidget {
    Q_OBJECT

public:
    explicit MemoryMapWidget(QWidget* parent = nullptr);

    void setTileLayout(std::shared_ptr<const ReportData> report, TileMemoryLayout layout);
    void clear();
    const TileMemoryLayout& memoryLayout() const { return layout_; }
    // Outlines the blocks owned by this variable (-1: none).
    void setHighlightVariable(record::VariableId variable); // none(): none

    std::uint64_t rowBytes() const { return rowBytes_; }
    int rowCount() const { return rows_; }
    // Pieces of block i's drawing (one per row it spans), for tests.
    std::vector<QRect> blockRects(std::size_t block) const;
    // The address at a point of the detail rows, or -1.
    long long addressAt(const QPoint& pos) const;

    QSize sizeHint() const override { return {420, 320}; }
    // Short enough for 800 x 600 with the problem bar (the rows then scroll).
    QSize minimumSizeHint() const override { return {200, 110}; }

signals:
    void blockClicked(int block); // index into memoryLayout().blocks

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Piece {
        QRect rect;
        int block; // -1 for a gap
    };
    void relayout();
    std::vector<int> rowLanes(std::uint64_t rowBytes, int rows) const;
    int rowY(int row) const { return detailTop() + rowTop_[static_cast<std::size_t>(row)]; }
    int rowHeight(int row) const {
        return rowTop_[static_cast<std::size_t>(row) + 1] - rowTop_[static_cast<std::size_t>(row)];
    }
    QRect overviewRect() const;
    int labelWidth() const;
    int detailTop() const;
    QString tooltipAt(const QPoint& pos) const;

    std::shared_ptr<const ReportData> data_;
    TileMemoryLayout layout_;
    record::VariableId highlightVariable_ = record::VariableId::none();
    std::uint64_t capacity_ = 0;
    std::uint64_t rowBytes_ = 0;
    std::uint64_t spanEnd_ = 0; // the end of the last detail row
    int rows_ = 0;
    std::vector<int> rowTop_;   // rows_ + 1 offsets below detailTop(); rows with lanes are taller
    std::vector<Piece> pieces_; // detail rows, blocks and gaps
    std::vector<std::pair<QRect, int>> overview_; // overview strip, per block
};

} // namespace tessera::views
