#pragma once
// Memory per tile for every tile as stacked bars (by category, region or
// liveness), with the tile-capacity line, a legend, zoom and drag along the
// tile axis, the selected tile marked and a selected variable's bytes per
// tile overlaid. The bar data is built once per report / mode / gaps change.
#include "views/panes/memory/MemoryPlotData.h"

#include <qcustomplot.h>

#include <memory>
#include <utility>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class TileMemoryPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit TileMemoryPlot(QWidget* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> report);
    void setMode(MemoryPlotMode mode);
    MemoryPlotMode mode() const { return mode_; }
    void setShowGaps(bool show);
    bool showGaps() const { return showGaps_; }
    // Scale the memory axis to the tallest tile instead of to the capacity.
    void setFitToData(bool fit);
    bool fitToData() const { return fitToData_; }

    void setSelectedTile(int tile);
    // Shades the typed tile selection (ranges of tiles); empty clears.
    void setSelectedRanges(const std::vector<std::pair<int, int>>& ranges);
    const QList<QCPItemRect*>& selectedRangeItems() const { return rangeItems_; }
    // Overlays a variable's bytes per tile (tile, bytes); empty clears.
    void setHighlight(const QString& name,
                      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& tiles);

    void zoomIn();
    void zoomOut();
    void resetZoom();

    // For tests and export.
    const QList<QCPBars*>& stackBars() const { return bars_; }
    QCPItemStraightLine* capacityLine() const { return capacityLine_; }
    QCPBars* highlightBars() const { return highlight_; }
    QCPGraph* highlightMarkers() const { return markers_; }
    const MemoryPlotData& plotData() const { return plotData_; }
    int tileAt(const QPoint& pos) const; // -1 outside the tiles

signals:
    void tileClicked(int tile);

protected:
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuild();
    void updateYRange();
    void clampXRange(const QCPRange& range);
    void applyPalette();
    void updateMarkers();

    std::shared_ptr<const ReportData> data_;
    MemoryPlotMode mode_ = MemoryPlotMode::ByCategory;
    bool showGaps_ = true;
    bool fitToData_ = false;
    int selectedTile_ = -1;
    MemoryPlotData plotData_;
    QList<QCPBars*> bars_;
    QCPBars* highlight_ = nullptr;
    QCPGraph* markers_ = nullptr; // a triangle on top of each stack holding the variable
    QVector<double> highlightTiles_;
    QCPItemStraightLine* capacityLine_ = nullptr;
    QCPItemText* capacityLabel_ = nullptr;
    QCPItemStraightLine* selectionLine_ = nullptr;
    QCPItemText* selectionLabel_ = nullptr;
    QList<QCPItemStraightLine*> ipuLines_;
    QList<QCPItemRect*> rangeItems_;
    QPoint pressPos_;
    bool clamping_ = false; // inside clampXRange's own setRange()
};

} // namespace tessera::views
