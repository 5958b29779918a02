#include "views/models/VariableLookup.h"

#include <algorithm>

namespace tessera::views {

VariableLookup::VariableLookup(const ReportData& data) {
    std::uint32_t maxId = 0;
    for (const auto& v : data.variables) {
        maxId = std::max(maxId, v.id.value());
    }
    byId_.assign(data.variables.empty() ? 0 : maxId + 1, nullptr);
    for (const auto& v : data.variables) {
        byId_[v.id.value()] = &v;
    }
}

QString variableKindLabel(const reports::VariableEntry& v) {
    if (v.isConstant) {
        return "constant";
    }
    if (v.alwaysLive) {
        return "always-live";
    }
    return v.isExchangeBuffer ? "exchange buffer" : "not-always-live";
}

QString variableLiveSteps(const reports::VariableEntry& v) {
    if (v.alwaysLive || v.isConstant || v.firstStep.isNone()) {
        return "always";
    }
    if (v.lastStep.isNone() || v.lastStep == v.firstStep) {
        return QString::number(v.firstStep.value());
    }
    return QString("%1 – %2").arg(v.firstStep.value()).arg(v.lastStep.value());
}

} // namespace tessera::views
