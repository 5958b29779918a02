#pragma once
// A failed read of a report, as one line for people: the text of a
// reports::ReportError as is (it names the file and what is damaged), any
// other exception named as a failure to read.
#include <QString>

#include <exception>

namespace tessera::views {

QString problemText(const std::exception& error);

} // namespace tessera::views
