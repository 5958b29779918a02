#pragma once
// A tile map of differences: one cell per tile, coloured on the diverging
// ramp by comparison − baseline (blue: smaller, red: larger, white: the
// same), scaled to the largest change; a legend underneath. Colours and
// geometry are computed on data / size changes, not in paint.
#include <QWidget>

#include <cstdint>
#include <vector>

namespace tessera::views {

class DeltaTileMap : public QWidget {
    Q_OBJECT

public:
    explicit DeltaTileMap(QWidget* parent = nullptr);

    // Per tile, the change in bytes; empty clears.
    void setDeltas(std::vector<std::int64_t> deltas);
    void setSelectedTile(int tile);

    std::int64_t scale() const { return scale_; } // the largest |delta|
    QRect cellRect(int tile) const;               // empty when not laid out
    QColor cellColor(int tile) const;
    int tileAt(const QPoint& pos) const;

    QSize sizeHint() const override { return {320, 260}; }
    QSize minimumSizeHint() const override { return {140, 120}; }

signals:
    void tileClicked(int tile);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void relayout();

    std::vector<std::int64_t> deltas_;
    std::vector<QColor> colors_;
    std::vector<QRect> cells_;
    std::int64_t scale_ = 0;
    int selected_ = -1;
};

} // namespace tessera::views
