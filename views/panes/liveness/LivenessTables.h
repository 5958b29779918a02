#pragma once
// The tabs under the Liveness plot, as PopVision's: the variables live at the
// selected step and the always-live variables, each grouped by debug-name
// hierarchy (group rows sum their bytes) or flat, one toggle away; the
// selected step's vertices per codelet and its cycles per tile (max, mean,
// min of compute, exchange and sync, with each codelet's cycle estimate);
// and several steps side by side with what became live or dead between
// them. Each table has a filter box (where it lists variables) and sorts by
// any column.
#include "views/models/LiveVariablesModel.h"
#include "views/models/LiveVariablesTreeModel.h"
#include "views/models/StepComparisonModel.h"
#include "views/panes/liveness/StepCyclesModel.h"
#include "views/panes/liveness/StepVerticesModel.h"

#include <QTabWidget>

#include <memory>

class QAbstractItemView;
class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTreeView;

namespace tessera::views {

// What changed between two compared steps, as HTML: "+2 variables (1.0 KiB)
// became live, −1 variable (512 B) became dead; net +512 B". A side with no
// variables is left out (never "−0 (0 B) became dead").
QString liveChangeText(std::uint64_t born, std::uint64_t bornBytes, std::uint64_t died,
                       std::uint64_t diedBytes, std::uint64_t firstBytes, std::uint64_t lastBytes);

class LivenessTables : public QTabWidget {
    Q_OBJECT

public:
    enum Tab { LiveTab, AlwaysLiveTab, VerticesTab, CyclesTab, CompareTab };

    explicit LivenessTables(QWidget* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> reportData,
                   std::shared_ptr<const VariableLookup> lookup);
    // The variables live at `step` (from ReportSource::liveVariables); `stepBytes`
    // is the plot's not-always-live total at that step (negative: unknown);
    // `tiles` its per-tile arrays (null: they cannot be read).
    void showStep(record::StepId step, const std::vector<record::VariableId>& live,
                  double stepBytes, const reports::StepTiles* tiles);
    void clearStep();
    void showComparison(const std::vector<record::StepId>& steps,
                        const std::vector<std::vector<record::VariableId>>& live);
    void selectVariable(record::VariableId id); // none(): clears
    // Variables grouped by debug-name hierarchy (the default) or flat.
    void setGrouped(bool grouped);
    bool isGrouped() const { return grouped_; }

    LiveVariablesModel* liveModel() const { return live_.flat; }
    LiveVariablesModel* alwaysLiveModel() const { return always_.flat; }
    LiveVariablesTreeModel* liveTreeModel() const { return live_.tree; }
    LiveVariablesTreeModel* alwaysLiveTreeModel() const { return always_.tree; }
    StepComparisonModel* comparisonModel() const { return comparison_; }
    StepVerticesModel* verticesModel() const { return vertices_; }
    StepCyclesModel* cyclesModel() const { return cycles_; }
    // What the tables show: sorted, filtered and grouped as the user left them.
    QAbstractItemModel* liveShown() const;
    QAbstractItemModel* alwaysLiveShown() const;
    QAbstractItemModel* comparisonShown() const;
    QAbstractItemModel* verticesShown() const;
    QAbstractItemModel* cyclesShown() const;
    QTreeView* liveView() const { return live_.view; }
    QTreeView* alwaysLiveView() const { return always_.view; }
    QTableView* comparisonView() const { return comparisonView_; }
    QLineEdit* liveFilter() const { return live_.filter; }
    QCheckBox* groupToggle() const { return live_.grouped; }
    QLabel* stepHeader() const { return live_.header; }
    QLabel* verticesHeader() const { return verticesHeader_; }
    QLabel* cyclesHeader() const { return cyclesHeader_; }
    QLabel* comparisonHeader() const { return comparisonHeader_; }

signals:
    void variableActivated(tessera::record::VariableId id);
    void addStepRequested();
    void clearComparisonRequested();
    void groupingChanged(bool grouped);

private:
    // A list of variables, flat or grouped.
    struct VariablePage {
        QLabel* header = nullptr;
        QLineEdit* filter = nullptr;
        QCheckBox* grouped = nullptr;
        QTreeView* view = nullptr;
        LiveVariablesModel* flat = nullptr;
        LiveVariablesTreeModel* tree = nullptr;
        QSortFilterProxyModel* flatProxy = nullptr;
        QSortFilterProxyModel* treeProxy = nullptr;
    };

    QWidget* makeVariablePage(VariablePage& page);
    QWidget* makeComparisonPage();
    QWidget* makeVerticesPage();
    QWidget* makeCyclesPage();
    void connectSelection(QAbstractItemView* view);
    void showVariables(VariablePage& page);
    void showVertices(record::StepId step);
    void showCycles(record::StepId step, const reports::StepTiles* tiles);

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const VariableLookup> lookup_;
    bool grouped_ = true;
    VariablePage live_;
    VariablePage always_;
    StepComparisonModel* comparison_ = nullptr;
    QSortFilterProxyModel* comparisonProxy_ = nullptr;
    QTableView* comparisonView_ = nullptr;
    QLabel* comparisonHeader_ = nullptr;
    QLineEdit* comparisonFilter_ = nullptr;
    StepVerticesModel* vertices_ = nullptr;
    QSortFilterProxyModel* verticesProxy_ = nullptr;
    QTableView* verticesView_ = nullptr;
    QLabel* verticesHeader_ = nullptr;
    StepCyclesModel* cycles_ = nullptr;
    QTableView* cyclesView_ = nullptr;
    QSortFilterProxyModel* estimatesProxy_ = nullptr;
    QTableView* estimatesView_ = nullptr;
    QLabel* cyclesHeader_ = nullptr;
};

} // namespace tessera::views
