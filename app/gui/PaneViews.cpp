#include "PaneViews.h"

#include "views/panes/ProgramPane.h"

#include <QTabWidget>

#include <array>
#include <utility>

namespace tessera::gui {

namespace {
using views::ProgramPane;
const std::array<std::pair<const char*, ProgramPane::Tab>, 3> kProgramViews{{
    {"tree", ProgramPane::TreeTab},
    {"operations", ProgramPane::OperationsTab},
    {"dataflow", ProgramPane::GraphTab},
}};
} // namespace

QStringList paneViewNames() {
    QStringList names;
    for (const auto& [name, tab] : kProgramViews) {
        names << QStringLiteral("program/") + QLatin1String(name);
    }
    return names;
}

QString paneOf(const QString& name) {
    return name.section(QLatin1Char('/'), 0, 0);
}

QString viewOf(const QString& name) {
    return name.contains(QLatin1Char('/')) ? name.section(QLatin1Char('/'), 1) : QString();
}

bool showPaneView(views::Pane* pane, const QString& view) {
    auto* program = qobject_cast<ProgramPane*>(pane);
    if (program == nullptr) {
        return false;
    }
    for (const auto& [name, tab] : kProgramViews) {
        if (view == QLatin1String(name)) {
            program->tabs()->setCurrentIndex(tab);
            return true;
        }
    }
    return false;
}

} // namespace tessera::gui
