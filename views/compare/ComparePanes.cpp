#include "views/compare/CompareExecutionPane.h"
#include "views/compare/CompareLivenessPane.h"
#include "views/compare/CompareMemoryPane.h"
#include "views/compare/CompareProgramPane.h"
#include "views/compare/CompareSummaryPane.h"

namespace tessera::views {

std::vector<ComparePane*> createComparePanes(QWidget* parent) {
    return {new CompareSummaryPane(parent), new CompareMemoryPane(parent),
            new CompareLivenessPane(parent), new CompareProgramPane(parent),
            new CompareExecutionPane(parent)};
}

} // namespace tessera::views
