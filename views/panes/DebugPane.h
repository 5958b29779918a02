#pragma once
// The Debugger pane: runs a workload (built in, or from a plugin) in the
// engine's debugger on a worker thread. Shows the program tree with
// breakpoint check boxes and the step about to run highlighted, a tensor
// inspector (values table with owning tile and change since the previous
// pause, a heatmap by value or by tile, "not live at this step" when the
// tensor's memory is not its own), a watch list, and the run so far. At every
// pause it selects the current step (so Execution and Liveness highlight it)
// and offers a report of the run so far (Pane::reportProduced) for the other panes.
// It needs no open report.
#include "views/common/Pane.h"
#include "views/panes/debug/DebugTypes.h"

#include <QPointer>
#include <QTemporaryDir>

#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QScrollArea;
class QTableView;
class QTabWidget;
class QTreeView;

namespace tessera::views {

namespace debugger {
class BreakpointTreeModel;
class DebugController;
class HeatmapWidget;
class RunControls;
class TensorValuesModel;
class WatchListModel;
} // namespace debugger

class DebugPane : public Pane {
    Q_OBJECT

public:
    explicit DebugPane(QWidget* parent = nullptr);
    ~DebugPane() override;

    QString paneName() const override { return QStringLiteral("debug"); }
    QString title() const override { return tr("Debugger"); }
    void setReport(std::shared_ptr<const ReportData> data,
                   std::shared_ptr<ReportSource> source) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    bool isReady() const override; // no command running and no values awaited
    bool worksWithoutReport() const override { return true; }

    // Starts a session (also what the Start button does with the fields).
    bool start(const debugger::DebugConfig& config);
    // Asked before a session starts (by Start, Ctrl+F5 or start()): whether
    // its reports may replace the report open in the other panes, may not
    // (the run is shown in this pane only), or the start is cancelled.
    enum class StartChoice { ShowRunInPanes, KeepOpenReport, Cancel };
    void setStartGuard(std::function<StartChoice()> guard) { startGuard_ = std::move(guard); }
    bool sessionShowsReports() const { return sessionReports_; }
    void inspect(const QString& tensor);
    QString inspected() const { return inspected_; }
    void addWatch(const QString& tensor);
    void setReportsEnabled(bool enabled) { reportsEnabled_ = enabled; }

    debugger::DebugController* controller() const { return controller_; }
    debugger::RunControls* controls() const { return controls_; }
    debugger::BreakpointTreeModel* programModel() const { return programModel_; }
    debugger::TensorValuesModel* valuesModel() const { return valuesModel_; }
    debugger::WatchListModel* watchModel() const { return watchModel_; }
    debugger::HeatmapWidget* heatmap() const { return heatmap_; }
    QComboBox* heatmapReduceBox() const { return reduceBox_; }
    QTreeView* programView() const { return programView_; }
    QTableView* valuesView() const { return valuesView_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* inspectorLabel() const { return inspectorLabel_; }
    // The inspector: its row of controls (tensor, Watch) and the whole column.
    QScrollArea* inspectorRow() const { return inspectorRow_; }
    QWidget* inspector() const { return inspector_; }

private:
    QWidget* buildInspector();
    QWidget* buildSide();
    void startFromControls();
    void onStarted(const debugger::SessionInfo& info);
    void onPaused(const debugger::PauseState& state);
    void onValues(const QVector<debugger::TensorValues>& values);
    void showInspected(const debugger::TensorValues& values);
    void requestValues();
    void updateControls();
    void showMessage(const QString& text);

    debugger::DebugController* controller_ = nullptr;
    debugger::RunControls* controls_ = nullptr;
    debugger::BreakpointTreeModel* programModel_ = nullptr;
    debugger::TensorValuesModel* valuesModel_ = nullptr;
    debugger::WatchListModel* watchModel_ = nullptr;
    debugger::HeatmapWidget* heatmap_ = nullptr;
    QTreeView* programView_ = nullptr;
    QTableView* valuesView_ = nullptr;
    QTableView* watchView_ = nullptr;
    QComboBox* tensorBox_ = nullptr;
    QComboBox* colourBox_ = nullptr;
    QComboBox* reduceBox_ = nullptr;
    QTabWidget* inspectorTabs_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* inspectorLabel_ = nullptr;
    QScrollArea* inspectorRow_ = nullptr;
    QWidget* inspector_ = nullptr;
    QLabel* runInfo_ = nullptr;
    QPointer<Selection> selection_;
    QString inspected_;
    std::optional<debugger::TensorValues> inspectedNow_;
    std::optional<debugger::TensorValues> inspectedBefore_;
    int awaitedReads_ = 0;
    bool reportsEnabled_ = true;
    bool sessionReports_ = true; // this session's reports go to the other panes
    std::function<StartChoice()> startGuard_;
    QTemporaryDir reportDir_;
};

} // namespace tessera::views
