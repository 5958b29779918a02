#pragma once
// The Program pane, in three tabs: the program tree with executions, cycles,
// memory and vertices per node; the operations (OperationsView: named
// operations by layer and debug-name hierarchy, with details tabs); and the dataflow graph
// of compute sets and tensors. A details strip under the tree and the graph
// shows the selected node's figures and its compute / exchange / sync split
// (the Operations tab has its own details tabs). Follows and drives the shared Selection (step,
// compute set). The figures (ProgramStats) are computed on a worker
// (ProgramStatsLoader); the pane only draws them.
#include "engine/record/Ids.h"
#include "views/common/Pane.h"

#include <memory>

class QLabel;
class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
class QTabWidget;
class QTreeView;

namespace tessera::views {

class FillingColumn;

class DataflowView;
class OperationsModel;
class OperationsView;
class ProgramStatsLoader;
class ProgramTreeModel;
class ProportionBar;
struct ComputedProgramStats;
struct ProgramStats;

class ProgramPane : public Pane {
    Q_OBJECT

public:
    enum Tab { TreeTab, OperationsTab, GraphTab };

    explicit ProgramPane(QWidget* parent = nullptr);
    ~ProgramPane() override;

    QString paneName() const override { return "program"; }
    QString title() const override { return "Program"; }
    void setReport(std::shared_ptr<const ReportData> reportData,
                   std::shared_ptr<ReportSource> reportSource) override;
    void setSelection(Selection* selection) override;
    // False while the program's figures are computed (on a worker).
    bool isReady() const override;
    QList<ExportTarget> exportTargets() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    // The parts, for tests and the main window.
    QTabWidget* tabs() const { return tabs_; }
    QTreeView* treeView() const { return treeView_; }
    ProgramTreeModel* treeModel() const { return treeModel_; }
    QSortFilterProxyModel* treeProxy() const { return treeProxy_; }
    OperationsView* operations() const { return ops_; }
    QTreeView* operationsView() const;
    OperationsModel* operationsModel() const;
    QSortFilterProxyModel* operationsProxy() const;
    QLineEdit* operationsFilter() const;
    DataflowView* graph() const { return graph_; }
    QLabel* details() const { return details_; }
    QWidget* detailsPanel() const { return detailsPanel_; }
    std::shared_ptr<const ProgramStats> stats() const { return stats_; }
    ProgramStatsLoader* statsLoader() const { return statsLoader_; }

private:
    QWidget* buildTreeTab();
    QWidget* buildOperationsTab();
    QWidget* buildDetails();
    void treeNodeActivated(const QModelIndex& proxyIndex);
    void revealStep(record::StepId step);
    void showNodeDetails(int nodePosition);
    void statsComputed(const ComputedProgramStats& result);
    void showStats(std::shared_ptr<const ProgramStats> stats);

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const ProgramStats> stats_;
    ProgramStatsLoader* statsLoader_ = nullptr;
    Selection* selection_ = nullptr;
    bool syncing_ = false; // set while following the selection, so views do not echo it

    QTabWidget* tabs_ = nullptr;
    QLineEdit* treeFilter_ = nullptr;
    QTreeView* treeView_ = nullptr;
    FillingColumn* nameFill_ = nullptr; // the names take the width the figures leave
    ProgramTreeModel* treeModel_ = nullptr;
    QSortFilterProxyModel* treeProxy_ = nullptr;
    OperationsView* ops_ = nullptr;
    DataflowView* graph_ = nullptr;
    QWidget* detailsPanel_ = nullptr; // the strip under the tree and the graph
    QLabel* details_ = nullptr;
    ProportionBar* split_ = nullptr;
};

} // namespace tessera::views
