#pragma once
// Words for the execution pane: tooltips of steps, rows and flame spans,
// and the names of program nodes.
#include "reports/ReportTypes.h"
#include "views/panes/execution/FlameSpans.h"
#include "views/panes/execution/TimelineFrame.h"
#include "views/panes/execution/TimelineRenderer.h"

#include <QString>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {
using reports::ReportData;
}

namespace tessera::views::execution {

// "name" or, for an unnamed node, its kind; "Repeat ×5000" for loops.
QString nodeLabel(const record::ProgramNodeRecord& node);
QString stepLabel(const ReportData& data, record::StepId programStep);
// `label` of `node` without the name of its nearest named ancestor and a "/"
// in front, when it starts so ("attention/q/copyA" under "attention/q": "copyA").
QString withoutAncestorPrefix(const ReportData& data, record::ProgramNodeId node,
                              const QString& label);
// Cycles with the time at the clock: "12,345 cycles (9.32 µs)".
QString cyclesText(double cycles, double clockHz);

// Rich text. `origin` is the run's first cycle (times are shown from it).
QString stepToolTip(const ReportData& data, const record::StepExecutionRecord& step, double origin);
QString rowToolTip(const QString& rowLabel, const TimelineItem& item, const RowFigures& figures,
                   double clockHz);
QString spanToolTip(const ReportData& data, const FlameSpan& span, double origin);

} // namespace tessera::views::execution
