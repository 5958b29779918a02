#pragma once
// Driving a DebugPane in tests: wait for a command's pause and its values.
#include "views/panes/DebugPane.h"
#include "views/panes/debug/DebugController.h"

#include <QSignalSpy>
#include <QTest>

namespace tessera::testing {

// Waits until the pane has no command running and no values awaited.
inline bool waitIdle(views::DebugPane& pane, int timeoutMs = 60000) {
    return QTest::qWaitFor([&] { return pane.isReady(); }, timeoutMs);
}

inline views::debugger::DebugConfig debugConfig(const QString& workload, const QString& target,
                                                std::map<std::string, std::string> params,
                                                QStringList breaks = {}) {
    views::debugger::DebugConfig c;
    c.workload = workload;
    c.target = target;
    c.params = std::move(params);
    c.breaks = std::move(breaks);
    return c;
}

} // namespace tessera::testing
