#include "views/panes/memory/MemoryPlotData.h"

#include "views/common/Colors.h"
#include "views/data/ReportData.h"

#include <algorithm>
#include <array>

namespace tessera::views {

namespace {

QColor regionColor(std::size_t i) {
    static const std::array<QColor, 4> colors = {QColor(0x4c, 0x78, 0xa8), QColor(0x72, 0xb7, 0xb2),
                                                 QColor(0x9d, 0x75, 0x5d),
                                                 QColor(0xb2, 0x79, 0xa2)};
    return colors[i % colors.size()];
}

void addSeries(MemoryPlotData& out, const QString& name, const QColor& color,
               QVector<double> values) {
    if (std::any_of(values.begin(), values.end(), [](double v) { return v > 0; })) {
        out.series.push_back({name, color, std::move(values)});
    }
}

} // namespace

QString memoryPlotModeName(MemoryPlotMode mode) {
    switch (mode) {
    case MemoryPlotMode::ByCategory:
        return "By category";
    case MemoryPlotMode::ByRegion:
        return "By region";
    case MemoryPlotMode::ByLiveness:
        return "By liveness";
    }
    return {};
}

MemoryPlotData buildMemoryPlotData(const ReportData& data, MemoryPlotMode mode, bool showGaps) {
    MemoryPlotData out;
    const auto& tiles = data.tileMemory;
    const auto n = static_cast<qsizetype>(tiles.size());
    out.keys.resize(n);
    for (qsizetype i = 0; i < n; ++i) {
        out.keys[i] = tiles[static_cast<std::size_t>(i)].tile.value();
    }
    auto column = [&](auto&& value) {
        QVector<double> v(n);
        for (qsizetype i = 0; i < n; ++i) {
            v[i] = static_cast<double>(value(tiles[static_cast<std::size_t>(i)]));
        }
        return v;
    };
    switch (mode) {
    case MemoryPlotMode::ByCategory:
        for (const auto& c : data.categories) {
            addSeries(out, QString::fromStdString(c.name), categoryColor(c.id),
                      column([&](const auto& t) {
                          return c.id < t.bytesByCategory.size() ? t.bytesByCategory[c.id] : 0;
                      }));
        }
        break;
    case MemoryPlotMode::ByRegion:
        for (std::size_t r = 0; r < data.target.regions.size(); ++r) {
            addSeries(out, QString::fromStdString(data.target.regions[r].name), regionColor(r),
                      column([&](const auto& t) {
                          return r < t.bytesByRegion.size() ? t.bytesByRegion[r] : 0;
                      }));
        }
        addSeries(out, "overflow", capacityLineColor(),
                  column([](const auto& t) { return t.overflowBytes; }));
        break;
    case MemoryPlotMode::ByLiveness:
        addSeries(out, "always-live", categoryColor(record::MemoryCategory::AlwaysLiveVariable),
                  column([](const auto& t) { return t.alwaysLiveBytes; }));
        addSeries(out, "not-always-live peak",
                  categoryColor(record::MemoryCategory::NotAlwaysLiveVariable),
                  column([](const auto& t) { return t.notAlwaysLivePeakBytes; }));
        break;
    }
    if (showGaps && mode != MemoryPlotMode::ByRegion) {
        addSeries(out, "gaps", gapColor(), column([](const auto& t) { return t.gapBytes; }));
    }
    for (qsizetype i = 0; i < n; ++i) {
        double sum = 0;
        for (const auto& s : out.series) {
            sum += s.values[i];
        }
        out.maxTotal = std::max(out.maxTotal, sum);
    }
    return out;
}

} // namespace tessera::views
