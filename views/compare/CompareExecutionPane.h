#pragma once
// Compare mode's Execution: cycles per program step side by side for the
// steps that changed most (largest regression at the top), and the BSP
// timelines of both reports one over the other on a shared time axis
// (cycles from the start of each report's longest run): zooming or panning
// one moves the other.
#include "engine/record/Ids.h"
#include "views/compare/ComparePane.h"

#include <qcustomplot.h>

#include <array>

class QLabel;

namespace tessera::views {

namespace execution {
class FrameBuilder;
class TimelineFetcher;
class TimelineWidget;
class Viewport;
} // namespace execution

class CompareExecutionPane : public ComparePane {
    Q_OBJECT

public:
    explicit CompareExecutionPane(QWidget* parent = nullptr);
    ~CompareExecutionPane() override;

    QString paneName() const override { return QStringLiteral("execution"); }
    QString title() const override { return tr("Execution"); }
    void setComparison(std::shared_ptr<const CompareData> comparison) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    bool isReady() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    // Steps in the bar chart, top to bottom (indexes into ReportDiff::steps).
    const std::vector<std::size_t>& chartedSteps() const { return charted_; }
    QCustomPlot* stepsPlot() const { return plot_; }
    QCPBars* baselineBars() const { return baselineBars_; }
    QCPBars* comparisonBars() const { return comparisonBars_; }
    // 0: baseline, 1: comparison.
    execution::TimelineWidget* timeline(int side) const { return sides_[side].timeline; }
    execution::Viewport* viewport(int side) const { return sides_[side].viewport; }
    // Cycles from the side's run start at the left edge of its view.
    double visibleOffset(int side) const;
    // The selection holds baseline step ids; the comparison step matched with
    // the selected one (by identity) is highlighted in the other timeline.
    record::StepId matchedComparisonStep() const { return matchedStep_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Side {
        execution::Viewport* viewport = nullptr;
        execution::TimelineWidget* timeline = nullptr;
        execution::TimelineFetcher* fetcher = nullptr;
        std::shared_ptr<execution::FrameBuilder> builder;
        QLabel* label = nullptr;
        double runStart = 0;
        bool hasRun = false;
    };
    void setSide(int side, std::shared_ptr<const ReportData> report,
                 std::shared_ptr<ReportSource> source, double sharedLength);
    void follow(int from);
    void showStep(record::StepId baselineStep);
    void stepClicked(int side, record::StepId programStep);
    void rebuildChart();
    void applyStyle();

    std::array<Side, 2> sides_;
    bool following_ = false;
    record::StepId matchedStep_ = record::StepId::none();
    QLabel* caption_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPBars* baselineBars_ = nullptr;
    QCPBars* comparisonBars_ = nullptr;
    std::vector<std::size_t> charted_;
};

} // namespace tessera::views
