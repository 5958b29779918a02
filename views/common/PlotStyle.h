#pragma once
// Shared look of QCustomPlot plots: colours that follow the widget palette
// (light and dark), an axis ticker for byte sizes (steps of powers of two in
// B / KiB / MiB) and one for whole numbers (tile numbers, steps).
#include <qcustomplot.h>

#include <QPalette>
#include <QString>

namespace tessera::views {

// Background, axes, grid, tick labels and legend coloured from `palette`.
void applyPlotPalette(QCustomPlot* plot, const QPalette& palette);

// "128 KiB", "1.5 MiB", "24 B": like formatBytes with at most maxDecimals
// decimals and without trailing zeros.
QString formatBytesShort(double bytes, int maxDecimals = 1);

class ByteAxisTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

class IntegerAxisTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

} // namespace tessera::views
