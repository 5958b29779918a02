#pragma once
// A tensor drawn as a grid of cells: rank 2 as rows x columns (higher ranks
// fold the leading dimensions into rows; a vector wraps into a square-ish
// block, row by row). Cells are
// coloured by value (heat ramp, legend below) or by the tile holding them;
// lines separate cells held by different tiles, and cells that changed since
// the previous pause are outlined. Painting reads precomputed colours only.
#include "views/panes/debug/DebugTypes.h"

#include <QColor>
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

    int rows() const { return rows_; }
    int columns() const { return cols_; }
    double minimum() const { return min_; }
    double maximum() const { return max_; }
    QString message() const { return message_; }
    QRect gridRect() const;
    QRect cellRect(int row, int column) const;
    QColor cellColor(int row, int column) const; // the fill in the current mode
    static QColor tileColor(std::uint32_t tile);
    int elementAt(const QPoint& pos) const; // -1 outside the grid

    QSize sizeHint() const override { return {480, 360}; }

signals:
    void elementClicked(int element);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override; // tool tips

private:
    void paintLegend(QPainter& p, const QRect& area) const;

    TensorValues values_;
    std::vector<bool> changed_;
    std::vector<QColor> valueColors_;
    int rows_ = 0;
    int cols_ = 0;
    double min_ = 0;
    double max_ = 0;
    Mode mode_ = Mode::Values;
    QString message_;
};

} // namespace tessera::views::debugger
