#pragma once
// The BSP timeline: x = cycles of the run (shared Viewport), rows = all
// tiles, then tile groups or single tiles. Paints only from the last frame
// the fetcher delivered (never queries while painting) and asks for a new
// frame when the view needs another range, level or tile rows.
#include "views/panes/execution/RowLayout.h"
#include "views/panes/execution/TimeInteraction.h"
#include "views/panes/execution/TimelineFrame.h"
#include "views/panes/execution/TimelineRenderer.h"

#include <QImage>
#include <QPixmap>
#include <QWidget>

class QScrollBar;

#include <memory>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {
using reports::ReportData;
}

namespace tessera::views::execution {

class Viewport;
struct StepMatches;

inline constexpr int kGutterPx = 132;   // row labels, left of the plot; the flame view shares it
inline constexpr int kMarkerLanePx = 7; // marks the selected step's executions

class TimelineWidget : public QWidget {
    Q_OBJECT

public:
    explicit TimelineWidget(Viewport* viewport, QWidget* parent = nullptr);

    void setReportData(std::shared_ptr<const ReportData> report, std::uint32_t run);
    void setFrame(std::shared_ptr<const TimelineFrame> frame);
    // Why the timeline cannot be read (a damaged report), shown in the plot
    // until the next frame arrives; empty: nothing wrong.
    void setProblem(const QString& problem);
    const TimelineFrame* frame() const { return frame_.get(); }
    void setSelectedStep(record::StepId programStep); // highlights its executions; none(): none
    void setSelectedTile(int tile); // highlights its row (or its group's), scrolled into view
    int selectedTile() const { return selectedTile_; }
    // A search's executions stay lit and marked, the rest is dimmed; null: no search.
    void setSearch(std::shared_ptr<const StepMatches> matches);
    // Tile rows that do not all fit scroll vertically: the first shown.
    void setRowScroll(std::uint32_t scroll);
    std::uint32_t rowScroll() const { return layout_.scroll; }
    QScrollBar* rowScrollBar() const { return rowBar_; }
    // The row of `tile`, or null when it is not shown.
    const TimelineRow* rowOfTile(int tile) const;

    // What the current view needs, and whether the current frame has it.
    TimelineRequest wantedRequest() const;
    bool frameSatisfies(const TimelineRequest& request) const;

    // Geometry, for tests and the pane.
    QRect plotRect() const; // the rows' area, in widget coordinates
    int xForCycle(double cycle) const;
    double cycleAtX(double x) const;
    const RowLayout& layout() const { return layout_; }
    const PaintStats& lastPaintStats() const { return stats_; }
    QString toolTipAt(const QPoint& pos) const;
    // "IPU 1 · Tiles 4–7" on multi-IPU targets; compact: "IPU 0–1 · 1440–1487".
    QString rowLabel(const TimelineRow& row, bool compact = false) const;
    // The executed step at widget x, when the frame holds its steps.
    const record::StepExecutionRecord* stepAtX(int x) const;

    QSize sizeHint() const override { return {900, 420}; }
    QSize minimumSizeHint() const override { return {300, 140}; }

signals:
    void frameWanted(const tessera::views::execution::TimelineRequest& request);
    void stepClicked(const tessera::record::StepExecutionRecord& step);
    void tileClicked(int tile); // a tile row's label

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void viewportChanged();
    void relayout();
    const TimelineRow* rowAt(int y) const;
    void paintGutter(QPainter& painter);
    void paintLabels(QPainter& painter, const QFont& font);
    void paintSelection(QPainter& painter);
    std::vector<ColumnSpan> searchLitSpans() const;
    void paintSearchMarks(QPainter& painter, const std::vector<ColumnSpan>& lit);
    void paintSelectedTile(QPainter& painter);
    void revealSelectedTile();

    Viewport* viewport_;
    std::shared_ptr<const ReportData> data_;
    std::uint32_t run_ = 0;
    std::shared_ptr<const TimelineFrame> frame_;
    QString problem_;
    RowLayout layout_;
    QImage image_;
    QPixmap gutter_;
    QString gutterKey_;
    PaintStats stats_;
    record::StepId selectedStep_ = record::StepId::none();
    std::shared_ptr<const StepMatches> search_;
    int selectedTile_ = -1;
    std::uint32_t rowScroll_ = 0;
    QScrollBar* rowBar_ = nullptr;
    int hoverX_ = -1;
    double dragRows_ = 0; // a vertical drag's rows not yet scrolled
    DragTracker drag_;
};

} // namespace tessera::views::execution
