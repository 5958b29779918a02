#pragma once
// The panes of the main window, in tab order.
#include "views/common/Pane.h"

#include <QWidget>

#include <vector>

namespace tessera::views {

std::vector<Pane*> createPanes(QWidget* parent);

} // namespace tessera::views
