#pragma once
// A heat map of every tile: a grid of cells per IPU (IPUs side by side,
// separated), each coloured by memory used relative to the fullest tile
// (heatColor; at low occupancy a capacity scale is one flat colour) or, in
// capacity mode, by memory used / capacity, tiles
// over capacity marked in the capacity colour, the selected tile outlined,
// and, when a variable is highlighted, the tiles not holding it dimmed.
// Geometry and colours are computed on report / size changes, not in paint.
#include <QImage>
#include <QWidget>

#include <memory>
#include <unordered_map>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class TileMapWidget : public QWidget {
    Q_OBJECT

public:
    explicit TileMapWidget(QWidget* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> report);
    void setSelectedTile(int tile);
    int selectedTile() const { return selected_; }
    // The typed tile selection, each outlined (ascending tiles); empty clears.
    void setSelectedTiles(std::vector<int> tiles);
    const std::vector<int>& selectedTiles() const { return selectedTiles_; }
    // Tiles holding the highlighted variable (tile, bytes); empty clears.
    void setHighlight(const QString& name,
                      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& tiles);
    // Colour by share of the fullest tile (the default) or of the capacity.
    void setScaleToFullest(bool scale);
    bool scalesToFullest() const { return scaleToFullest_; }

    QRect cellRect(int tile) const; // empty when not laid out
    int tileAt(const QPoint& pos) const;
    QColor cellColor(int tile) const; // the fill of a tile's cell (without dimming)
    int columnsPerIpu() const { return columns_; }
    // Where each legend item is drawn (ramp, over capacity, highlight).
    std::vector<QRect> legendRects() const;

    QSize sizeHint() const override { return {360, 300}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

signals:
    void tileClicked(int tile);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void relayout();
    void renderCells();
    // The legend: the heat ramp with its two ends, the over-capacity swatch
    // and the highlighted variable, each kept whole, wrapped onto as many
    // lines as the width needs.
    struct LegendItem {
        QString text;
        int width = 0;
        QPoint origin; // top left, set by layOutLegend
        int ramp = 0;  // the heat ramp's width (the first item)
    };
    std::vector<LegendItem> layOutLegend() const;
    QString legendHighText() const;
    int legendHeight() const;

    std::shared_ptr<const ReportData> data_;
    int selected_ = -1;
    std::vector<int> selectedTiles_;
    bool scaleToFullest_ = true;
    std::uint64_t fullestBytes_ = 0;
    QString highlightName_;
    std::unordered_map<std::uint32_t, std::uint64_t> highlight_;
    std::vector<QColor> colors_; // per tile
    std::vector<QRect> cells_;   // per tile
    int columns_ = 0;
    int cellSize_ = 0;
    QImage image_; // the cells, rendered once per layout / report
};

} // namespace tessera::views
