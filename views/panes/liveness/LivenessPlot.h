#pragma once
// The Liveness plot: bytes over program steps as a step curve, the
// always-live bytes as a band underneath the not-always-live bytes when
// shown, markers for the selected step and for compared steps, and a shaded
// span for a variable's live range. Click selects a step, Ctrl+click adds or
// removes a compared step; drag pans and the wheel zooms along x.
#include <qcustomplot.h>

#include <QPoint>

#include <functional>
#include <vector>

namespace tessera::views {

class LivenessPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit LivenessPlot(QWidget* parent = nullptr);

    // notAlwaysLive per x; the always-live band is drawn when alwaysLive >= 0.
    void setSeries(const std::vector<double>& notAlwaysLive, double alwaysLive,
                   const QString& caption);
    void clearSeries(const QString& message);
    // Tooltip text for x (set by the pane, which knows the step names).
    void setToolTipProvider(std::function<QString(int)> provider) {
        toolTip_ = std::move(provider);
    }

    void setSelectedX(int x);                      // -1: none
    void setComparedX(const std::vector<int>& xs); // drawn as A, B, C, ...
    void setCapacity(double bytes);                // a tile's capacity line (<= 0: none)
    void setHighlightSpan(int firstX, int lastX, const QString& label = {}); // -1: none

    bool capacityShown() const;
    int pointCount() const; // steps plotted (the graphs hold one point per step or bucket of steps
                            // in view, plus a closing one)
    double dataMax() const; // largest plotted total (not-always-live, plus always-live when shown)
    QCPGraph* notAlwaysLiveGraph() const { return nal_; }
    QCPGraph* alwaysLiveGraph() const { return al_; }
    double xToPixel(double x) const;

    void zoomBy(double factor);
    void resetView();

    static QColor comparedColor(int i);

signals:
    void stepClicked(int x, Qt::KeyboardModifiers modifiers);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override; // Left / Right: the previous / next step

private:
    int xAt(const QPoint& pos) const;
    QCPItemStraightLine* makeMarker(const QColor& color, Qt::PenStyle style, QCPItemText** label);
    void placeMarker(QCPItemStraightLine* line, QCPItemText* label, int x, const QString& text);
    void applyStyle();
    void updateVisiblePoints();

    QCPGraph* al_ = nullptr;
    QCPGraph* nal_ = nullptr;
    QCPItemStraightLine* selected_ = nullptr;
    QCPItemText* selectedLabel_ = nullptr;
    std::vector<QCPItemStraightLine*> compared_;
    std::vector<QCPItemText*> comparedLabels_;
    QCPItemStraightLine* capacity_ = nullptr;
    QCPItemText* capacityLabel_ = nullptr;
    double capacityBytes_ = -1;
    int selectedX_ = -1;
    QCPItemRect* span_ = nullptr;
    QCPItemText* spanLabel_ = nullptr;
    QCPItemText* message_ = nullptr;
    std::function<QString(int)> toolTip_;
    QPoint pressPos_;
    std::vector<double> total_; // per step: plotted top (always-live + not-always-live)
    double base_ = 0;           // always-live when stacked, else 0
    int bucketedWidth_ = -1;    // axis rect width the points were bucketed for
    int count_ = 0;
    double max_ = 0;
};

} // namespace tessera::views
