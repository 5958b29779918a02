#include "views/panes/execution/StepText.h"

#include "reports/Figures.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/ProgramKinds.h"

#include <algorithm>

namespace tessera::views::execution {

namespace {

QString count(double v) {
    return formatCount(static_cast<std::uint64_t>(std::max(0.0, v + 0.5)));
}

} // namespace

QString nodeLabel(const record::ProgramNodeRecord& node) {
    QString label =
        node.name.empty() ? programKindText(node.kind) : QString::fromStdString(node.name);
    if (node.kind == record::ProgramKind::Repeat && node.repeatCount > 0) {
        label += QString(" ×%1").arg(formatCount(node.repeatCount));
    }
    return label;
}

QString stepLabel(const ReportData& data, record::StepId programStep) {
    const reports::ProgramStepEntry* s = data.step(programStep);
    if (!s) {
        return QString("step %1").arg(programStep.value());
    }
    if (!s->name.empty()) {
        return QString::fromStdString(s->name);
    }
    if (!s->computeSet.isNone()) {
        return QString::fromStdString(data.computeSetName(s->computeSet));
    }
    return programKindText(s->kind);
}

QString withoutAncestorPrefix(const ReportData& data, record::ProgramNodeId node,
                              const QString& label) {
    const record::ProgramNodeRecord* n = data.node(node);
    for (std::size_t guard = 0; n && !n->parent.isNone() && guard < data.programNodes.size();
         ++guard) {
        n = data.node(n->parent);
        if (n && !n->name.empty()) {
            const QString prefix = QString::fromStdString(n->name) + "/";
            return label.startsWith(prefix) && label.size() > prefix.size()
                       ? label.mid(prefix.size())
                       : label;
        }
    }
    return label;
}

QString cyclesText(double cycles, double clockHz) {
    QString text = QString("%1 cycles").arg(count(cycles));
    if (clockHz > 0) {
        text += QString(" (%1)").arg(
            formatCyclesAsTime(static_cast<std::uint64_t>(std::max(0.0, cycles)), clockHz));
    }
    return text;
}

QString stepToolTip(const ReportData& data, const record::StepExecutionRecord& e, double origin) {
    const double clock = data.target.clockHz;
    QString text = QString("<b>%1</b>").arg(stepLabel(data, e.programStep).toHtmlEscaped());
    const reports::ProgramStepEntry* s = data.step(e.programStep);
    if (s) {
        text += QString(" <i>%1</i>").arg(programKindText(s->kind));
    }
    text += QString("<br>step #%1 · execution #%2")
                .arg(e.programStep.value())
                .arg(formatCount(e.sequence));
    text += QString("<br>at %1 · %2")
                .arg(cyclesText(static_cast<double>(e.startCycle) - origin, clock))
                .arg(cyclesText(static_cast<double>(e.cycles), 0));
    if (s) {
        const auto total = static_cast<double>(s->totalCycles);
        text += QString("<br>sync %1 (%2) · exchange %3 (%4) · compute %5 (%6)")
                    .arg(count(static_cast<double>(s->syncCycles)))
                    .arg(formatShare(static_cast<double>(s->syncCycles), total))
                    .arg(count(static_cast<double>(s->exchangePhaseCycles)))
                    .arg(formatShare(static_cast<double>(s->exchangePhaseCycles), total))
                    .arg(count(static_cast<double>(s->computePhaseCycles)))
                    .arg(formatShare(static_cast<double>(s->computePhaseCycles), total));
        if (s->computeCyclesMax > 0 && data.target.numTiles > 0) {
            text += QString("<br>tile balance %1")
                        .arg(formatPercent(reports::tileBalance(*s, data.target.numTiles)));
        }
    }
    return text;
}

QString rowToolTip(const QString& rowLabel, const TimelineItem& item, const RowFigures& f,
                   double clockHz) {
    QString text = QString("<b>%1</b>").arg(rowLabel.toHtmlEscaped());
    if (item.steps > 1) {
        text += QString(" · %1 steps (#%2–#%3), %4")
                    .arg(formatCount(item.steps))
                    .arg(formatCount(item.firstSeq))
                    .arg(formatCount(item.firstSeq + item.steps - 1))
                    .arg(cyclesText(static_cast<double>(item.cycles), clockHz));
    }
    const double tileTime = f.tiles * f.cycles;
    if (tileTime > 0) {
        text += QString("<br>of the tiles' time: compute %1 · exchange %2 · sync %3")
                    .arg(formatShare(f.compute, tileTime))
                    .arg(formatShare(f.exchange, tileTime))
                    .arg(formatShare(f.sync, tileTime));
    }
    if (f.tiles > 1) {
        text += QString("<br>compute per tile: %1 … %2 cycles (mean %3)")
                    .arg(count(f.computeMin))
                    .arg(count(f.computeMax))
                    .arg(count(f.compute / f.tiles));
        if (f.computeMax > 0) {
            text +=
                QString(", balance %1")
                    .arg(formatPercent(reports::tileBalance(f.compute / f.tiles, f.computeMax)));
        }
        text += QString("<br>exchange per tile: %1 … %2 cycles")
                    .arg(count(f.exchangeMin))
                    .arg(count(f.exchangeMax));
    } else if (f.tiles == 1) {
        text += QString("<br>compute %1 · exchange %2 cycles")
                    .arg(count(f.compute))
                    .arg(count(f.exchange));
    }
    return text;
}

QString spanToolTip(const ReportData& data, const FlameSpan& span, double origin) {
    const double clock = data.target.clockHz;
    QString text;
    if (!span.programStep.isNone()) {
        text = QString("<b>%1</b>").arg(stepLabel(data, span.programStep).toHtmlEscaped());
    } else if (const record::ProgramNodeRecord* n = data.node(span.node)) {
        text = QString("<b>%1</b> <i>%2</i>")
                   .arg(nodeLabel(*n).toHtmlEscaped(), programKindText(n->kind));
    }
    text += QString("<br>at %1<br>%2 over %3 executed step%4")
                .arg(cyclesText(static_cast<double>(span.startCycle) - origin, clock))
                .arg(cyclesText(static_cast<double>(span.endCycle - span.startCycle), clock))
                .arg(formatCount(span.executions))
                .arg(span.executions == 1 ? "" : "s");
    return text;
}

} // namespace tessera::views::execution
