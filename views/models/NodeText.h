#pragma once
// Text both program models (tree and operations) show for a program node, so
// one node reads the same in either.
#include "views/models/ProgramStats.h"

#include <QString>

namespace tessera::views {

// "1,234", or "~1,234" when inherited from a data-dependent loop.
QString formatExecutions(const NodeStats& stats);

// Kind, label, ids, executions, cycles split, bytes received, peak memory (rich text).
QString nodeToolTip(const ReportData& data, const ProgramStats& stats, int nodePosition);

} // namespace tessera::views
