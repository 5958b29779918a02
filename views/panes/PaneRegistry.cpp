#include "views/panes/PaneRegistry.h"

#include "views/panes/DebugPane.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/LivenessPane.h"
#include "views/panes/MemoryPane.h"
#include "views/panes/ProgramPane.h"
#include "views/panes/SummaryPane.h"

namespace tessera::views {

std::vector<Pane*> createPanes(QWidget* parent) {
    return {new SummaryPane(parent), new MemoryPane(parent),    new LivenessPane(parent),
            new ProgramPane(parent), new ExecutionPane(parent), new DebugPane(parent)};
}

} // namespace tessera::views
