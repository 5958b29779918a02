#pragma once
// `tessera FILE.tsr [--compare NEW.tsr] --pane NAME --screenshot OUT.png`:
// render one pane offscreen, save it, exit. For docs and CI. `tessera --pane
// debug --workload W [--break B]... [--inspect T]... --screenshot OUT.png`
// shows the Debugger paused at the breakpoint (no report needed).
#include <QSize>
#include <QString>
#include <QStringList>

namespace tessera::gui {

struct ScreenshotRequest {
    QString report;
    QString compare; // a second report: the pane is rendered in compare mode
    QString pane;
    QString output;
    QSize size{1400, 900}; // at least the window's minimum size hint, else refused
    QString theme;         // "", "light" or "dark"
    QString selectTiles;   // the Memory pane's tile selection, as typed there ("0-3, 17")
    // The Debugger's run (with an empty report): a workload, its options, the
    // breakpoints to continue to, and tensors to inspect (the first) and watch.
    QString workload;
    QString target;
    QStringList params; // NAME=VALUE
    QString plugin;
    QStringList breaks;
    QStringList inspect;
};

// Returns the process exit code (0 ok, 2 bad input: a report that cannot be
// opened or is damaged, where nothing is written), printing one line on
// stderr on failure (Qt's own warnings are not printed in this mode) and the
// written path on stdout on success.
int takeScreenshot(const ScreenshotRequest& request);

} // namespace tessera::gui
