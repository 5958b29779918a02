#include "views/models/NodeText.h"

#include "views/common/Format.h"
#include "views/models/ProgramKinds.h"

namespace tessera::views {

QString formatExecutions(const NodeStats& a) {
    return a.executionsExact ? formatCount(a.executions)
                             : QString("~%1").arg(formatCount(a.executions));
}

QString nodeToolTip(const ReportData& data, const ProgramStats& stats, int node) {
    const auto& n = data.programNodes[static_cast<std::size_t>(node)];
    const NodeStats& a = stats.nodes[static_cast<std::size_t>(node)];
    QString tip = QString("<b>%1</b> %2<br>node %3")
                      .arg(programKindText(n.kind),
                           QString::fromStdString(nodeLabel(data, stats, node)).toHtmlEscaped())
                      .arg(n.id.value());
    if (!n.step.isNone()) {
        tip += QString(", step %1").arg(n.step.value());
    }
    if (!n.computeSet.isNone()) {
        tip += QString(", compute set %1").arg(n.computeSet.value());
    }
    tip += QString("<br>executions: %1%2")
               .arg(formatCount(a.executions),
                    a.executionsExact ? "" : " (estimated: data-dependent loop)");
    tip += QString("<br>cycles: %1 (compute %2, exchange %3, sync %4)")
               .arg(formatCount(a.cycles), formatCount(a.computeCycles),
                    formatCount(a.exchangeCycles), formatCount(a.syncCycles));
    if (a.bytesExchanged) {
        tip += QString("<br>bytes received over all tiles: %1").arg(formatBytes(a.bytesExchanged));
    }
    tip += QString("<br>peak not-always-live bytes (fullest tile): %1")
               .arg(formatBytes(a.peakNotAlwaysLive));
    return tip;
}

} // namespace tessera::views
