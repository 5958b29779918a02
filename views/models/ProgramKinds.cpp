#include "views/models/ProgramKinds.h"

namespace tessera::views {

using record::ProgramKind;

Phase stepPhase(ProgramKind kind) {
    switch (kind) {
    case ProgramKind::Execute:
        return Phase::Compute;
    case ProgramKind::Copy:
    case ProgramKind::StreamToDevice:
    case ProgramKind::StreamToHost:
        return Phase::Exchange;
    case ProgramKind::Sequence:
    case ProgramKind::Repeat:
    case ProgramKind::RepeatWhileTrue:
    case ProgramKind::RepeatWhileFalse:
    case ProgramKind::If:
    case ProgramKind::PrintTensor:
    case ProgramKind::Block:
    case ProgramKind::Sync:
    case ProgramKind::Predicate:
    case ProgramKind::Switch:
    case ProgramKind::Abort:
    case ProgramKind::CycleStamp:
        return Phase::Sync;
    }
    return Phase::Sync;
}

QColor programKindColor(ProgramKind kind) {
    const QColor control(0xe0, 0x9b, 0x2d); // loops, branches and their conditions
    const QColor quiet(0x9a, 0xa5, 0xb1);   // structure and host-side output
    switch (kind) {
    case ProgramKind::Execute:
    case ProgramKind::Copy:
    case ProgramKind::StreamToDevice:
    case ProgramKind::StreamToHost:
    case ProgramKind::Sync:
        return phaseColor(stepPhase(kind));
    case ProgramKind::Block:
        return QColor(0x94, 0x67, 0xbd);
    case ProgramKind::Repeat:
    case ProgramKind::RepeatWhileTrue:
    case ProgramKind::RepeatWhileFalse:
    case ProgramKind::If:
    case ProgramKind::Predicate:
    case ProgramKind::Switch:
        return control;
    case ProgramKind::Abort:
        return QColor(0xd6, 0x27, 0x28); // stops the program: stands out
    case ProgramKind::CycleStamp:
        return QColor(0x17, 0xa2, 0xb8); // a measurement, not work
    case ProgramKind::Sequence:
    case ProgramKind::PrintTensor:
        return quiet;
    }
    return quiet;
}

QString programKindText(ProgramKind kind) {
    return QString::fromLatin1(record::programKindName(kind));
}

} // namespace tessera::views
