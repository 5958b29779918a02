#pragma once
// The Liveness pane: not-always-live bytes over the program steps (summed
// over tiles, or of one tile on demand), with the always-live bytes as a band
// underneath when shown; the variables live at the selected step; the
// always-live variables; and several steps side by side with what became
// live or dead between them. Follows and drives the shared Selection (step,
// tile, variable).
#include "views/common/BackgroundTask.h"
#include "views/common/Pane.h"
#include "views/panes/liveness/LivenessSeries.h"

#include <atomic>
#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace tessera::views {

class LivenessPlot;
class LivenessTables;
class VariableLookup;

class LivenessPane : public Pane {
    Q_OBJECT

public:
    static constexpr std::size_t kMaxComparedSteps = 4;

    explicit LivenessPane(QWidget* parent = nullptr);
    ~LivenessPane() override;

    QString paneName() const override { return "liveness"; }
    QString title() const override { return "Liveness"; }
    void setReport(std::shared_ptr<const ReportData> reportData,
                   std::shared_ptr<ReportSource> reportSource) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    // The parts and state, for tests and the main window.
    LivenessPlot* plot() const { return plot_; }
    LivenessTables* tables() const { return tables_; }
    const LivenessSteps& steps() const { return steps_; }
    bool isLoading() const { return loadingTile_ != kNoLoad; }
    bool isReady() const override { return !isLoading(); } // headless screenshots wait
    int tile() const { return tile_; }                     // -1: all tiles
    record::StepId selectedStep() const { return step_; }
    const std::vector<record::StepId>& comparedSteps() const { return compared_; }

public slots:
    void setTile(int tile);
    void setAlwaysLiveShown(bool shown);
    void selectStep(record::StepId step);
    void setComparedSteps(const std::vector<record::StepId>& steps);
    void toggleComparedStep(record::StepId step);

private:
    static constexpr int kNoLoad = -2;
    // A curve as read (on or off the GUI thread), or why it could not be.
    struct CurveResult {
        std::vector<double> curve;
        QString error;
    };

    QWidget* buildToolbar();
    void requestCurve();
    void curveRead(int tile, CurveResult result);
    void curveLoaded();
    void showCurve();
    void showStep();
    void showComparison();
    void showVariableSpan(record::VariableId variable);
    void goToPeak();
    QString toolTipFor(int x) const;

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<ReportSource> source_;
    std::shared_ptr<const VariableLookup> lookup_;
    Selection* selection_ = nullptr;
    LivenessSteps steps_;
    std::map<int, std::vector<double>> curves_; // by tile (-1: all tiles), a few kept
    BackgroundTask<CurveResult> task_;
    std::map<int, QString> failedCurves_; // tiles whose curve cannot be read
    std::shared_ptr<std::atomic<bool>> cancel_;
    int loadingTile_ = kNoLoad;

    int tile_ = -1;
    bool showAlwaysLive_ = false;
    record::StepId step_ = record::StepId::none();
    bool selectPeakWhenRead_ = false; // a report opened with no step selected shows its peak
    record::VariableId variable_ = record::VariableId::none();
    std::vector<record::StepId> compared_;

    QCheckBox* alwaysLive_ = nullptr;
    QSpinBox* tileSpin_ = nullptr;
    QLabel* peak_ = nullptr;
    QToolButton* peakButton_ = nullptr;
    LivenessPlot* plot_ = nullptr;
    LivenessTables* tables_ = nullptr;
};

} // namespace tessera::views
