#pragma once
// Item data roles shared by the table models in views/models: tables show
// formatted text (Qt::DisplayRole) and sort and export on raw values.
#include <Qt>

namespace tessera::views {

inline constexpr int kSortRole = Qt::UserRole + 1; // raw number or text to sort on
inline constexpr int kIdRole =
    Qt::UserRole + 2; // the row's id: variable id, tile number, block index
// Header data of a numeric column: its unit ("bytes", "cycles", "" for a plain
// count). CSV export writes such a column's kSortRole number, not its display
// text, and names the unit in the header. Unset: a text column.
inline constexpr int kUnitRole = Qt::UserRole + 10;

} // namespace tessera::views
