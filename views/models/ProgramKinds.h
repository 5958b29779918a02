#pragma once
// The colour of a program node kind in the Program pane (tree swatches,
// graph nodes): compute and exchange steps in the BSP phase colours, control
// nodes in quiet colours.
#include <QColor>

#include <string>

namespace tessera::views {

QColor programKindColor(const std::string& kind);

} // namespace tessera::views
