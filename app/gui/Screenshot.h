#pragma once
// `tessera FILE.tsr [--compare NEW.tsr] --pane NAME --screenshot OUT.png`: render one pane
// offscreen, save it, exit. For docs and CI.
#include <QSize>
#include <QString>

namespace tessera::gui {

struct ScreenshotRequest {
    QString report;
    QString compare; // a second report: the pane is rendered in compare mode
    QString pane;
    QString output;
    QSize size{1400, 900};
    QString theme; // "", "light" or "dark"
};

// Returns the process exit code (0 ok, 2 bad input), printing one line on
// stderr on failure and the written path on stdout on success.
int takeScreenshot(const ScreenshotRequest& request);

} // namespace tessera::gui
