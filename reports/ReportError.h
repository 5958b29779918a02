#pragma once
// The one exception type of reports/: its what() is a single line fit to show
// a user as is ("tessera-cli: error: <what>").
#include <stdexcept>
#include <string>

namespace tessera::reports {

class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace tessera::reports
