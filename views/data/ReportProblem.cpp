#include "views/data/ReportProblem.h"

#include "reports/ReportError.h"

namespace tessera::views {

QString problemText(const std::exception& error) {
    QString text = QString::fromUtf8(error.what());
    if (dynamic_cast<const reports::ReportError*>(&error) == nullptr) {
        text = QStringLiteral("cannot read the report: %1").arg(text);
    }
    // One line, whatever the exception said.
    return text.simplified();
}

} // namespace tessera::views
