#pragma once
// Compare mode's Memory: per tile, comparison − baseline bytes as bars
// (growth in the "worse" colour, shrinkage in the "better" one) for the
// total or one part of memory, the same difference as a tile map, the
// variables whose size or placement changed, and the per-tile table. When
// the tile counts differ, per-tile memory is not compared and the pane says
// so (ReportDiff::tilesComparable and notes).
#include "views/compare/ComparePane.h"

#include <qcustomplot.h>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace tessera::views {

class CompareFilterModel;
class CompareTableModel;
class DeltaTileMap;

class CompareMemoryPane : public ComparePane {
    Q_OBJECT

public:
    explicit CompareMemoryPane(QWidget* parent = nullptr);

    QString paneName() const override { return QStringLiteral("memory"); }
    QString title() const override { return tr("Memory"); }
    void setComparison(std::shared_ptr<const CompareData> comparison) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    // 0: total, 1: always-live, 2: not-always-live pool, 3: gaps, 4 + k: category k.
    void setMeasure(int measure);
    int measure() const { return measure_; }
    // Per tile, the plotted difference.
    const std::vector<std::int64_t>& deltas() const { return deltas_; }

    QCustomPlot* plot() const { return plot_; }
    QCPBars* growthBars() const { return growth_; }
    QCPBars* shrinkBars() const { return shrink_; }
    DeltaTileMap* tileMap() const { return map_; }
    CompareTableModel* variablesModel() const { return variables_; }
    CompareFilterModel* variablesFilter() const { return variablesFilter_; }
    CompareTableModel* tilesModel() const { return tiles_; }
    bool tilesShown() const; // false when the tile counts differ

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void applyStyle();

    int measure_ = 0;
    std::vector<std::int64_t> deltas_;
    QComboBox* measureBox_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* notComparable_ = nullptr;
    QLabel* caption_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPBars* growth_ = nullptr;
    QCPBars* shrink_ = nullptr;
    QCPItemStraightLine* selectedLine_ = nullptr;
    DeltaTileMap* map_ = nullptr;
    CompareTableModel* variables_ = nullptr;
    CompareFilterModel* variablesFilter_ = nullptr;
    QTableView* variablesView_ = nullptr;
    QCheckBox* changedOnly_ = nullptr;
    CompareTableModel* tiles_ = nullptr;
};

} // namespace tessera::views
