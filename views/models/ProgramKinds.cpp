#include "views/models/ProgramKinds.h"

#include "views/common/Colors.h"

namespace tessera::views {

QColor programKindColor(const std::string& kind) {
    if (kind == "Execute") {
        return phaseColor(Phase::Compute);
    }
    if (kind == "Copy" || kind == "StreamToDevice" || kind == "StreamToHost") {
        return phaseColor(Phase::Exchange);
    }
    if (kind == "Sync") {
        return phaseColor(Phase::Sync);
    }
    if (kind == "Block") {
        return QColor(0x94, 0x67, 0xbd);
    }
    if (kind == "Repeat" || kind == "RepeatWhileTrue" || kind == "RepeatWhileFalse" ||
        kind == "If" || kind == "Predicate") {
        return QColor(0xe0, 0x9b, 0x2d);
    }
    return QColor(0x9a, 0xa5, 0xb1); // Sequence, PrintTensor, ...
}

} // namespace tessera::views
