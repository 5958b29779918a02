#pragma once
// Number formatting shared by panes: bytes, cycles, percentages.
#include <QString>

#include <cstdint>
#include <vector>

namespace tessera::views {

QString formatBytes(std::uint64_t bytes);       // "1.5 KiB", "624.0 KiB", "12 B"
QString formatCount(std::uint64_t value);       // "12,345"
QString formatPercent(double fraction);         // 0.123 -> "12.3%"
QString formatShare(double part, double whole); // part of whole, "0.0%" of nothing
QString formatCyclesAsTime(std::uint64_t cycles, double clockHz); // "7.68 µs"
QString formatAddress(std::uint64_t address);                     // "0x4c000"
// A tensor shape or an element index: "[128, 64]" (reports::shapeText).
QString shapeText(const std::vector<std::uint64_t>& shape);

} // namespace tessera::views
