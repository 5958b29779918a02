#pragma once
// The panes of the main window, in tab order.
#include <QWidget>
#include <vector>

#include "views/common/Pane.h"

namespace tessera::views {

std::vector<Pane*> createPanes(QWidget* parent);

} // namespace tessera::views
