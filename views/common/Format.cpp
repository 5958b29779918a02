#include "views/common/Format.h"

#include "reports/Figures.h"

#include <QLocale>

namespace tessera::views {

QString formatBytes(std::uint64_t bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    return u == 0 ? QString("%1 B").arg(bytes) : QString("%1 %2").arg(v, 0, 'f', 1).arg(units[u]);
}

QString formatCount(std::uint64_t value) {
    QString digits = QString::number(value);
    for (int i = digits.size() - 3; i > 0; i -= 3) {
        digits.insert(i, ',');
    }
    return digits;
}

QString formatPercent(double fraction) {
    return QString("%1%").arg(fraction * 100.0, 0, 'f', 1);
}

QString formatShare(double part, double whole) {
    return formatPercent(whole > 0 ? part / whole : 0);
}

QString formatCyclesAsTime(std::uint64_t cycles, double clockHz) {
    if (clockHz <= 0) {
        return QString();
    }
    const double seconds = static_cast<double>(cycles) / clockHz;
    if (seconds < 1e-6) {
        return QString("%1 ns").arg(seconds * 1e9, 0, 'f', 1);
    }
    if (seconds < 1e-3) {
        return QString("%1 µs").arg(seconds * 1e6, 0, 'f', 2);
    }
    if (seconds < 1) {
        return QString("%1 ms").arg(seconds * 1e3, 0, 'f', 2);
    }
    return QString("%1 s").arg(seconds, 0, 'f', 3);
}

QString formatAddress(std::uint64_t address) {
    return QString("0x%1").arg(address, 0, 16);
}

QString shapeText(const std::vector<std::uint64_t>& shape) {
    return QString::fromStdString(reports::shapeText(shape));
}

} // namespace tessera::views
