#pragma once
// The Memory pane: memory per tile for all tiles (stacked by category,
// region or liveness, with the capacity line, gaps on or off and zoom), a
// heat map of every tile, the variables (sort, filter; selecting one shows
// where it lives) and per-tile table, and one tile's memory map with
// addresses and its blocks. Follows and drives the shared Selection.
#include "views/common/Pane.h"

#include <memory>

class QCheckBox;
class QToolButton;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace tessera::views {

class Card;
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

    // The parts, for tests and the main window.
    TileMemoryPlot* plot() const { return plot_; }
    TileMapWidget* tileMap() const { return tileMap_; }
    QToolButton* capacityScaleButton() const { return scaleCapacity_; }
    MemoryMapWidget* memoryMap() const { return memoryMap_; }
    QTableView* variablesView() const { return variablesView_; }
    VariablesFilterModel* variablesProxy() const { return variablesProxy_; }
    QTableView* blocksView() const { return blocksView_; }
    int shownTile() const { return shownTile_; } // the tile in the memory map

private:
    QWidget* buildToolbar();
    QWidget* buildVariablesTab();
    QWidget* buildTilesTab();
    QWidget* buildTileCard();
    void selectTile(int tile);
    void selectVariable(int variable);
    void showTile(int tile);
    void showVariable(int variable);
    void updateInfo();

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<ReportSource> source_;
    Selection* selection_ = nullptr;
    int shownTile_ = -1;
    int shownVariable_ = -1;
    bool blocksError_ = false; // the shown tile's blocks could not be read

    QComboBox* mode_ = nullptr;
    QCheckBox* gaps_ = nullptr;
    QCheckBox* fit_ = nullptr;
    QLabel* info_ = nullptr;
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
