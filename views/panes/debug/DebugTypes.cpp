#include "views/panes/debug/DebugTypes.h"

#include <QCoreApplication>

namespace tessera::views::debugger {

QString stopText(const PauseState& s) {
    const QString at = !s.step.isNone() ? QCoreApplication::translate("Debugger", "step %1 '%2'")
                                              .arg(s.step.value())
                                              .arg(s.stepName)
                                        : QString();
    switch (s.reason) {
    case debug::StopReason::Breakpoint:
        return QCoreApplication::translate("Debugger", "Breakpoint before %1").arg(at);
    case debug::StopReason::Stepped:
        return s.insideStep
                   ? QCoreApplication::translate("Debugger", "Inside %1: exchanged, not computed")
                         .arg(at)
                   : QCoreApplication::translate("Debugger", "Paused before %1").arg(at);
    case debug::StopReason::Paused:
        return QCoreApplication::translate("Debugger", "Paused by you before %1").arg(at);
    case debug::StopReason::Finished:
        return QCoreApplication::translate("Debugger", "Finished");
    case debug::StopReason::Error:
        return QCoreApplication::translate("Debugger", "Error at %1: %2").arg(at, s.message);
    case debug::StopReason::OutOfMemory:
        return QCoreApplication::translate("Debugger", "Out of memory before %1: %2")
            .arg(at, s.message);
    }
    return {};
}

} // namespace tessera::views::debugger
