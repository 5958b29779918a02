#pragma once
// A table model's column header, from its title, tooltip and unit: the unit
// (kUnitRole) marks a numeric column, right-aligned and exported as numbers;
// a column without one (nullptr) holds text, left-aligned.
#include <QVariant>

namespace tessera::views {

struct ColumnHeader {
    const char* title;
    const char* tip;
    const char* unit; // "bytes", "cycles", "" for a plain count; nullptr: text
};

// The header's data for `role` (display, tooltip, unit, alignment), or none.
QVariant columnHeaderData(const ColumnHeader& column, int role);

} // namespace tessera::views
