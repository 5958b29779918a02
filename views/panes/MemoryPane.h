#pragma once
// The Memory pane: memory per tile for all tiles (stacked by category,
// region or liveness, with the capacity line, gaps on or off and zoom), a
// heat map of every tile, the variables (sort, filter; selecting one shows
// where it lives) and per-tile table, and one tile's memory map with
// addresses and its blocks. Tiles typed as "0-3, 17" select several: the map
// and plot mark them and the Details (PopVision's memory tree), Vertices and
// Exchanges tabs sum over them. Follows and drives the shared Selection.
#include "engine/record/Ids.h"
#include "views/common/Pane.h"
#include "views/common/TileSelection.h"

#include <memory>

class QCheckBox;
class QToolButton;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace tessera::views {

class Card;
class MemoryDetailsModel;
class TileExchangesLoader;
class TileExchangesModel;
class TileVerticesModel;
class MemoryBlocksModel;
class MemoryMapWidget;
class TileMapWidget;
class TileMemoryModel;
class TileMemoryPlot;
class VariablesFilterModel;
class VariablesModel;

class MemoryPane : public Pane {
    Q_OBJECT

public:
    explicit MemoryPane(QWidget* parent = nullptr);
    ~MemoryPane() override;

    QString paneName() const override { return "memory"; }
    QString title() const override { return "Memory"; }
    void setReport(std::shared_ptr<const ReportData> data,
                   std::shared_ptr<ReportSource> source) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    // Selects tiles as if typed in the pane's tile field ("0-3, 17"), shown
    // there in the pane's own form; the parser's error when the text names no
    // valid tiles (the selection is kept).
    QString selectTiles(const QString& text);

    // The parts, for tests and the main window.
    TileMemoryPlot* plot() const { return plot_; }
    TileMapWidget* tileMap() const { return tileMap_; }
    QToolButton* capacityScaleButton() const { return scaleCapacity_; }
    QToolButton* fullestScaleButton() const { return scaleFullest_; }
    QLineEdit* tileSelectionEdit() const { return tileSelection_; }
    QLabel* tileSelectionError() const { return selectionError_; }
    const std::vector<TileRange>& selectedRanges() const { return selectedRanges_; }
    QTabWidget* tabs() const { return tabs_; }
    QTreeView* detailsView() const { return detailsView_; }
    MemoryDetailsModel* detailsModel() const { return details_; }
    TileVerticesModel* verticesModel() const { return vertices_; }
    TileExchangesModel* exchangesModel() const { return exchanges_; }
    QLabel* exchangesNote() const { return exchangesNote_; }
    bool isReadingExchanges() const; // a selection's step arrays are being read
    MemoryMapWidget* memoryMap() const { return memoryMap_; }
    QTableView* variablesView() const { return variablesView_; }
    VariablesFilterModel* variablesProxy() const { return variablesProxy_; }
    QTableView* blocksView() const { return blocksView_; }
    int shownTile() const { return shownTile_; } // the tile in the memory map
    Card* tileCard() const { return tileCard_; }

private:
    QWidget* buildToolbar();
    QWidget* buildVariablesTab();
    QWidget* buildTilesTab();
    QWidget* buildTileCard();
    QWidget* buildDetailsTab();
    QWidget* buildVerticesTab();
    QWidget* buildExchangesTab();
    void typeTiles(const QString& text); // as typed in the field
    TileSelection parseTiles(const QString& text) const;
    void useTiles(const TileSelection& parsed);
    void applyTiles(const std::vector<TileRange>& ranges);
    void refreshExchanges();
    void showExchangesNote();
    void selectTile(record::TileId tile);
    void selectVariable(record::VariableId variable);
    void showTile(record::TileId tile);
    void showVariable(record::VariableId variable);
    void updateInfo();

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<ReportSource> source_;
    Selection* selection_ = nullptr;
    int shownTile_ = -1;
    record::VariableId shownVariable_ = record::VariableId::none();
    bool blocksError_ = false; // the shown tile's blocks could not be read

    QComboBox* mode_ = nullptr;
    QCheckBox* gaps_ = nullptr;
    QCheckBox* fit_ = nullptr;
    QLabel* info_ = nullptr;
    QLineEdit* tileSelection_ = nullptr;
    QLabel* selectionError_ = nullptr;
    std::vector<TileRange> selectedRanges_;
    QTreeView* detailsView_ = nullptr;
    MemoryDetailsModel* details_ = nullptr;
    QTableView* verticesView_ = nullptr;
    TileVerticesModel* vertices_ = nullptr;
    QTableView* exchangesView_ = nullptr;
    TileExchangesModel* exchanges_ = nullptr;
    QLabel* exchangesNote_ = nullptr;
    bool exchangesStale_ = true; // the selection changed while the tab was hidden
    TileExchangesLoader* exchangesLoader_ = nullptr;
    QString exchangesWho_; // the selection the note names
    TileMemoryPlot* plot_ = nullptr;
    Card* mapCard_ = nullptr;
    TileMapWidget* tileMap_ = nullptr;
    QToolButton* scaleFullest_ = nullptr;
    QToolButton* scaleCapacity_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QComboBox* kindFilter_ = nullptr;
    QTableView* variablesView_ = nullptr;
    VariablesModel* variables_ = nullptr;
    VariablesFilterModel* variablesProxy_ = nullptr;
    QTableView* tilesView_ = nullptr;
    TileMemoryModel* tiles_ = nullptr;
    QSortFilterProxyModel* tilesProxy_ = nullptr;
    Card* tileCard_ = nullptr;
    MemoryMapWidget* memoryMap_ = nullptr;
    QTableView* blocksView_ = nullptr;
    MemoryBlocksModel* blocks_ = nullptr;
};

} // namespace tessera::views
