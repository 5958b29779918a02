#pragma once
// Variables of a report by id in constant time (ids may have gaps), and the
// words the liveness tables use for a variable's kind and live range.
#include "views/data/ReportData.h"

#include <QString>

#include <vector>

namespace tessera::views {

class VariableLookup {
public:
    VariableLookup() = default;
    explicit VariableLookup(const ReportData& data);

    const reports::VariableEntry* find(record::VariableId id) const { // null for none()
        return id.value() < byId_.size() ? byId_[id.value()] : nullptr;
    }

private:
    std::vector<const reports::VariableEntry*> byId_;
};

// "always-live", "not-always-live", "exchange buffer" or "constant".
QString variableKindLabel(const reports::VariableEntry& v);
// "3 – 24", "7" or "always".
QString variableLiveSteps(const reports::VariableEntry& v);

} // namespace tessera::views
