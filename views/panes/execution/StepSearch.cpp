#include "views/panes/execution/StepSearch.h"

#include "views/common/Format.h"
#include "views/data/ReportData.h"

#include <QCoreApplication>

#include <algorithm>

namespace tessera::views::execution {

std::size_t StepMatches::firstAtOrAfter(double cycle) const {
    return static_cast<std::size_t>(
        std::lower_bound(found.begin(), found.end(), cycle,
                         [](const record::StepExecutionRecord& e, double c) {
                             return static_cast<double>(e.startCycle) < c;
                         }) -
        found.begin());
}

std::vector<bool> matchingSteps(const ReportData& data, const QString& text) {
    std::uint32_t size = 0;
    for (const reports::ProgramStepEntry& s : data.programSteps) {
        size = std::max(size, s.id.value() + 1);
    }
    std::vector<bool> flags(size, false);
    if (text.isEmpty()) {
        return flags;
    }
    auto contains = [&](const std::string& name) {
        return !name.empty() && QString::fromStdString(name).contains(text, Qt::CaseInsensitive);
    };
    for (const reports::ProgramStepEntry& s : data.programSteps) {
        bool match = contains(s.name);
        if (!match && !s.computeSet.isNone()) {
            match = contains(data.computeSetName(s.computeSet));
        }
        if (!match && !s.operation.isNone()) {
            const record::ProgramNodeRecord* op = data.node(s.operation);
            match = op && contains(op->name);
        }
        flags[s.id.value()] = match;
    }
    return flags;
}

QString matchCountText(const StepMatches* matches, int current) {
    auto tr = [](const char* text) { return QCoreApplication::translate("StepSearch", text); };
    if (!matches || matches->text.isEmpty()) {
        return {};
    }
    if (matches->total == 0) {
        return tr("no matches");
    }
    const QString total =
        formatCount(matches->total); // exact, though only the first kMaxSearchMatches are held
    const QString at =
        current >= 0 ? formatCount(static_cast<std::uint64_t>(current) + 1) : QStringLiteral("–");
    return tr("%1 of %2").arg(at, total);
}

} // namespace tessera::views::execution
