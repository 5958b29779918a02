#include "views/panes/PaneRegistry.h"

#include "views/panes/MemoryPane.h"
#include "views/panes/SummaryPane.h"

namespace tessera::views {

std::vector<Pane*> createPanes(QWidget* parent) {
    return {new SummaryPane(parent), new MemoryPane(parent)};
}

} // namespace tessera::views
