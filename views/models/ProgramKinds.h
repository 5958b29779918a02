#pragma once
// Program node kinds in the views: the record's enum, as it came from the
// engine through the report reader. Colours for the Program pane (tree
// swatches, graph nodes) and the flame graph: steps in the BSP phase colours,
// control nodes in quiet colours. Every kind is named here; a kind added to
// record::ProgramKind fails to compile until it gets a colour (-Wswitch).
#include "engine/record/Records.h"
#include "views/common/Colors.h"

#include <QColor>
#include <QString>

namespace tessera::views {

// The BSP phase a program step of this kind spends its time in: Execute
// computes, copies and stream copies exchange, everything else synchronises.
Phase stepPhase(record::ProgramKind kind);
QColor programKindColor(record::ProgramKind kind);
// "Execute", "StreamCopyToDevice", ...: the name reports store.
QString programKindText(record::ProgramKind kind);

} // namespace tessera::views
