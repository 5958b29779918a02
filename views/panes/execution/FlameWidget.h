#pragma once
// The flame view under the timeline: one row per depth of the program tree
// (root on top), each node drawn over the time its executed steps ran,
// sharing the timeline's x axis. Spans narrower than a few pixels are folded
// together, so a frame costs about its pixels.
#include "views/panes/execution/TimeInteraction.h"
#include "views/panes/execution/TimelineFrame.h"
#include "views/panes/execution/TimelineRenderer.h"

#include <QHash>
#include <QWidget>

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

inline constexpr int kFlameRowPx = 19;

class FlameWidget : public QWidget {
    Q_OBJECT

public:
    explicit FlameWidget(Viewport* viewport, QWidget* parent = nullptr);

    void setReportData(std::shared_ptr<const ReportData> report, std::size_t depth);
    void setFrame(std::shared_ptr<const TimelineFrame> frame);
    void setSelectedStep(record::StepId programStep); // none(): none
    // A search: spans of other steps (and of nodes not named so) are dimmed.
    void setSearch(std::shared_ptr<const StepMatches> matches);

    const PaintStats& lastPaintStats() const { return stats_; }
    QRect plotRect() const;
    // The span under a widget position, or null.
    const FlameSpan* spanAt(const QPoint& pos) const;
    QString toolTipAt(const QPoint& pos) const;
    QColor spanColor(const FlameSpan& span) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {300, 2 * kFlameRowPx + 8}; }

signals:
    void stepClicked(tessera::record::StepId programStep, std::uint64_t startCycle);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    const QString& elided(const FlameSpan& span, int width);
    bool dimmed(const FlameSpan& span) const;

    Viewport* viewport_;
    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const TimelineFrame> frame_;
    std::size_t depth_ = 0;
    record::StepId selectedStep_ = record::StepId::none();
    std::shared_ptr<const StepMatches> search_;
    PaintStats stats_;
    QHash<QString, QString> elideCache_;
    DragTracker drag_;
};

} // namespace tessera::views::execution
