#include "views/panes/execution/TimelineFrame.h"

#include <algorithm>

namespace tessera::views::execution {

std::size_t TimelineFrame::firstItemAfter(double cycle) const {
    auto it =
        std::upper_bound(items.begin(), items.end(), cycle, [](double c, const TimelineItem& item) {
            return c < static_cast<double>(item.endCycle());
        });
    return static_cast<std::size_t>(it - items.begin());
}

const record::StepExecutionRecord* TimelineFrame::stepAt(double cycle) const {
    auto it = std::upper_bound(steps.begin(), steps.end(), cycle,
                               [](double c, const record::StepExecutionRecord& e) {
                                   return c < static_cast<double>(e.startCycle + e.cycles);
                               });
    if (it == steps.end() || static_cast<double>(it->startCycle) > cycle) {
        return nullptr;
    }
    return &*it;
}

} // namespace tessera::views::execution
