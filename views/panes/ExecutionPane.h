#pragma once
// The Execution pane: a BSP timeline of the selected run (all tiles, tile
// groups or single tiles; compute / exchange / sync), a flame view of the
// program hierarchy over the same time axis, a strip with the proportions
// and tile balance of the visible range and of the selected step, and the
// selected step's details with its cycles on every tile.
//
// Data comes from ReportSource through a worker (TimelineFetcher) that
// builds level-of-detail frames for the visible range; painting only reads
// the last frame, so a redraw costs about the pixels, not the events.
#include "reports/ReportTypes.h"
#include "views/common/BackgroundTask.h"
#include "views/common/Pane.h"

#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;

namespace tessera::views {

class ExecutedStepsModel;

namespace execution {
class FlameWidget;
class FrameBuilder;
class StepDetailsPanel;
class SummaryStrip;
class TimelineFetcher;
class TimelineWidget;
class Viewport;
struct StepMatches;
struct TimelineFrame;
} // namespace execution

class ExecutionPane : public Pane {
    Q_OBJECT

public:
    explicit ExecutionPane(QWidget* parent = nullptr);
    ~ExecutionPane() override;

    QString paneName() const override { return QStringLiteral("execution"); }
    QString title() const override { return tr("Execution"); }
    void setReport(std::shared_ptr<const ReportData> report,
                   std::shared_ptr<ReportSource> source) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    // The run shown (index into ReportData::runs); the longest by default.
    int run() const { return run_; }
    void setRun(int run);

    // True while the view waits for data (a frame being built or missing).
    bool isFetching() const;
    bool isReady() const override { return !isFetching() && !isSearching(); } // screenshots wait

    // Finding steps by name (see StepSearch.h): the field's text is searched
    // shortly after typing stops; setSearchText searches at once.
    QLineEdit* searchField() const { return searchField_; }
    QLabel* matchLabel() const { return matchLabel_; }
    void setSearchText(const QString& text);
    bool isSearching() const { return searchPending_; }
    const execution::StepMatches* searchMatches() const { return matches_.get(); }
    int currentMatch() const { return currentMatch_; } // index into searchMatches()->found
    // Select the next / previous matching execution (from the view's start
    // when none is current yet), wrapping, and bring it into view.
    void findNext();
    void findPrevious();

    // Multi-IPU reports: which IPU's tiles the rows show (-1: all IPUs).
    QComboBox* ipuChooser() const { return ipuBox_; }
    void setIpu(int ipu);
    int ipu() const { return ipu_; }
    // Steps of the visible range now (the CSV table is refreshed shortly after a change).
    void refreshStepsTable();

    execution::Viewport* viewport() const { return viewport_; }
    execution::TimelineWidget* timeline() const { return timeline_; }
    execution::FlameWidget* flame() const { return flame_; }
    execution::SummaryStrip* strip() const { return strip_; }
    execution::StepDetailsPanel* details() const { return details_; }
    execution::TimelineFetcher* fetcher() const { return fetcher_; }
    ExecutedStepsModel* stepsModel() const { return stepsModel_; }

protected:
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void frameArrived(std::shared_ptr<const execution::TimelineFrame> frame);
    void viewChanged();
    void showStep(record::StepId programStep);
    void selectExecution(record::StepId programStep, std::uint64_t startCycle);
    void revealStep(record::StepId programStep);
    void revealFound();
    void revealExecution(const record::StepExecutionRecord& e);
    void startSearch();
    void searchFinished();
    void jumpToMatch(int direction);
    void updateMatchLabel();
    void applyIpu();
    void updateStrip();
    void updateStatus();

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<ReportSource> source_;
    std::shared_ptr<execution::FrameBuilder> builder_;
    Selection* selection_ = nullptr;
    int run_ = -1;
    record::StepId shownStep_ = record::StepId::none();
    bool clicking_ = false; // the selection change comes from this pane

    execution::Viewport* viewport_ = nullptr;
    execution::TimelineWidget* timeline_ = nullptr;
    execution::FlameWidget* flame_ = nullptr;
    execution::SummaryStrip* strip_ = nullptr;
    execution::StepDetailsPanel* details_ = nullptr;
    execution::TimelineFetcher* fetcher_ = nullptr;
    ExecutedStepsModel* stepsModel_ = nullptr;
    QComboBox* runBox_ = nullptr;
    QLabel* status_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QTimer tableTimer_;
    BackgroundTask<std::optional<record::StepExecutionRecord>> findTask_;

    QLineEdit* searchField_ = nullptr;
    QLabel* matchLabel_ = nullptr;
    QTimer searchTimer_;
    BackgroundTask<std::shared_ptr<const execution::StepMatches>> searchTask_;
    std::shared_ptr<std::atomic<bool>> searchStop_; // the running search's
    std::shared_ptr<const execution::StepMatches> matches_;
    int currentMatch_ = -1;
    bool searchPending_ = false; // started, its result not taken yet
    int pendingJump_ = 0;        // +1 / -1: Enter pressed while searching

    QLabel* ipuLabel_ = nullptr;
    QComboBox* ipuBox_ = nullptr;
    int ipu_ = -1;
};

} // namespace tessera::views
