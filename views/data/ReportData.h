#pragma once
// The views draw from the loaded report of reports/ReportData.h (the
// comparison core compares the same structure); these are its names here.
#include "reports/ReportData.h"

namespace tessera::views {

using reports::LoadCancelled;
using reports::LoadOptions;
using reports::LoadProgress;
using reports::loadReportData;
using reports::ReportData;

} // namespace tessera::views
