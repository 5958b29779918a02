#pragma once
// A tensor drawn as a grid of cells: rank 2 as rows x columns (higher ranks
// fold the leading dimensions into rows; a vector wraps into a square-ish
// block, row by row). Cells are
// coloured by value (heat ramp, legend below) or by the tile holding them.
// Where cells are several pixels wide, lines separate cells held by different
// tiles and cells that changed since the previous pause are outlined. A
// tensor with more cells than pixels is downsampled: each pixel shows the
// mean, minimum or maximum of its block of elements (the user's choice) and
// the tile holding most of them. Painting reads precomputed colours only.
#include "views/panes/debug/DebugTypes.h"
#include "views/panes/debug/HeatmapBins.h"

#include <QColor>
#include <QImage>
#include <QWidget>

namespace tessera::views::debugger {

class HeatmapWidget : public QWidget {
    Q_OBJECT

public:
    enum class Mode { Values, Tiles };

    explicit HeatmapWidget(QWidget* parent = nullptr);

    // `changed`: per element, or empty.
    void setValues(const TensorValues& values, const std::vector<bool>& changed);
    void clear(const QString& message = {});
    void setMode(Mode mode);
    Mode mode() const { return mode_; }
    // What a downsampled pixel shows of its block of elements.
    void setReduce(BinReduce reduce);
    BinReduce reduce() const { return reduce_; }

    // Cells narrower (or shorter) than this get no tile separators, lest the
    // lines cover the cells; cells smaller than this get no change outlines.
    static constexpr int kSeparatorMinCellPx = 4;
    static constexpr int kOutlineMinCellPx = 6;

    int rows() const { return rows_; }
    int columns() const { return cols_; }
    double minimum() const { return min_; }
    double maximum() const { return max_; }
    QString message() const { return message_; }
    QRect gridRect() const;
    QRect cellRect(int row, int column) const;
    QColor cellColor(int row, int column) const; // the fill in the current mode
    // Downsampled: the grid is drawn as bins() (one per pixel), not cell by cell.
    bool downsampled() const { return bins_.rows > 0; }
    const HeatmapBins& bins() const { return bins_; }
    QColor binColor(int binRow, int binColumn) const; // the fill in the current mode
    static QColor tileColor(record::TileId tile);
    int elementAt(const QPoint& pos) const; // -1 outside the grid

    QSize sizeHint() const override { return {480, 360}; }

signals:
    void elementClicked(int element);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override; // tool tips

private:
    void paintLegend(QPainter& p, const QRect& area) const;
    void paintCells(QPainter& p) const;
    void paintBins(QPainter& p) const;
    void rebin(); // after the values, the size or the reduction changed
    QColor valueColor(double v) const;

    TensorValues values_;
    std::vector<bool> changed_;
    std::vector<QColor> valueColors_;
    int rows_ = 0;
    int cols_ = 0;
    double min_ = 0;
    double max_ = 0;
    Mode mode_ = Mode::Values;
    BinReduce reduce_ = BinReduce::Mean;
    HeatmapBins bins_;    // empty unless downsampled
    QImage binImages_[2]; // by value, by tile; one pixel per bin
    QString message_;
};

} // namespace tessera::views::debugger
