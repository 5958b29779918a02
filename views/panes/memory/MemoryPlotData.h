#pragma once
// The stacked series of the per-tile memory plot, computed once per report
// and mode (not per paint): one value per tile per series, series bottom to
// top. Series that are zero on every tile are left out.
#include <QColor>
#include <QString>
#include <QVector>

#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

enum class MemoryPlotMode { ByCategory, ByRegion, ByLiveness };

struct MemoryPlotSeries {
    QString name;
    QColor color;
    QVector<double> values; // one per tile
};

struct MemoryPlotData {
    QVector<double> keys; // tile numbers
    std::vector<MemoryPlotSeries> series;
    double maxTotal = 0; // tallest stack
};

// showGaps adds the alignment gaps as the top series (by category and by
// liveness); regions include gaps by definition, so it does not apply there.
MemoryPlotData buildMemoryPlotData(const ReportData& data, MemoryPlotMode mode, bool showGaps);

QString memoryPlotModeName(MemoryPlotMode mode);

} // namespace tessera::views
