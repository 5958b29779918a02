#pragma once
// Views inside a pane that the command line can reach as "PANE/VIEW"
// (`--pane program/dataflow`): the Program pane's tabs.
#include <QString>
#include <QStringList>

namespace tessera::views {
class Pane;
}

namespace tessera::gui {

// "program/tree", "program/operations", "program/dataflow".
QStringList paneViewNames();
// "program/dataflow" -> {"program", "dataflow"}; a name without '/' has no view.
QString paneOf(const QString& name);
QString viewOf(const QString& name);
// Brings `view` of `pane` to the front; false when the pane has no such view.
bool showPaneView(views::Pane* pane, const QString& view);

} // namespace tessera::gui
