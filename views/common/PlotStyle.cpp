#include "views/common/PlotStyle.h"

#include <array>
#include <cmath>

namespace tessera::views {

void applyPlotPalette(QCustomPlot* plot, const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    const QColor base = palette.color(QPalette::Base);
    QColor grid = text;
    grid.setAlpha(40);
    QColor subGrid = text;
    subGrid.setAlpha(18);
    plot->setBackground(base);
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(base);
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text, 1));
            axis->setTickPen(QPen(text, 1));
            axis->setSubTickPen(QPen(text, 1));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
            axis->grid()->setSubGridPen(QPen(subGrid, 1, Qt::DotLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    }
    if (plot->legend) {
        QColor legendBack = base;
        legendBack.setAlpha(220);
        plot->legend->setBrush(legendBack);
        plot->legend->setBorderPen(QPen(grid, 1));
        plot->legend->setTextColor(text);
    }
}

QString formatBytesShort(double bytes, int maxDecimals) {
    static const std::array<const char*, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = std::fabs(bytes);
    std::size_t u = 0;
    while (v >= 1024 && u + 1 < units.size()) {
        v /= 1024;
        ++u;
    }
    QString number = QString::number(bytes < 0 ? -v : v, 'f', u == 0 ? 0 : maxDecimals);
    if (number.contains('.')) {
        while (number.endsWith('0')) {
            number.chop(1);
        }
        if (number.endsWith('.')) {
            number.chop(1);
        }
    }
    return QString("%1 %2").arg(number, units[u]);
}

double ByteAxisTicker::getTickStep(const QCPRange& range) {
    const double raw = range.size() / std::max(1.0, static_cast<double>(tickCount()));
    if (raw <= 1) {
        return 1;
    }
    // A power of two: 1, 2, 4 ... bytes, KiB or MiB, so labels stay round.
    return std::pow(2.0, std::round(std::log2(raw)));
}

int ByteAxisTicker::getSubTickCount(double) {
    return 1;
}

QString ByteAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return formatBytesShort(tick, 3); // steps are powers of two: exact in 3 decimals
}

double IntegerAxisTicker::getTickStep(const QCPRange& range) {
    // 1, 2 or 5 times a power of ten, never below 1.
    const double raw = QCPAxisTicker::getTickStep(range);
    if (raw <= 1) {
        return 1;
    }
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / magnitude;
    return magnitude * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
}

int IntegerAxisTicker::getSubTickCount(double tickStep) {
    return tickStep < 2 ? 0 : QCPAxisTicker::getSubTickCount(tickStep);
}

QString IntegerAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return QString::number(static_cast<long long>(std::llround(tick)));
}

} // namespace tessera::views
